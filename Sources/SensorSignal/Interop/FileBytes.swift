internal import CZlib
import Foundation

/// Why a file's bytes could not be read.
public enum FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path.
    case fileNotFound(path: String)
    /// Exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// A gzip stream that is corrupt or ends early.
    case corruptCompressedData(path: String, reason: String)
    /// Decompressed data would exceed the caller's limit.
    case tooLarge(path: String, limit: Int)

    public var description: String {
        switch self {
        case .fileNotFound(let p): "\(p): no such file"
        case .unreadable(let p, let r): "\(p): cannot read file: \(r)"
        case .corruptCompressedData(let p, let r): "\(p): corrupt gzip data: \(r)"
        case .tooLarge(let p, let limit): "\(p): decompressed size exceeds the limit of \(limit) bytes"
        }
    }
}

/// Reads whole files, transparently decompressing gzip (`.gz`, detected by its magic bytes, not the name).
public enum FileBytes {
    /// True if `data` starts with the gzip signature 1F 8B.
    public static func isGzip(_ data: Data) -> Bool { data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B }

    /// The file's bytes, gunzipped if it is a gzip stream (concatenated members included).
    /// - Parameter limit: maximum decompressed size, bytes (protects against decompression bombs).
    /// - Throws: ``FileReadError``.
    public static func read(path: String, limit: Int = 4 << 30) throws(FileReadError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: "is a directory") }
        let raw: Data
        do {
            raw = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadable(path: path, reason: FileManager.default.isReadableFile(atPath: path) ? "I/O error" : "permission denied")
        }
        guard isGzip(raw) else { return raw }
        return try gunzip(raw, path: path, limit: limit)
    }

    /// Decompresses a complete gzip stream held in memory.
    public static func gunzip(_ compressed: Data, path: String, limit: Int = 4 << 30) throws(FileReadError) -> Data {
        var stream = z_stream()
        // 15 window bits + 16: expect a gzip header and trailer.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corruptCompressedData(path: path, reason: "zlib could not initialise")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunk = 1 << 18
        var buffer = [UInt8](repeating: 0, count: chunk)
        let result: Result<Void, FileReadError> = compressed.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status: Int32 = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.avail_out)
                output.append(buffer, count: produced)
                if output.count > limit { return .failure(.tooLarge(path: path, limit: limit)) }
                switch status {
                case Z_STREAM_END:
                    // Another gzip member may follow (concatenated .gz files are valid).
                    if stream.avail_in > 0, inflateReset(&stream) == Z_OK { continue }
                    return .success(())
                case Z_OK:
                    if stream.avail_in == 0 && produced == 0 {
                        return .failure(.corruptCompressedData(path: path, reason: "stream ends early (truncated file)"))
                    }
                case Z_BUF_ERROR:
                    if stream.avail_in == 0 {
                        return .failure(.corruptCompressedData(path: path, reason: "stream ends early (truncated file)"))
                    }
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    return .failure(.corruptCompressedData(path: path, reason: message))
                }
            }
        }
        try result.get()
        return output
    }
}
