import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal, defensive ZIP reader (PKWARE APPNOTE 6.3: stored and deflated entries, ZIP64 sizes and offsets).
///
/// It exists so batch runs can read exports as they are downloaded, with full control over safety: entry names
/// are checked before anything is written (no absolute paths, no `..`, no drive letters, no NUL: "zip slip"),
/// symbolic-link and encrypted entries are refused, decompressed sizes are counted as they are produced (a lying
/// header cannot exceed its declared size or the limits), and every entry's CRC-32 is verified.
public enum ZipArchive {
    /// One central-directory entry.
    public struct Entry: Sendable, Hashable {
        /// The entry's name as stored (`/`-separated).
        public var name: String
        /// Compression method (0 stored, 8 deflate).
        public var method: UInt16
        /// General-purpose flags (bit 0: encrypted).
        public var flags: UInt16
        /// Declared CRC-32 of the decompressed data.
        public var crc: UInt32
        /// Compressed size, bytes.
        public var compressedSize: UInt64
        /// Declared decompressed size, bytes.
        public var uncompressedSize: UInt64
        /// Offset of the local file header, bytes from the start of the archive.
        public var localHeaderOffset: UInt64
        /// True for a Unix symbolic-link entry.
        public var isSymbolicLink: Bool
        /// True for a folder entry (name ends with `/`).
        public var isDirectory: Bool { name.hasSuffix("/") || name.hasSuffix("\\") }
    }

    /// An entry that was not extracted, and why.
    public struct Rejection: Sendable, Hashable {
        /// The entry's name as stored.
        public var entry: String
        /// Why it was rejected, in one line.
        public var reason: String
    }

    /// Entries left unwritten on the caller's word (``extract(_:into:limits:budget:omitting:)``), and why.
    public struct Omission: Sendable, Hashable {
        /// The relative path to report: the entry's own, or that of a folder above it when the whole folder is
        /// left out (one omission for all the folder's entries).
        public var path: String
        /// Why, in a few words.
        public var reason: String

        /// An omission of `path` for `reason`.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// What an extraction wrote and refused.
    public struct Extraction: Sendable {
        /// Relative paths of the files written, in archive order.
        public var files: [String] = []
        /// Entries refused, in archive order.
        public var rejected: [Rejection] = []
        /// Entries neither read nor written because the caller's `omitting` said so, one per reported path, in
        /// archive order.
        public var omitted: [Omission] = []
        /// Bytes written (decompressed), counted against the budget.
        public var bytes: Int64 = 0
    }

    /// Reads the central directory.
    /// - Throws: ``ArchiveError`` when the file is not a readable ZIP or holds more than `limits.maxEntries` entries.
    public static func entries(of path: String, limits: ArchiveLimits = ArchiveLimits()) throws(ArchiveError) -> [Entry]
    {
        let file = try ZipFile(path)
        return try parseCentralDirectory(file, path: path, limits: limits)
    }

