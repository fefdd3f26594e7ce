import Foundation

/// A parsed JSON document (RFC 8259) that keeps object key order and numbers as `Double`.
///
/// Used for ResearchKit result files (kilobytes); recorder logs (megabytes) stream through
/// ``RecorderLogDecoder`` instead and never build a tree.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number, parsed to the nearest `Double` (correctly rounded).
    case number(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, keys in document order.
    case object(JSONObject)

    /// A short description of the value's type and, for scalars, its value, for error messages.
    public var summary: String {
        switch self {
        case .null: "null"
        case .bool(let b): "boolean \(b)"
        case .number(let d): "number \(ResultEncoding.number(d, digits: 17))"
        case .string(let s): "string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array(let a): "array of \(a.count)"
        case .object(let o): "object with keys \(o.keys.prefix(6).joined(separator: ", "))\(o.keys.count > 6 ? ", …" : "")"
        }
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The array, if this is one.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The number, if this is one.
    public var numberValue: Double? { if case .number(let d) = self { d } else { nil } }
    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
}

/// A JSON object with its keys in document order.
public struct JSONObject: Sendable, Hashable {
    /// Key–value pairs in document order (a repeated key keeps its last value in ``subscript(_:)``).
    public var entries: [(key: String, value: JSONValue)]

    /// Creates an object from ordered pairs.
    public init(_ entries: [(key: String, value: JSONValue)]) { self.entries = entries }

    /// The value for `key` (the last one if the key repeats), or nil.
    public subscript(_ key: String) -> JSONValue? {
        for entry in entries.reversed() where entry.key == key { return entry.value }
        return nil
    }

    /// Keys in document order.
    public var keys: [String] { entries.map(\.key) }

    /// Each key once, in the order of its first occurrence and with that spelling, holding the key's last value
    /// (keys compared as Swift strings, canonical equivalence included): the object as ``subscript(_:)`` sees it,
    /// in linear time.
    public var uniqueEntries: [(key: String, value: JSONValue)] {
        if entries.count <= 16 {
            // The usual small object: look for a repeat pairwise before building any table.
            let repeats = entries.indices.contains { i in
                entries[(i + 1)...].contains { $0.key == entries[i].key }
            }
            if !repeats { return entries }
        }
        var last: [String: Int] = [:]
        last.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() { last[entry.key] = i }
        guard last.count < entries.count else { return entries }
        var seen: Set<String> = []
        var out: [(key: String, value: JSONValue)] = []
        out.reserveCapacity(last.count)
        for entry in entries where seen.insert(entry.key).inserted {
            out.append((entry.key, last[entry.key].map { entries[$0].value } ?? entry.value))
        }
        return out
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for e in entries {
            hasher.combine(e.key)
            hasher.combine(e.value)
        }
    }
}

/// Parses JSON text into ``JSONValue`` with precise errors (line, column and JSON path).
public enum JSONParser {
    /// Maximum nesting depth accepted (deeper input is rejected, never a stack overflow).
    public static let maximumDepth = 256

    /// Parses a whole document.
    /// - Parameters:
    ///   - data: UTF-8 JSON text (a UTF-8 byte-order mark is skipped).
    ///   - file: the file name used in errors.
    /// - Throws: ``InputError`` of kind `.syntax` naming the position and what was expected.
    public static func parse(_ data: Data, file: String) throws(InputError) -> JSONValue {
        let result: Result<JSONValue, InputError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = JSONScanner(bytes: bytes, file: file)
            do throws(InputError) {
                scanner.skipBOM()
                scanner.skipWhitespace()
                if scanner.atEnd { throw scanner.error(expected: "a JSON value", found: "an empty document") }
                let value = try scanner.readValue(depth: 0)
                scanner.skipWhitespace()
                if !scanner.atEnd { throw scanner.error(expected: "end of document", found: scanner.describeHere()) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// A cursor over UTF-8 JSON bytes. Tracks the JSON path for error messages.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    var index = 0
    /// Path components of the value being read (`items`, `[12]`, `x`).
    var path: [String] = []
    /// When true (recorder logs: ``RecorderLogDecoder``), `NaN`, `Infinity` and `-Infinity` are read (as
    /// non-finite numbers; the tree reader makes them `null`) and counted in ``nonFiniteLiterals``; when false
    /// (every other JSON input) they are errors naming the literal.
    var readsNonFinite = false
    /// The non-finite literals read so far.
    var nonFiniteLiterals = 0

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
    }

    var atEnd: Bool { index >= bytes.count }

    @inline(__always) func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipBOM() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 } else { return }
        }
    }

    // MARK: Errors

    /// The JSON path of the current position, `$` for the root.
    var pathString: String {
        var s = "$"
        for p in path {
            if p.hasPrefix("[") { s += p } else { s += "." + p }
        }
        return s
    }

    /// Line and column (1-based, columns in bytes) of `offset`.
    func lineColumn(_ offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            if bytes[k] == 0x0A {
                line += 1
                lineStart = k + 1
            }
            k += 1
        }
        return (line, end - lineStart + 1)
    }

    func error(expected: String?, found: String?, at offset: Int? = nil, message: String? = nil) -> InputError {
        let (line, column) = lineColumn(offset ?? index)
        return InputError(
            .syntax, file: file, location: "\(pathString) (line \(line), column \(column))", expected: expected,
            found: found, message: message)
    }

    /// A human description of the bytes at the cursor.
    func describeHere() -> String {
        guard index < bytes.count else { return "end of file (the document is truncated)" }
        let end = min(bytes.count, index + 20)
        let snippet = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        if bytes[index] < 0x20 || bytes[index] >= 0x80 && !snippet.unicodeScalars.allSatisfy({ $0.value != 0xFFFD }) {
            return String(format: "byte 0x%02X", bytes[index])
        }
        return "'\(snippet.prefix(while: { $0 != "\n" }))'"
    }

    // MARK: Values

    mutating func readValue(depth: Int) throws(InputError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else {
            throw error(expected: nil, found: nil, message: "nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        guard let c = peek() else { throw error(expected: "a value", found: describeHere()) }
        switch c {
        case UInt8(ascii: "{"): return .object(try readObject(depth: depth))
        case UInt8(ascii: "["): return .array(try readArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        default:
            let number = try readNumber()
            return number.isFinite ? .number(number) : .null
        }
    }

    mutating func readObject(depth: Int) throws(InputError) -> JSONObject {
        index += 1  // {
        var entries: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return JSONObject(entries)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error(expected: "a quoted object key", found: describeHere()) }
            let key = try readString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error(expected: "':' after key \"\(key)\"", found: describeHere()) }
            index += 1
            skipWhitespace()
            path.append(key)
            let value = try readValue(depth: depth + 1)
            path.removeLast()
            entries.append((key, value))
            skipWhitespace()
            guard let c = peek() else { throw error(expected: "',' or '}'", found: describeHere()) }
            index += 1
            if c == UInt8(ascii: "}") { return JSONObject(entries) }
            guard c == UInt8(ascii: ",") else {
                index -= 1
                throw error(expected: "',' or '}'", found: describeHere())
            }
        }
    }

    mutating func readArray(depth: Int) throws(InputError) -> [JSONValue] {
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return items
        }
        while true {
            skipWhitespace()
            path.append("[\(items.count)]")
            let value = try readValue(depth: depth + 1)
            path.removeLast()
            items.append(value)
            skipWhitespace()
            guard let c = peek() else { throw error(expected: "',' or ']'", found: describeHere()) }
            index += 1
            if c == UInt8(ascii: "]") { return items }
            guard c == UInt8(ascii: ",") else {
                index -= 1
                throw error(expected: "',' or ']'", found: describeHere())
            }
        }
    }

    mutating func readLiteral(_ word: StaticString) throws(InputError) {
        let n = word.utf8CodeUnitCount
        let start = index
        guard index + n <= bytes.count else {
            throw error(expected: "\(word)", found: describeHere())
        }
        for k in 0..<n where bytes[index + k] != word.utf8Start[k] {
            throw error(expected: "a value", found: describeHere(), at: start)
        }
        index += n
    }

    /// Reads a JSON number. NaN and Infinity (which some writers emit) are rejected by name.
    @inline(__always)
    mutating func readNumber() throws(InputError) -> Double {
        if let (value, end) = DecimalParser.scan(bytes, from: index), value.isFinite,
            end == bytes.count || Self.isDelimiter(bytes[end])
        {
            index = end
            return value
        }
        if readsNonFinite, let (length, value) = nonFiniteLiteral() {
            index += length
            nonFiniteLiterals += 1
            return value
        }
        try numberError()
    }

    /// The `NaN`, `Infinity` or `-Infinity` literal at the cursor (followed by a delimiter or the end), as its
    /// length and value.
    func nonFiniteLiteral() -> (Int, Double)? {
        for (token, value) in [("NaN", Double.nan), ("Infinity", Double.infinity), ("-Infinity", -Double.infinity)]
        where hasPrefix(token) {
            let end = index + token.utf8.count
            if end == bytes.count || Self.isDelimiter(bytes[end]) { return (token.utf8.count, value) }
        }
        return nil
    }

    /// True for bytes that may follow a number: separators, closers and whitespace.
    @inline(__always) static func isDelimiter(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == 0x20 || c == 0x0A
            || c == 0x0D || c == 0x09
    }

    /// Explains why no number could be read at the cursor.
    func numberError() throws(InputError) -> Never {
        for token in ["NaN", "-NaN", "Infinity", "-Infinity", "inf", "-inf", "nan"] where hasPrefix(token) {
            throw error(expected: "a finite JSON number", found: "\(token) (not valid JSON)")
        }
        var end = index
        while end < bytes.count, !Self.isDelimiter(bytes[end]), end - index < 40 { end += 1 }
        if end == index || bytes[index] < 0x20 || bytes[index] >= 0x80 {
            throw error(expected: "a value", found: describeHere())
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        if end == bytes.count {
            throw error(expected: "a value", found: "'\(text)' and then the end of the file (the document is truncated)")
        }
        if let (value, _) = DecimalParser.scan(bytes, from: index), !value.isFinite {
            throw error(expected: "a number within ±1.8e308", found: "'\(text)'")
        }
        throw error(expected: "a value", found: "'\(text)'")
    }

    func hasPrefix(_ token: String) -> Bool {
        let t = Array(token.utf8)
        guard index + t.count <= bytes.count else { return false }
        for k in 0..<t.count where bytes[index + k] != t[k] { return false }
        return true
    }

    /// Reads a string, decoding escapes (including surrogate pairs). Rejects raw control characters.
    mutating func readString() throws(InputError) -> String {
        let start = index
        index += 1  // opening quote
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 {
                throw error(expected: "a closing quote", found: String(format: "control character 0x%02X inside a string", c))
            }
            index += 1
        }
        guard index < bytes.count else {
            throw error(expected: "a closing quote", found: "end of file (unterminated string)", at: start)
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 {
                throw error(expected: "a closing quote", found: String(format: "control character 0x%02X inside a string", c))
            }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                index += 1
                continue
            }
            index += 1
            guard let e = peek() else { break }
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if (0xD800..<0xDC00).contains(scalar), hasPrefix("\\u") {
                    index += 2
                    let low = try readHex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                index -= 1
                throw error(expected: "a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", found: "\\\(Character(Unicode.Scalar(e)))")
            }
        }
        throw error(expected: "a closing quote", found: "end of file (unterminated string)", at: start)
    }

    mutating func readHex4() throws(InputError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(expected: "4 hex digits after \\u", found: describeHere()) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw error(expected: "4 hex digits after \\u", found: describeHere())
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    /// Skips one value of any type without building it (validating its syntax).
    mutating func skipValue(depth: Int = 0) throws(InputError) {
        guard let c = peek() else { throw error(expected: "a value", found: describeHere()) }
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "["): _ = try readValue(depth: depth)
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        default: _ = try readNumber()
        }
    }
}
