import Foundation

/// A reader of Apple's binary property lists (`bplist00`), enough for `NSKeyedArchiver` archives: every object type
/// but sets is read (sets as arrays), including the archiver's UIDs, which Foundation's parser on Linux hides in a
/// private class.
///
/// Hostile files are bounded: every offset and count is checked against the file, references against the object
/// table, nesting is limited (``maximumDepth``), a reference cycle is an error, and so is a file whose shared
/// objects would be read more often than it has bytes (each reference takes at least one). Nothing traps.
///
/// Format (Apple's `CFBinaryPList.c`): the 8-byte header `bplist00`; objects, each a marker byte (high nibble the
/// type, low nibble a count or size, `0xF` meaning an integer object with the count follows); an offset table; a
/// 32-byte trailer (offset size, reference size, object count, top object, offset-table offset).
enum BinaryPropertyList {
    /// A property-list value; arrays and dictionaries are resolved.
    enum Value: Sendable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01T00:00:00Z.
        case date(Double)
        case data([UInt8])
        case string(String)
        /// An `NSKeyedArchiver` object reference (index into `$objects`).
        case uid(Int)
        case array([Value])
        case dictionary([(key: String, value: Value)])

        /// The value for `key` of a dictionary; nil otherwise.
        subscript(key: String) -> Value? {
            guard case .dictionary(let entries) = self else { return nil }
            return entries.first { $0.key == key }?.value
        }
    }

    /// Deepest nesting of arrays and dictionaries read.
    static let maximumDepth = 256
    /// Most objects one file may declare.
    static let maximumObjects = 1 << 22

    /// True when `data` starts with the binary property list header.
    static func isBinaryPropertyList(_ data: Data) -> Bool { data.starts(with: Array("bplist00".utf8)) }

    /// Parses a binary property list.
    /// - Throws: ``InputError`` (`.syntax`) naming the file and what is wrong.
    static func parse(_ data: Data, file: String) throws(InputError) -> Value {
        let bytes = [UInt8](data)
        func fail(_ what: String) -> InputError {
            InputError(.syntax, file: file, expected: "a binary property list (bplist00)", found: what)
        }
        guard bytes.count >= 8 + 32, isBinaryPropertyList(data) else { throw fail("a file too short for one") }
        let t = bytes.count - 32
        let offsetSize = Int(bytes[t + 6])
        let referenceSize = Int(bytes[t + 7])
        func big(_ at: Int, _ size: Int) -> Int? {
            guard size >= 1, size <= 8, at >= 0, at + size <= bytes.count else { return nil }
            var v: UInt64 = 0
            for i in 0..<size { v = v << 8 | UInt64(bytes[at + i]) }
            return v <= UInt64(Int.max) ? Int(v) : nil
        }
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), let count = big(t + 8, 8),
            let top = big(t + 16, 8), let tableOffset = big(t + 24, 8)
        else { throw fail("a malformed trailer") }
        guard count >= 1, count <= maximumObjects, top < count, tableOffset >= 8,
            tableOffset <= t, count <= (t - tableOffset) / offsetSize
        else { throw fail("a trailer whose object table does not fit the file") }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for i in 0..<count {
            guard let o = big(tableOffset + i * offsetSize, offsetSize), o >= 8, o < tableOffset else {
                throw fail("an object offset outside the object area")
            }
            offsets.append(o)
        }

        var visiting = Set<Int>()
        // Objects may be referenced more than once (a tree of shared branches doubles at every level). A file holds
        // at most one reference per byte, so reading more objects than it has bytes means shared branches are being
        // re-read without end: refused.
        var budget = bytes.count + count
        func object(_ index: Int, depth: Int) throws(InputError) -> Value {
            guard index >= 0, index < count else { throw fail("a reference to object \(index) of \(count)") }
            budget -= 1
            guard budget >= 0 else { throw fail("objects shared so often that reading them would not end") }
            guard depth <= maximumDepth else { throw fail("nesting deeper than \(maximumDepth)") }
            let at = offsets[index]
            let marker = bytes[at]
            let high = marker >> 4
            let low = Int(marker & 0x0F)
            // The count of a sized object and where its body starts.
            func length() throws(InputError) -> (count: Int, start: Int) {
                guard low == 0x0F else { return (low, at + 1) }
                guard at + 1 < tableOffset else { throw fail("a truncated count") }
                let intMarker = bytes[at + 1]
                let size = 1 << Int(intMarker & 0x0F)
                guard intMarker >> 4 == 0x1, size <= 8, let n = big(at + 2, size) else {
                    throw fail("a malformed count at byte \(at)")
                }
                return (n, at + 2 + size)
            }
            func within(_ start: Int, _ length: Int) -> Bool {
                length >= 0 && start >= 0 && start <= tableOffset && length <= tableOffset - start
            }
            switch high {
            case 0x0:
                switch low {
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: return .null
                }
            case 0x1:
                let size = 1 << low
                guard size <= 16, within(at + 1, size) else { throw fail("a truncated integer at byte \(at)") }
                if size == 16 {  // 128-bit: the low 8 bytes, when the high ones are a sign extension
                    guard let v = big(at + 9, 8) else { throw fail("an integer out of range at byte \(at)") }
                    return .integer(Int64(v))
                }
                var v: UInt64 = 0
                for i in 0..<size { v = v << 8 | UInt64(bytes[at + 1 + i]) }
                return .integer(size == 8 ? Int64(bitPattern: v) : Int64(v))
            case 0x2, 0x3:
                let size = high == 0x3 ? 8 : 1 << low
                guard size == 4 || size == 8, within(at + 1, size) else { throw fail("a malformed real at byte \(at)") }
                var v: UInt64 = 0
                for i in 0..<size { v = v << 8 | UInt64(bytes[at + 1 + i]) }
                let x = size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: v))) : Double(bitPattern: v)
                return high == 0x3 ? .date(x) : .real(x)
            case 0x4:
                let (n, start) = try length()
                guard within(start, n) else { throw fail("data longer than the file at byte \(at)") }
                return .data(Array(bytes[start..<(start + n)]))
            case 0x5:
                let (n, start) = try length()
                guard within(start, n) else { throw fail("a string longer than the file at byte \(at)") }
                return .string(String(decoding: bytes[start..<(start + n)], as: UTF8.self))
            case 0x6:
                let (n, start) = try length()
                guard n <= tableOffset / 2, within(start, 2 * n) else {
                    throw fail("a string longer than the file at byte \(at)")
                }
                var units: [UInt16] = []
                units.reserveCapacity(n)
                for i in 0..<n { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                guard let v = big(at + 1, low + 1), at + 1 + low + 1 <= tableOffset else {
                    throw fail("a malformed UID at byte \(at)")
                }
                return .uid(v)
            case 0xA, 0xC, 0xD:
                let (n, start) = try length()
                let references = high == 0xD ? 2 * n : n
                guard n <= count, within(start, references * referenceSize) else {
                    throw fail("a collection longer than the file at byte \(at)")
                }
                guard visiting.insert(index).inserted else { throw fail("a reference cycle at object \(index)") }
                defer { visiting.remove(index) }
                func reference(_ i: Int) throws(InputError) -> Int {
                    guard let r = big(start + i * referenceSize, referenceSize) else { throw fail("a bad reference") }
                    return r
                }
                if high == 0xD {
                    var entries: [(key: String, value: Value)] = []
                    entries.reserveCapacity(n)
                    for i in 0..<n {
                        guard case .string(let key) = try object(try reference(i), depth: depth + 1) else {
                            throw fail("a dictionary key that is not a string at byte \(at)")
                        }
                        entries.append((key, try object(try reference(n + i), depth: depth + 1)))
                    }
                    return .dictionary(entries)
                }
                var items: [Value] = []
                items.reserveCapacity(n)
                for i in 0..<n { items.append(try object(try reference(i), depth: depth + 1)) }
                return .array(items)
            default:
                throw fail("an unknown object marker 0x\(String(marker, radix: 16)) at byte \(at)")
            }
        }
        return try object(top, depth: 0)
    }
}