    /// Extracts every acceptable entry of the archive at `path` into the empty folder `destination`.
    ///
    /// Entries sharing one path (after `\\` is read as `/` and `.` components are dropped) are all refused with a
    /// "duplicate entry name" reason: which copy is meant is ambiguous, so none is guessed. Names that differ only in
    /// case are distinct entries; on a case-insensitive file system the later one is refused as a clash, never
    /// written over the earlier.
    ///
    /// - Returns: The files written and the entries refused (unsafe names, links, encryption, unsupported
    ///   methods, per-entry size, duplicate names, CRC mismatch, corrupt data).
    /// - Throws: ``ArchiveError`` when the archive is unreadable, breaks a whole-archive limit (entry count, total
    ///   decompressed size), or a file cannot be written (a full disk, an I/O error: the message names the file);
    ///   nothing then should be used from `destination`.
    ///   Entries whose data overlap (several entries reading the same compressed bytes, the "overlapping zip bomb"
    ///   that turns 129 KB into gigabytes) refuse the whole archive.
    /// - Parameters:
    ///   - budget: Most bytes this extraction may write when less than `limits.maxTotalBytes`: what is left of a
    ///     budget shared with other archives (a batch run's one `--max-archive-bytes`, nested archives included);
    ///     nil for `limits.maxTotalBytes`.
    ///   - omitting: Given the relative paths of all file entries with safe names, those not to write, with what
    ///     to report for them. An omitted entry that passes every other check is neither decompressed nor written
    ///     (so neither its CRC nor its data is checked) and is listed in ``Extraction/omitted``; one that fails a
    ///     check is still refused. Batch discovery leaves out files that can never be inputs, which on an export
    ///     of many small documents or images is most of the extraction's time (one inode each).
    public static func extract(
        _ path: String, into destination: String, limits: ArchiveLimits = ArchiveLimits(), budget: Int64? = nil,
        omitting: ((_ files: [String]) -> [String: Omission])? = nil
    ) throws(ArchiveError) -> Extraction {
        let file = try ZipFile(path)
        let list = try parseCentralDirectory(file, path: path, limits: limits)
        // Every entry's local header and data must lie after the previous entry's (a lower bound of its extent:
        // the 30-byte header and the compressed data, without the names).
        let ordered = list.filter { !$0.isDirectory || $0.compressedSize > 0 }.sorted {
            $0.localHeaderOffset < $1.localHeaderOffset
        }
        for (previous, next) in zip(ordered, ordered.dropFirst()) {
            let (extent, overflow) = previous.localHeaderOffset.addingReportingOverflow(30 + previous.compressedSize)
            if overflow || next.localHeaderOffset < extent {
                throw ArchiveError(
                    archive: path,
                    message:
                        "entries overlap: \(next.name)'s data starts inside \(previous.name)'s (an overlapping-entry zip "
                        + "bomb, which decompresses one piece of data many times); the archive is refused")
            }
        }
        let allowance = min(limits.maxTotalBytes, budget ?? .max)
        let declaredTotal = list.reduce(UInt64(0)) { sum, entry in
            let (total, overflow) = sum.addingReportingOverflow(entry.uncompressedSize)
            return overflow ? .max : total
        }
        if declaredTotal > UInt64(max(0, allowance)) {
            throw ArchiveError(
                archive: path, message: overBudget("declares \(declaredTotal) bytes decompressed, over", limits, budget)
            )
        }
        // How many file entries share each path: a shared path is ambiguous, so every copy is refused.
        let checkedNames = list.map { safeRelativePath($0.name) }
        var copies: [String: Int] = [:]
        for (entry, checked) in zip(list, checkedNames) where !entry.isDirectory {
            if case .safe(let relative) = checked, !relative.isEmpty {
                copies[relative, default: 0] += 1
            }
        }
        let omissions = omitting?(Array(copies.keys)) ?? [:]
        var reportedOmissions: Set<String> = []
        var result = Extraction()
        var total: Int64 = 0
        var madeFolder: String?
        let fm = FileManager.default
        for (entry, checked) in zip(list, checkedNames) {
            func reject(_ reason: String) { result.rejected.append(Rejection(entry: entry.name, reason: reason)) }
            let relative: String
            switch checked {
            case .safe(let r): relative = r
            case .unsafe(let reason):
                reject(reason)
                continue
            }
            if entry.isSymbolicLink {
                reject("is a symbolic link; links inside archives are not followed")
                continue
            }
            if entry.isDirectory || relative.isEmpty { continue }
            if entry.flags & 1 != 0 {
                reject("is encrypted; taskproc does not read encrypted entries")
                continue
            }
            guard entry.method == 0 || entry.method == 8 else {
                reject("uses compression method \(entry.method); only stored (0) and deflate (8) are supported")
                continue
            }
            if entry.uncompressedSize > UInt64(max(0, limits.maxEntryBytes)) {
                reject(ArchiveLimits.exceededMessage(limits.maxEntryBytes))
                continue
            }
            if let count = copies[relative], count > 1 {
                reject(
                    "duplicate entry name: \(count) entries have the path \(relative); which one is meant is ambiguous, so none is extracted"
                )
                continue
            }
            if let omission = omissions[relative] {
                if reportedOmissions.insert(omission.path).inserted { result.omitted.append(omission) }
                continue
            }
            let target = destination + "/" + relative
            let folder = (target as NSString).deletingLastPathComponent
            do throws(FileFailure) {
                // Entries of one folder usually follow each other: its folder is made (and checked) once.
                if folder != madeFolder {
                    try FileSystem.makeFolder(folder)
                    madeFolder = folder
                }
            } catch {
                // A file of the archive in the way, or a name too long, is the archive's fault; a full disk or a
                // read-only folder is where we write.
                if [EEXIST, ENOTDIR, ENAMETOOLONG, ELOOP].contains(error.code) {
                    reject("cannot create folder for it: \(error.reason)")
                    continue
                }
                throw ArchiveError(archive: path, message: "cannot extract: \(error)", outputFailure: error)
            }
            var entryLimits = limits
            entryLimits.maxTotalBytes = allowance
            switch try writeEntry(entry, from: file, to: target, limits: entryLimits, total: &total) {
            case .written:
                result.files.append(relative)
            case .rejected(let reason):
                try? fm.removeItem(atPath: target)
                reject(reason)
            case .clash:
                reject("clashes with another entry's path")
            case .archiveLimit:
                try? fm.removeItem(atPath: target)
                throw ArchiveError(archive: path, message: overBudget("decompresses to more than", limits, budget))
            }
        }
        result.bytes = total
        return result
    }

