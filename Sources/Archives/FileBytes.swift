import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func posixOpenForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
private func posixCloseForReading(_ fd: Int32) -> Int32 { close(fd) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func readErrno() -> Int32 { errno }

/// Thrown by a sink when decompressed output would pass its limit.
private struct OverLimit: Error {}

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
    /// A plain file is larger than the caller's limit for plain files (`size` as `stat` gave it, or as far as it
    /// was read when it grew), bytes.
    case overSize(path: String, size: Int64, limit: Int64)
    /// Not a regular file: a device, FIFO or socket (`type` in words), refused before any byte is read.
    case notRegularFile(path: String, type: String)

    /// `path: what went wrong`.
    public var description: String {
        switch self {
        case .fileNotFound(let p): "\(p): no such file"
        case .unreadable(let p, let r): "\(p): cannot read file: \(r)"
        case .corruptCompressedData(let p, let r): "\(p): corrupt gzip data: \(r)"
        case .tooLarge(let p, let limit): "\(p): \(ArchiveLimits.exceededMessage(limit))"
        case .overSize(let p, let size, let limit): "\(p): \(size) bytes, over the limit of \(limit) bytes"
        case .notRegularFile(let p, let type): "\(p): is \(type), not a regular file"
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
    ///
    /// Only regular files are read: a device (`/dev/zero`), FIFO or socket is refused from its type before any
    /// byte is read (opening never blocks on a FIFO). A plain file's size is checked from `fstat` before it is read,
    /// and the read stops at the limit: a file that grows while it is read is cut off there with the same error.
    /// gzip is decompressed as it is read, in 1 MiB pieces.
    /// - Parameters:
    ///   - limit: Most bytes a gzip file may decompress to (protects against decompression bombs), and most bytes
    ///     of a plain file when `plainLimit` is nil; the default is ``ArchiveLimits/defaultMaxEntryBytes``, the
    ///     limit ZIP entries have too.
    ///   - plainLimit: Most bytes a plain (not gzip) file may have (``FileReadError/overSize(path:size:limit:)``).
    /// - Throws: ``FileReadError``.
    public static func read(
        path: String, limit: Int64 = ArchiveLimits.defaultMaxEntryBytes, plainLimit: Int64? = nil
    ) throws(FileReadError) -> Data {
        let fd = posixOpenForReading(path)
        guard fd >= 0 else {
            let code = readErrno()
            switch code {
            case ENOENT: throw .fileNotFound(path: path)
            case EISDIR: throw .unreadable(path: path, reason: "is a directory")
            case EACCES, EPERM: throw .unreadable(path: path, reason: "permission denied")
            default: throw .unreadable(path: path, reason: String(cString: strerror(code)))
            }
        }
        defer { _ = posixCloseForReading(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(readErrno())))
        }
        switch FileBytes.fileType(mode: st.st_mode) {
        case nil: break
        case "a directory"?: throw .unreadable(path: path, reason: "is a directory")
        case let type?: throw .notRegularFile(path: path, type: type)
        }
        let size = Int64(st.st_size)
        var head = Data(count: 2)
        let headCount = try readFully(fd, into: &head, from: 0, path: path)
        let gzip = headCount == 2 && head[0] == 0x1F && head[1] == 0x8B
        if !gzip {
            let cap = plainLimit ?? limit
            func over(_ bytes: Int64) -> FileReadError {
                plainLimit == nil ? .tooLarge(path: path, limit: cap) : .overSize(path: path, size: bytes, limit: cap)
            }
            if size > cap { throw over(size) }
            // What stat says, plus one byte to see a file that grew; files of /proc say 0 and are read to their end.
            var data = head.prefix(headCount)
            var filled = headCount
            var room = Int(max(size, Int64(headCount))) + 1
            while true {
                data.count = room
                let n = try readFully(fd, into: &data, from: filled, path: path)
                filled += n
                if filled < room { break }
                if Int64(filled) > cap { throw over(Int64(filled)) }
                room = filled + Int(min(max(Int64(filled), 4096), 1 << 20))
            }
            data.count = filled
            if Int64(filled) > cap { throw over(Int64(filled)) }
            return data
        }
        // gzip: stream the compressed bytes through the inflater.
        var buffer = Data(count: Int(min(max(size, 4096), 1 << 20)))
        return try inflate(path: path, limit: limit) { feed in
            try feed(head.prefix(headCount))
            while true {
                let n = try readFully(fd, into: &buffer, from: 0, path: path)
                if n == 0 { break }
                try feed(buffer.prefix(n))
            }
        }
    }

    /// The gzip stream that `produce` hands to its `feed` piece by piece, inflated, stopping as soon as the output
    /// would pass `limit`: the one inflate loop of ``read(path:limit:plainLimit:)`` and ``gunzip(_:path:limit:)``.
    private static func inflate(
        path: String, limit: Int64, _ produce: (_ feed: (Data) throws -> Void) throws -> Void
    ) throws(FileReadError) -> Data {
        var output = Data()
        do {
            let inflater = try Inflater(.gzip)
            try produce { piece in
                _ = try piece.withUnsafeBytes { chunk in
                    try inflater.feed(chunk) { out in
                        guard Int64(output.count) + Int64(out.count) <= limit else { throw OverLimit() }
                        output.append(contentsOf: out)
                    }
                }
            }
            if !inflater.isFinished { throw InflateError.truncated }
        } catch {
            throw gzipFailure(error, path: path, limit: limit)
        }
        return output
    }

    /// What a file that is not a regular file is, in words (`a FIFO (named pipe)`); nil for a regular file.
    public static func fileType(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// What is at `path` if it is not a regular file (following links), in words; nil for a regular file or
    /// nothing at all.
    public static func nonRegularType(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return fileType(mode: st.st_mode)
    }

    /// Fills `buffer` from index `offset` on with bytes of `fd`, as far as the file goes; the count read (less
    /// than the room only at the end of the file).
    private static func readFully(_ fd: Int32, into buffer: inout Data, from offset: Int, path: String)
        throws(FileReadError) -> Int
    {
        var total = 0
        let room = buffer.count - offset
        let failure: Int32? = buffer.withUnsafeMutableBytes { raw -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            while total < room {
                let n = posixRead(fd, base + offset + total, room - total)
                if n < 0 {
                    if readErrno() == EINTR { continue }
                    return readErrno()
                }
                if n == 0 { break }
                total += n
            }
            return nil
        }
        if let failure { throw .unreadable(path: path, reason: String(cString: strerror(failure))) }
        return total
    }

    /// What an error thrown while inflating means: over the limit, truncated, corrupt (or a read error).
    private static func gzipFailure(_ error: any Error, path: String, limit: Int64) -> FileReadError {
        switch error {
        case is OverLimit: .tooLarge(path: path, limit: limit)
        case InflateError.truncated: .corruptCompressedData(path: path, reason: "stream ends early (truncated file)")
        case InflateError.corrupt(let message): .corruptCompressedData(path: path, reason: message)
        case let error as FileReadError: error
        default: .corruptCompressedData(path: path, reason: "\(error)")
        }
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
        try inflate(path: path, limit: limit) { feed in
            var offset = compressed.startIndex
            while offset < compressed.endIndex {
                let end = compressed.index(offset, offsetBy: min(1 << 20, compressed.endIndex - offset))
                try feed(compressed[offset..<end])
                offset = end
            }
        }
    }
}
