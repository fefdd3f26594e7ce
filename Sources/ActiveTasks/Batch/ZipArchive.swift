import Foundation
import SensorSignal

/// Limits that keep a hostile or broken archive from filling the disk or the run.
public struct ArchiveLimits: Sendable, Hashable, Codable {
    /// Most entries one archive may hold (files and folders); more rejects the whole archive.
    public var maxEntries: Int = 1_000_000
    /// Most bytes one archive may decompress to in total, counting every entry; more rejects the whole archive.
    public var maxTotalBytes: Int64 = 16 << 30
    /// Most bytes one entry may decompress to; a larger entry is rejected on its own.
    public var maxEntryBytes: Int64 = 4 << 30
    /// How deep archives may nest (an archive inside an archive is depth 2).
    public var maxDepth: Int = 3

    /// Default limits: 1 000 000 entries, 16 GiB in total, 4 GiB per entry, nesting depth 3.
    public init() {}
}

/// An archive that cannot be used at all (unreadable, not a ZIP, over a limit).
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The archive's path.
    public var archive: String
    /// What is wrong, in one line.
    public var message: String

    /// Creates an error.
    public init(archive: String, message: String) {
        self.archive = archive
        self.message = message
    }

    /// `archive: message`.
    public var description: String { archive + ": " + message }
}

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

    /// What an extraction wrote and refused.
    public struct Extraction: Sendable {
        /// Relative paths of the files written, in archive order.
        public var files: [String] = []
        /// Entries refused, in archive order.
        public var rejected: [Rejection] = []
    }

    /// Reads the central directory.
    /// - Throws: ``ArchiveError`` when the file is not a readable ZIP or holds more than `limits.maxEntries` entries.
    public static func entries(of path: String, limits: ArchiveLimits = ArchiveLimits()) throws(ArchiveError) -> [Entry]
    {
        let data = try map(path)
        return try entries(in: data, path: path, limits: limits)
    }

    /// Extracts every acceptable entry of the archive at `path` into the empty folder `destination`.
    ///
    /// - Returns: The files written and the entries refused (unsafe names, links, encryption, unsupported
    ///   methods, per-entry size, CRC mismatch, corrupt data).
    /// - Throws: ``ArchiveError`` when the archive is unreadable or breaks a whole-archive limit (entry count,
    ///   total decompressed size); nothing then should be used from `destination`.
    public static func extract(
        _ path: String, into destination: String, limits: ArchiveLimits = ArchiveLimits()
    ) throws(ArchiveError) -> Extraction {
        let data = try map(path)
        let list = try entries(in: data, path: path, limits: limits)
        let declaredTotal = list.reduce(UInt64(0)) { $0 &+ $1.uncompressedSize }
        if declaredTotal > UInt64(limits.maxTotalBytes) {
            throw ArchiveError(
                archive: path,
                message:
                    "declares \(declaredTotal) bytes decompressed, over the limit of \(limits.maxTotalBytes) bytes (--max-archive-bytes)"
            )
        }
        var result = Extraction()
        var written: Set<String> = []
        var total: Int64 = 0
        let fm = FileManager.default
        for entry in list {
            func reject(_ reason: String) { result.rejected.append(Rejection(entry: entry.name, reason: reason)) }
            let relative: String
            switch safeRelativePath(entry.name) {
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
            if entry.uncompressedSize > UInt64(limits.maxEntryBytes) {
                reject(
                    "declares \(entry.uncompressedSize) bytes decompressed, over the per-entry limit of \(limits.maxEntryBytes) bytes (--max-entry-bytes)"
                )
                continue
            }
            let key = relative.lowercased()
            guard written.insert(key).inserted else {
                reject("duplicate entry name (an earlier entry has the same path)")
                continue
            }
            let target = destination + "/" + relative
            let folder = (target as NSString).deletingLastPathComponent
            do {
                try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                reject("cannot create folder for it: \(error.localizedDescription)")
                continue
            }
            // A file and a folder of the same name: refuse rather than overwrite.
            if fm.fileExists(atPath: target) {
                reject("clashes with another entry's path")
                continue
            }
            switch writeEntry(entry, from: data, to: target, limits: limits, total: &total) {
            case .written:
                result.files.append(relative)
            case .rejected(let reason):
                try? fm.removeItem(atPath: target)
                reject(reason)
            case .archiveLimit:
                try? fm.removeItem(atPath: target)
                throw ArchiveError(
                    archive: path,
                    message:
                        "decompresses to more than the limit of \(limits.maxTotalBytes) bytes (--max-archive-bytes)")
            }
        }
        return result
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
        let normalised = name.replacingOccurrences(of: "\\", with: "/")
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

    static func map(_ path: String) throws(ArchiveError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw ArchiveError(archive: path, message: "cannot read the archive: \(error.localizedDescription)")
        }
    }

    static func entries(in data: Data, path: String, limits: ArchiveLimits) throws(ArchiveError) -> [Entry] {
        let result: Result<[Entry], ArchiveError> = data.withUnsafeBytes { raw in
            do throws(ArchiveError) {
                return .success(try parseCentralDirectory(raw, path: path, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
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
        _ p: UnsafeRawBufferPointer, path: String, limits: ArchiveLimits
    ) throws(ArchiveError) -> [Entry] {
        func fail(_ message: String) -> ArchiveError { ArchiveError(archive: path, message: message) }
        let n = p.count
        guard n >= 22 else { throw fail("is not a ZIP archive (\(n) bytes, no end-of-central-directory record)") }
        var eocd = -1
        var i = n - 22
        let lowest = max(0, n - 22 - 65_535)
        while i >= lowest {
            if p[i] == 0x50 && p[i + 1] == 0x4B && p[i + 2] == 0x05 && p[i + 3] == 0x06 {
                eocd = i
                break
            }
            i -= 1
        }
        guard eocd >= 0 else { throw fail("is not a ZIP archive (no end-of-central-directory record)") }
        var count = UInt64(u16(p, eocd + 10))
        var size = UInt64(u32(p, eocd + 12))
        var offset = UInt64(u32(p, eocd + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // ZIP64: the locator sits just before the classic record.
            let locator = eocd - 20
            guard locator >= 0, u32(p, locator) == 0x0706_4B50 else { throw fail("ZIP64 locator missing") }
            let record = u64(p, locator + 8)
            guard record <= UInt64(n - 56), u32(p, Int(record)) == 0x0606_4B50 else {
                throw fail("ZIP64 end-of-central-directory record missing or out of range")
            }
            count = u64(p, Int(record) + 32)
            size = u64(p, Int(record) + 40)
            offset = u64(p, Int(record) + 48)
        }
        if count > UInt64(limits.maxEntries) {
            throw fail("holds \(count) entries, over the limit of \(limits.maxEntries) (--max-archive-entries)")
        }
        guard offset <= UInt64(n), size <= UInt64(n) - offset else {
            throw fail("central directory lies outside the file (truncated or corrupt archive)")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var at = Int(offset)
        let end = Int(offset + size)
        for index in 0..<Int(count) {
            guard at + 46 <= end, u32(p, at) == 0x0201_4B50 else {
                throw fail("central directory entry \(index + 1) of \(count) is corrupt")
            }
            let madeBy = u16(p, at + 4)
            let flags = u16(p, at + 8)
            let method = u16(p, at + 10)
            let crc = u32(p, at + 16)
            var compressed = UInt64(u32(p, at + 20))
            var uncompressed = UInt64(u32(p, at + 24))
            let nameLength = Int(u16(p, at + 28))
            let extraLength = Int(u16(p, at + 30))
            let commentLength = Int(u16(p, at + 32))
            let external = u32(p, at + 38)
            var local = UInt64(u32(p, at + 42))
            guard at + 46 + nameLength + extraLength + commentLength <= end else {
                throw fail("central directory entry \(index + 1) runs past the directory")
            }
            let nameBytes = UnsafeRawBufferPointer(rebasing: p[(at + 46)..<(at + 46 + nameLength)])
            let name =
                String(validating: nameBytes, as: UTF8.self)
                ?? String(decoding: nameBytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            // ZIP64 extended information: present fields follow the order usize, csize, offset.
            var e = at + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = u16(p, e)
                let len = Int(u16(p, e + 2))
                if id == 0x0001 {
                    var f = e + 4
                    if uncompressed == 0xFFFF_FFFF, f + 8 <= e + 4 + len {
                        uncompressed = u64(p, f)
                        f += 8
                    }
                    if compressed == 0xFFFF_FFFF, f + 8 <= e + 4 + len {
                        compressed = u64(p, f)
                        f += 8
                    }
                    if local == 0xFFFF_FFFF, f + 8 <= e + 4 + len { local = u64(p, f) }
                }
                e += 4 + len
            }
            let unixMode = (madeBy >> 8) == 3 ? (external >> 16) & 0o170000 : 0
            entries.append(
                Entry(
                    name: name, method: method, flags: flags, crc: crc, compressedSize: compressed,
                    uncompressedSize: uncompressed, localHeaderOffset: local, isSymbolicLink: unixMode == 0o120000))
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    enum WriteOutcome {
        case written
        case rejected(String)
        case archiveLimit
    }

    /// Streams one entry to `target`, counting bytes against the declared size and the archive budget.
    static func writeEntry(
        _ entry: Entry, from data: Data, to target: String, limits: ArchiveLimits, total: inout Int64
    ) -> WriteOutcome {
        guard FileManager.default.createFile(atPath: target, contents: nil),
            let handle = FileHandle(forWritingAtPath: target)
        else { return .rejected("cannot create \(target)") }
        defer { try? handle.close() }
        let budget = limits.maxTotalBytes - total
        let (outcome, produced) = data.withUnsafeBytes { p in writeEntry(entry, bytes: p, to: handle, budget: budget) }
        total += produced
        return outcome
    }

    /// Streams one entry's data to `handle`; returns the outcome and the bytes produced.
    static func writeEntry(
        _ entry: Entry, bytes p: UnsafeRawBufferPointer, to handle: FileHandle, budget: Int64
    ) -> (WriteOutcome, Int64) {
        var produced: Int64 = 0
        let outcome = { () -> WriteOutcome in
            let header = Int(clamping: entry.localHeaderOffset)
            guard header <= p.count - 30, u32(p, header) == 0x0403_4B50 else {
                return .rejected("local header missing or out of range (corrupt archive)")
            }
            let start = header + 30 + Int(u16(p, header + 26)) + Int(u16(p, header + 28))
            guard start <= p.count, entry.compressedSize <= UInt64(p.count - start) else {
                return .rejected("data runs past the end of the archive (truncated)")
            }
            let input = UnsafeRawBufferPointer(rebasing: p[start..<(start + Int(entry.compressedSize))])
            var crc: UInt32 = 0
            var outcome: WriteOutcome?
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
                handle.write(Data(piece))
            }
            do {
                if entry.method == 0 {
                    var offset = 0
                    while offset < input.count {
                        let n = min(1 << 20, input.count - offset)
                        try sink(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + n)]))
                        offset += n
                    }
                } else {
                    let inflater = try RawInflater()
                    var offset = 0
                    var done = false
                    while !done {
                        let n = min(1 << 20, input.count - offset)
                        done = try inflater.feed(
                            UnsafeRawBufferPointer(rebasing: input[offset..<(offset + n)]), sink: sink)
                        offset += n
                    }
                }
            } catch let error as RawInflateError {
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