    /// `what, over the limit of N bytes (--max-archive-bytes)`, naming the shared budget when one binds.
    static func overBudget(_ what: String, _ limits: ArchiveLimits, _ budget: Int64?) -> String {
        if let budget, budget < limits.maxTotalBytes {
            return what
                + " what is left (\(max(0, budget)) bytes) of the run's --max-archive-bytes of "
                + "\(limits.maxTotalBytes) bytes, which every archive of a run shares, nested ones included"
        }
        return what + " the limit of \(limits.maxTotalBytes) bytes (--max-archive-bytes)"
    }

    // MARK: Names

    /// An entry name checked for zip slip.
    enum CheckedName: Equatable {
        /// The normalised relative path (`.` components removed, `\\` read as `/`).
        case safe(String)
        /// Why the name is refused.
        case unsafe(String)
    }

    /// The entry name as a safe relative path, or why it is unsafe.
    static func safeRelativePath(_ name: String) -> CheckedName {
        if name.isEmpty { return .unsafe("has an empty name") }
        if name.contains("\0") { return .unsafe("has a NUL byte in its name") }
        let normalised = name.utf8.contains(UInt8(ascii: "\\")) ? name.replacingOccurrences(of: "\\", with: "/") : name
        if normalised.hasPrefix("/") { return .unsafe("has an absolute path (zip slip); refused") }
        let parts = normalised.split(separator: "/", omittingEmptySubsequences: true)
        if let first = parts.first, first.count >= 2, first.dropFirst().first == ":" {
            return .unsafe("has a drive-letter path (zip slip); refused")
        }
        var kept: [Substring] = []
        for part in parts {
            if part == "." { continue }
            if part == ".." {
                return .unsafe("has a '..' component that would leave the extraction folder (zip slip); refused")
            }
            kept.append(part)
        }
        return .safe(kept.joined(separator: "/"))
    }

    // MARK: Reading

    /// An open archive read by offset (never mapped or read whole: memory stays small for any archive size).
    final class ZipFile {
        let path: String
        let handle: FileHandle
        let size: Int

        init(_ path: String) throws(ArchiveError) {
            self.path = path
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ArchiveError(archive: path, message: "cannot read the archive (missing or permission denied)")
            }
            self.handle = handle
            let end: UInt64
            do { end = try handle.seekToEnd() } catch {
                throw ArchiveError(archive: path, message: "cannot read the archive: \(error.localizedDescription)")
            }
            guard let size = Int(exactly: end) else { throw ArchiveError(archive: path, message: "is too large") }
            self.size = size
        }

        deinit { try? handle.close() }

        /// `count` bytes at `offset` (fewer at the end of the file).
        func read(at offset: Int, count: Int) throws(ArchiveError) -> Data {
            do {
                try handle.seek(toOffset: UInt64(offset))
                return try handle.read(upToCount: count) ?? Data()
            } catch {
                throw ArchiveError(archive: path, message: "cannot read the archive: \(error.localizedDescription)")
            }
        }
    }

