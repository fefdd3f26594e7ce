import Foundation

/// Why a file's bytes could not be read.
public enum FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path.
    case fileNotFound(path: String)
    /// Exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// A gzip stream that is corrupt or ends early.
    case corruptCompressedData(path: String, reason: String)
    /// Decompressed data would exceed the caller's limit (bytes).
    case tooLarge(path: String, limit: Int64)

    /// `path: what went wrong`.
    public var description: String {
        switch self {
        case .fileNotFound(let p): "\(p): no such file"
        case .unreadable(let p, let r): "\(p): cannot read file: \(r)"
        case .corruptCompressedData(let p, let r): "\(p): corrupt gzip data: \(r)"
        case .tooLarge(let p, let limit): "\(p): \(ArchiveLimits.exceededMessage(limit))"
        }
    }
}

/// Reads whole files, transparently decompressing gzip (detected by its magic bytes, not the name).
///
/// gzip is decompressed as it is read, in pieces, and stops as soon as the output passes the limit: a small
/// "decompression bomb" never grows past `limit` bytes in memory.
public enum FileBytes {
    /// True if `data` starts with the gzip signature 1F 8B.
    public static func isGzip(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// The file's bytes, gunzipped if it is a gzip stream (concatenated members included).
    /// - Parameter limit: Most bytes a gzip file may decompress to (protects against decompression bombs); the
    ///   default is ``ArchiveLimits/defaultMaxEntryBytes``, the limit ZIP entries have too. Plain files are not
    ///   limited here.
    /// - Throws: ``FileReadError``.
    public static func read(path: String, limit: Int64 = ArchiveLimits.defaultMaxEntryBytes) throws(FileReadError)
        -> Data
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: "is a directory") }
        let raw: Data
        do {
            // Foundation's whole-file reader leaks a 4 KiB buffer on every file whose size is 0 (Swift 6.3.1,
            // found by LeakSanitizer under Fuzz/): such files (empty ones, and /proc files that report 0) are read
            // through a handle, which reads to the end whatever the size says.
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
            if size == 0 {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                raw = try handle.readToEnd() ?? Data()
            } else {
                raw = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            }
        } catch {
            throw .unreadable(
                path: path, reason: FileManager.default.isReadableFile(atPath: path) ? "I/O error" : "permission denied"
            )
        }
        guard isGzip(raw) else { return raw }
        return try gunzip(raw, path: path, limit: limit)
    }

    /// Decompresses a complete gzip stream (one or more members) held in memory.
    /// - Parameters:
    ///   - compressed: The gzip bytes (a mapped file is fine: it is read in 1 MiB pieces).
    ///   - path: Named in errors.
    ///   - limit: Most bytes the output may have; decompression stops as soon as it would pass it.
    /// - Throws: ``FileReadError/corruptCompressedData(path:reason:)`` or ``FileReadError/tooLarge(path:limit:)``.
    public static func gunzip(
        _ compressed: Data, path: String, limit: Int64 = ArchiveLimits.defaultMaxEntryBytes
    ) throws(FileReadError) -> Data {
        var output = Data()
        struct OverLimit: Error {}
        do {
            let inflater = try Inflater(.gzip)
            var offset = compressed.startIndex
            while offset < compressed.endIndex {
                let end = compressed.index(offset, offsetBy: min(1 << 20, compressed.endIndex - offset))
                _ = try compressed[offset..<end].withUnsafeBytes { chunk in
                    try inflater.feed(chunk) { piece in
                        guard Int64(output.count) + Int64(piece.count) <= limit else { throw OverLimit() }
                        output.append(contentsOf: piece)
                    }
                }
                offset = end
            }
            if !inflater.isFinished { throw InflateError.truncated }
        } catch is OverLimit {
            throw .tooLarge(path: path, limit: limit)
        } catch InflateError.truncated {
            throw .corruptCompressedData(path: path, reason: "stream ends early (truncated file)")
        } catch InflateError.corrupt(let message) {
            throw .corruptCompressedData(path: path, reason: message)
        } catch {
            throw .corruptCompressedData(path: path, reason: "\(error)")
        }
        return output
    }
}
