import Foundation

// Helpers shared by the fuzz targets: reading typed, hostile values out of libFuzzer's bytes, and one scratch
// folder per fuzzer process for the targets that go through the file system (the real entry points take paths).

/// A cursor over one fuzz input that hands out typed values; past the end every read returns zero or empty, so a
/// target never fails on a short input.
public struct FuzzBytes {
    /// The input.
    public let bytes: [UInt8]
    /// The next byte to read.
    public private(set) var index = 0

    /// Wraps libFuzzer's buffer (copied).
    public init(_ data: UnsafePointer<UInt8>, _ count: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// True when every byte has been read.
    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next 8 bytes as a little-endian integer (missing bytes read as 0).
    public mutating func word() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// A whole number in `0...maximum`, from one to four bytes (small values are the common case).
    public mutating func count(max maximum: Int) -> Int {
        guard maximum > 0 else { return 0 }
        let b = Int(byte())
        let value: Int
        switch b {
        case ..<0xE0: value = b
        case ..<0xF0: value = (b - 0xE0) << 8 | Int(byte())
        default: value = Int(byte()) << 16 | Int(byte()) << 8 | Int(byte())
        }
        return value % (maximum + 1)
    }

    /// A value that breaks arithmetic: NaN, ±infinity, ±1e308, ±0, subnormals, huge integers, or any bit
    /// pattern; or an ordinary number, so that hostile values come mixed with plausible ones.
    public mutating func hostileDouble() -> Double {
        switch byte() % 24 {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return 1e308
        case 4: return -1e308
        case 5: return .greatestFiniteMagnitude
        case 6: return -.greatestFiniteMagnitude
        case 7: return 0
        case 8: return -0.0
        case 9: return .leastNonzeroMagnitude
        case 10: return .leastNormalMagnitude
        case 11: return 9.223372036854775807e18
        case 12: return -9.223372036854775808e18
        case 13: return 1e20
        case 14: return 1e300
        case 15: return Double(bitPattern: word())
        case 16: return Double(Int8(truncatingIfNeeded: byte()))
        default:
            // A plausible value: a small integer and a fraction, signed.
            let raw = Int16(truncatingIfNeeded: UInt16(byte()) << 8 | UInt16(byte()))
            return Double(raw) / 64
        }
    }

    /// Up to `maximum` hostile doubles (how many is read first).
    public mutating func hostileDoubles(max maximum: Int) -> [Double] {
        (0..<count(max: maximum)).map { _ in hostileDouble() }
    }

    /// A short string: empty, a hostile one (control characters, quotes, markup, an unpaired surrogate's bytes,
    /// a very long one) or bytes from the input decoded as UTF-8.
    public mutating func string(maxLength: Int = 32) -> String {
        switch byte() % 8 {
        case 0: return ""
        case 1: return "<script>\"&'\u{0}\n\t</script>"
        case 2: return String(repeating: "x", count: 1000)
        case 3: return "\u{FEFF}é\u{202E}🦶"
        default:
            let n = count(max: maxLength)
            return String(decoding: (0..<n).map { _ in byte() }, as: UTF8.self)
        }
    }

    /// Wraps bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes not read yet.
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }
}

/// This process's scratch folder (under the system temporary folder, `TMPDIR`: `make fuzz` points it at
/// `/dev/shm`, a memory file system, which more than doubles the file-based targets' speed); created on first use,
/// removed at exit.
public let fuzzScratch: String = {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(
        "taskproc-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: fuzzScratch) }
    return path
}()

/// Writes `bytes` to `relative` (folders created) inside a fresh run folder under ``fuzzScratch``, runs `body`
/// with the file's path, then removes the run folder.
public func withFuzzFile<T>(_ bytes: [UInt8], named relative: String, _ body: (String) -> T) -> T {
    let run = (fuzzScratch as NSString).appendingPathComponent("run")
    let path = (run as NSString).appendingPathComponent(relative)
    let fm = FileManager.default
    try? fm.removeItem(atPath: run)
    try? fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    writeFile(path, bytes)
    defer { try? fm.removeItem(atPath: run) }
    return body(path)
}

/// Writes `bytes` to `path` with plain POSIX calls. `FileManager.createFile` writes atomically with an `fsync` per
/// call: 30 ms on a busy disk, which made the file-based targets run at 5 executions per second.
public func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 { return }
            offset += n
        }
    }
}

/// The run folder ``withFuzzFile(_:named:_:)`` uses, for targets that write more than one file.
public var fuzzRunFolder: String { (fuzzScratch as NSString).appendingPathComponent("run") }