    @inline(__always) static func u16(_ p: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(p[at]) | UInt16(p[at + 1]) << 8
    }
    @inline(__always) static func u32(_ p: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(u16(p, at)) | UInt32(u16(p, at + 2)) << 16
    }
    @inline(__always) static func u64(_ p: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(u32(p, at)) | UInt64(u32(p, at + 4)) << 32
    }

    static func parseCentralDirectory(
        _ file: ZipFile, path: String, limits: ArchiveLimits
    ) throws(ArchiveError) -> [Entry] {
        func fail(_ message: String) -> ArchiveError { ArchiveError(archive: path, message: message) }
        let n = file.size
        guard n >= 22 else { throw fail("is not a ZIP archive (\(n) bytes, no end-of-central-directory record)") }
        // The end record is in the last 64 KiB + 22 bytes (its comment is at most 65 535 bytes); 20 more bytes
        // hold a ZIP64 locator.
        let tailStart = max(0, n - 22 - 65_535 - 20)
        let tail = try file.read(at: tailStart, count: n - tailStart)
        let found: (count: UInt64, size: UInt64, offset: UInt64, zip64Record: UInt64?)? = tail.withUnsafeBytes { t in
            var i = t.count - 22
            while i >= 0 {
                if t[i] == 0x50 && t[i + 1] == 0x4B && t[i + 2] == 0x05 && t[i + 3] == 0x06 {
                    let count = UInt64(u16(t, i + 10))
                    let size = UInt64(u32(t, i + 12))
                    let offset = UInt64(u32(t, i + 16))
                    var record: UInt64?
                    if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
                        record = i >= 20 && u32(t, i - 20) == 0x0706_4B50 ? u64(t, i - 20 + 8) : UInt64.max
                    }
                    return (count, size, offset, record)
                }
                i -= 1
            }
            return nil
        }
        guard var (count, size, offset, zip64Record) = found else {
            throw fail("is not a ZIP archive (no end-of-central-directory record)")
        }
        if let record = zip64Record {
            guard record != UInt64.max else { throw fail("ZIP64 locator missing") }
            guard record <= UInt64(max(0, n - 56)) else {
                throw fail("ZIP64 end-of-central-directory record out of range")
            }
            let data = try file.read(at: Int(record), count: 56)
            let fields: (UInt64, UInt64, UInt64)? = data.withUnsafeBytes { r in
                guard r.count == 56, u32(r, 0) == 0x0606_4B50 else { return nil }
                return (u64(r, 32), u64(r, 40), u64(r, 48))
            }
            guard let fields else { throw fail("ZIP64 end-of-central-directory record missing") }
            (count, size, offset) = fields
            zip64Record = nil
        }
        if count > UInt64(max(0, limits.maxEntries)) {
            throw fail("holds \(count) entries, over the limit of \(limits.maxEntries) (--max-archive-entries)")
        }
        guard offset <= UInt64(n), size <= UInt64(n) - offset else {
            throw fail("central directory lies outside the file (truncated or corrupt archive)")
        }
        return try parseEntries(file, offset: Int(offset), size: Int(size), count: Int(count), path: path)
    }

    /// The entries of the central directory at `offset` (`size` bytes, `count` entries), read in windows of about
    /// 1 MiB: memory stays small whatever the directory's declared size.
    static func parseEntries(
        _ file: ZipFile, offset: Int, size: Int, count: Int, path: String
    ) throws(ArchiveError) -> [Entry] {
        func fail(_ message: String) -> ArchiveError { ArchiveError(archive: path, message: message) }
        var entries: [Entry] = []
        entries.reserveCapacity(min(count, 1 << 16))
        var window = Data()
        var windowStart = offset
        let end = offset + size
        /// Makes bytes `at..<at + n` of the file available in `window`; false when they lie past the directory.
        func ensure(_ at: Int, _ n: Int) throws(ArchiveError) -> Bool {
            guard n <= end - at else { return false }
            if at >= windowStart && at + n <= windowStart + window.count { return true }
            window = try file.read(at: at, count: min(end - at, max(n, 1 << 20)))
            windowStart = at
            return window.count >= n
        }
        var at = offset
        for index in 0..<count {
            guard try ensure(at, 46) else { throw fail("central directory entry \(index + 1) of \(count) is corrupt") }
            let (signature, length): (UInt32, Int) = window.withUnsafeBytes { w in
                let p = UnsafeRawBufferPointer(rebasing: w[(at - windowStart)...])
                return (u32(p, 0), 46 + Int(u16(p, 28)) + Int(u16(p, 30)) + Int(u16(p, 32)))
            }
            guard signature == 0x0201_4B50 else {
                throw fail("central directory entry \(index + 1) of \(count) is corrupt")
            }
            guard try ensure(at, length) else {
                throw fail("central directory entry \(index + 1) runs past the directory")
            }
            let entry = window.withUnsafeBytes { w in
                parseEntry(UnsafeRawBufferPointer(rebasing: w[(at - windowStart)..<(at - windowStart + length)]))
            }
            entries.append(entry)
            at += length
        }
        return entries
    }

    /// One central-directory record, whole in `p` (46 fixed bytes, then name, extra field and comment).
    static func parseEntry(_ p: UnsafeRawBufferPointer) -> Entry {
        let madeBy = u16(p, 4)
        let flags = u16(p, 8)
        let method = u16(p, 10)
        let crc = u32(p, 16)
        var compressed = UInt64(u32(p, 20))
        var uncompressed = UInt64(u32(p, 24))
        let nameLength = Int(u16(p, 28))
        let extraLength = Int(u16(p, 30))
        let external = u32(p, 38)
        var local = UInt64(u32(p, 42))
        let nameBytes = UnsafeRawBufferPointer(rebasing: p[46..<(46 + nameLength)])
        let name =
            String(validating: nameBytes, as: UTF8.self)
            ?? String(decoding: nameBytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        // ZIP64 extended information: present fields follow the order usize, csize, offset. A field's declared
        // length is never trusted past the extra field's end.
        var e = 46 + nameLength
        let extraEnd = e + extraLength
        while e + 4 <= extraEnd {
            let id = u16(p, e)
            let fieldEnd = min(e + 4 + Int(u16(p, e + 2)), extraEnd)
            if id == 0x0001 {
                var f = e + 4
                if uncompressed == 0xFFFF_FFFF, f + 8 <= fieldEnd {
                    uncompressed = u64(p, f)
                    f += 8
                }
                if compressed == 0xFFFF_FFFF, f + 8 <= fieldEnd {
                    compressed = u64(p, f)
                    f += 8
                }
                if local == 0xFFFF_FFFF, f + 8 <= fieldEnd { local = u64(p, f) }
            }
            e = fieldEnd
        }
        let unixMode = (madeBy >> 8) == 3 ? (external >> 16) & 0o170000 : 0
        return Entry(
            name: name, method: method, flags: flags, crc: crc, compressedSize: compressed,
            uncompressedSize: uncompressed, localHeaderOffset: local, isSymbolicLink: unixMode == 0o120000)
    }

    enum WriteOutcome: Equatable {
        case written
        case rejected(String)
        /// The target exists already (an entry of the same name on a case-insensitive file system, a folder).
        case clash
        case archiveLimit
    }

    /// Streams one entry to a new file `target`, counting bytes against the declared size and the archive budget.
    /// - Parameter createNew: Create `target` and refuse an existing one (false only lets tests write to a device).
    /// - Throws: ``ArchiveError`` naming `target` when it cannot be created or written (full disk, I/O error).
    static func writeEntry(
        _ entry: Entry, from file: ZipFile, to target: String, createNew: Bool = true, limits: ArchiveLimits,
        total: inout Int64
    ) throws(ArchiveError) -> WriteOutcome {
        func failure(_ code: Int32) -> ArchiveError {
            if createNew { try? FileManager.default.removeItem(atPath: target) }
            let failure = FileFailure(path: target, operation: .write, errno: code)
            return ArchiveError(
                archive: file.path, message: "cannot write \(target) (entry \(entry.name)): \(failure.reason)",
                outputFailure: failure)
        }
        let output: OutputFile
        switch OutputFile.create(target, createNew: createNew) {
        case .success(let opened): output = opened
        case .failure(let error) where error.code == EEXIST || error.code == EISDIR: return .clash
        case .failure(let error) where error.code == ENAMETOOLONG || error.code == ENOTDIR:
            return .rejected("cannot create \(target): \(error.reason)")
        case .failure(let error): throw failure(error.code)
        }
        let budget = limits.maxTotalBytes - total
        let (outcome, produced) = writeEntry(entry, from: file, to: output, budget: budget)
        total += produced
        let closed = output.close()
        switch outcome {
        case .writeFailed(let code): throw failure(code)
        case .rejected(let reason): return .rejected(reason)
        case .archiveLimit: return .archiveLimit
        case .written:
            // close() can report a delayed write error.
            if case .failure(let error) = closed { throw failure(error.code) }
            return .written
        }
    }

    /// What streaming one entry's data gave.
    enum StreamOutcome: Equatable {
        case written
        case rejected(String)
        case archiveLimit
        /// The output could not be written (errno).
        case writeFailed(Int32)
    }

    /// Streams one entry's data (read in 1 MiB pieces) to `output`; returns the outcome and the bytes produced.
    static func writeEntry(
        _ entry: Entry, from file: ZipFile, to output: OutputFile, budget: Int64
    ) -> (StreamOutcome, Int64) {
        var produced: Int64 = 0
        let outcome = { () -> StreamOutcome in
            let header = Int(clamping: entry.localHeaderOffset)
            guard header <= file.size - 30, let local = try? file.read(at: header, count: 30), local.count == 30 else {
                return .rejected("local header out of range (corrupt archive)")
            }
            let fields: (UInt32, Int)? = local.withUnsafeBytes { h in
                (u32(h, 0), 30 + Int(u16(h, 26)) + Int(u16(h, 28)))
            }
            guard let fields, fields.0 == 0x0403_4B50 else {
                return .rejected("local header missing (corrupt archive)")
            }
            let start = header + fields.1
            guard start <= file.size, entry.compressedSize <= UInt64(file.size - start) else {
                return .rejected("data runs past the end of the archive (truncated)")
            }
            let length = Int(entry.compressedSize)
            var crc: UInt32 = 0
            var outcome: StreamOutcome?
            struct Stop: Error {}
            let sink: (UnsafeRawBufferPointer) throws -> Void = { piece in
                produced += Int64(piece.count)
                if produced > budget {
                    outcome = .archiveLimit
                    throw Stop()
                }
                if produced > Int64(entry.uncompressedSize) {
                    outcome = .rejected(
                        "decompresses to more than its declared \(entry.uncompressedSize) bytes (corrupt or a decompression bomb)"
                    )
                    throw Stop()
                }
                crc = CRC32.update(crc, piece)
                if case .failure(let error) = output.write(piece) {
                    outcome = .writeFailed(error.code)
                    throw Stop()
                }
            }
            do {
                let inflater = entry.method == 0 ? nil : try Inflater(.raw)
                var offset = 0
                var done = false
                while !done {
                    let n = min(1 << 20, length - offset)
                    let chunk = n > 0 ? try file.read(at: start + offset, count: n) : Data()
                    if chunk.count < n { return .rejected("data runs past the end of the archive (truncated)") }
                    offset += n
                    if let inflater {
                        done = try chunk.withUnsafeBytes { try inflater.feed($0, sink: sink) }
                    } else {
                        try chunk.withUnsafeBytes { try sink($0) }
                        done = offset >= length
                    }
                }
            } catch let error as InflateError {
                return .rejected(error.description)
            } catch {
                return outcome ?? .rejected("\(error)")
            }
            if produced != Int64(entry.uncompressedSize) {
                return .rejected(
                    "decompresses to \(produced) bytes, not the declared \(entry.uncompressedSize) (corrupt entry)")
            }
            if crc != entry.crc {
                return .rejected(
                    String(format: "CRC-32 mismatch (stored %08x, computed %08x): corrupt entry", entry.crc, crc))
            }
            return .written
        }()
        return (outcome, produced)
    }
}
