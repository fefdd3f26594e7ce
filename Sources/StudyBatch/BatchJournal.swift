import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// The append-only record of finished records that makes a batch run resumable.
///
/// One line per record, appended with one `write` each by the single writer task, in five tab-separated parts:
/// the head (the ``BatchEntry`` as compact JSON without its line, tables and export, plus the kinds that have a
/// CSV header), the results line verbatim, the CSV tables as a JSON array, the export line verbatim (empty
/// when there is none), and the CRC-32 of everything before it (8 lowercase hex digits). Compact JSON holds no raw
/// tab, so the tabs split the parts unambiguously. Indexing a journal decodes only the heads; the line is never
/// escaped into JSON and unescaped again. Lines of earlier versions have no checksum: four parts, or one whole JSON
/// entry (no tab), or two parts with the tables and export in the head.
///
/// A run killed at any moment (even `kill -9`) leaves at most one incomplete last line (no newline); ``init(_:)``
/// drops it by truncating the file to its last complete line, so every record is either in the journal or still
/// to do. A complete line that is damaged (its checksum does not match, its head does not decode) is quarantined:
/// it is listed with its line number in ``quarantined`` and `quarantine.jsonl` beside the journal, never read as
/// an entry, and its record is analysed again.
public final class BatchJournal {
    /// The journal file.
    public let path: String
    /// What the journal knows of one record: its latest entry's stamp, content hash and status.
    struct Known: Sendable {
        /// `hashValue` of the stamp (nil in entries of earlier versions, which had none).
        var stamp: Int?
        /// The first 64 bits of the content hash.
        var hash: UInt64
        var status: BatchEntry.Status
        /// The exclusion of an excluded record.
        var exclusion: String?

        init(stamp: String?, contentHash: String?, status: BatchEntry.Status, reason: String?) {
            self.stamp = stamp?.hashValue
            hash = contentHash.flatMap { UInt64($0.prefix(16), radix: 16) } ?? 0
            self.status = status
            exclusion = status == .excluded ? reason ?? "" : nil
        }
    }

    /// Records in the journal, by their exact bytes (``SourceKey``): the latest entry of each counts.
    private(set) var known: [SourceKey: Known] = [:]
    /// How many records the journal holds.
    public var doneCount: Int { known.count }
    /// True when `source` (byte for byte) is in the journal.
    public func contains(_ source: String) -> Bool { known[SourceKey(source)] != nil }
    /// Entries of other shards in the journal.
    public var otherShard: Int { known.values.reduce(0) { $0 + ($1.status == .otherShard ? 1 : 0) } }
    /// Entries the consent policy excluded, by ``ConsentPolicy/Exclusion`` raw value.
    public var excluded: [String: Int] {
        known.values.reduce(into: [:]) { counts, item in
            if let exclusion = item.exclusion { counts[exclusion, default: 0] += 1 }
        }
    }

    /// Where a discovered record stands against the journal.
    public enum Standing: Sendable, Equatable {
        /// Not in the journal: to do.
        case new
        /// In the journal with the same stamp (or an entry without one): done.
        case done
        /// In the journal, but its file-system stamp changed since: analysed again (the new entry supersedes).
        case changed
    }

    /// Where `record` stands.
    public func standing(of record: BatchRecord) -> Standing {
        guard let item = known[SourceKey(record.source)] else { return .new }
        guard let stored = item.stamp, let now = record.stamp else { return .done }
        return stored == now.hashValue ? .done : .changed
    }

    /// The first 64 bits of the content hash of the journal's latest entry for `source`.
    func contentPrefix(of source: String) -> UInt64? { known[SourceKey(source)]?.hash }

    /// The records of the journal that are not in `sources` (inputs deleted since an earlier session), read back
    /// from the journal (the index keeps keys, not names) only when there are any.
    func sources(notIn sources: Set<SourceKey>) throws -> [String] {
        let missing = Set(known.keys.filter { !sources.contains($0) })
        guard !missing.isEmpty else { return [] }
        var names: Set<String> = []
        try Self.scan(path) { entry, _, _, _ in
            if missing.contains(SourceKey(entry.source)) { names.insert(entry.source) }
        }
        return names.sorted(by: RecordDiscovery.precedes)
    }
    /// Damaged lines found when the journal was opened: 1-based line number and why.
    public private(set) var quarantined: [Damage] = []

    /// A damaged journal line.
    public struct Damage: Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        /// Why it is not an entry (`checksum mismatch`, `undecodable head`).
        public var reason: String
        /// `line 17: checksum mismatch`.
        public var description: String { "line \(line): \(reason)" }
    }
    private let file: OutputFile
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Opens (creating if needed) the journal at `path`, repairing an interrupted tail.
    /// - Throws: ``BatchError`` when the file cannot be read or written.
    public init(_ path: String, index given: Index? = nil) throws {
        self.path = path
        // Created first (an empty journal for a new run), opened for writing after any damage is moved out.
        do { try OutputFile.open(path, .update).closeChecked() } catch { throw BatchError(error) }
        let index = try given ?? Self.index(path)
        var valid = index.valid
        quarantined = index.damaged.map(\.damage)
        if !index.damaged.isEmpty {
            try Self.quarantine(index.damaged, of: path, keeping: valid)
            valid -= index.damaged.reduce(0) { $0 + $1.range.count }
        }
        known = index.known
        do {
            file = try OutputFile.open(path, .update)
            try file.truncate(to: Int64(valid))
        } catch { throw BatchError(error) }
    }

    /// What one reading of a journal gives: the latest entry of each record, where its complete lines end, and
    /// its damaged lines with their byte ranges.
    public struct Index: Sendable {
        /// The latest entry of each record (a later entry supersedes: the record changed, or two writers once
        /// shared the journal).
        var known: [SourceKey: Known] = [:]
        /// The byte offset after the last complete line (an incomplete tail starts there).
        var valid = 0
        /// Damaged complete lines.
        var damaged: [(damage: Damage, range: Range<Int>)] = []

        /// The damaged lines.
        public var damage: [Damage] { damaged.map(\.damage) }
        /// How many records the journal holds.
        public var count: Int { known.count }
    }

    /// Reads the journal at `path` once (an empty index when it is missing); writes nothing.
    /// - Throws: ``BatchError`` when it cannot be read.
    public static func index(_ path: String) throws -> Index {
        var index = Index()
        guard FileManager.default.fileExists(atPath: path) else { return index }
        try scan(
            path,
            { entry, _, _, end in
                index.valid = end
                index.known[SourceKey(entry.source)] = Known(
                    stamp: entry.stamp, contentHash: entry.contentHash, status: entry.status, reason: entry.reason)
            },
            damaged: { damage, end in
                index.damaged.append((damage, index.valid..<end))
                index.valid = end
            })
        return index
    }

    /// Appends one entry (one `write` call; the kernel keeps it through a kill of the process).
    public func append(_ entry: BatchEntry) throws {
        var head = entry
        head.line = ""
        head.tables = []
        head.export = nil
        var kinds: [String] = []
        for table in entry.tables where !table.header.isEmpty && !kinds.contains(table.kind) {
            kinds.append(table.kind)
        }
        head.headerKinds = kinds
        var data = try encoder.encode(head)
        data.append(0x09)
        data.append(contentsOf: entry.line.utf8)
        data.append(0x09)
        data.append(contentsOf: Self.tablesJSON(entry.tables).utf8)
        data.append(0x09)
        data.append(contentsOf: (entry.export ?? "").utf8)
        let crc = data.withUnsafeBytes { CRC32.update(0, $0) }
        data.append(0x09)
        data.append(contentsOf: Self.hex8(crc).utf8)
        data.append(0x0A)
        do { try file.writeAll(data) } catch { throw BatchError(error) }
        known[SourceKey(entry.source)] = Known(
            stamp: entry.stamp, contentHash: entry.contentHash, status: entry.status, reason: entry.reason)
    }

    /// The tables as compact JSON with sorted keys, as `JSONEncoder` writes them (a test compares the two), without
    /// its per-value machinery: the CSV rows are most of a journal line.
    static func tablesJSON(_ tables: [BatchEntry.Table]) -> String {
        func strings(_ items: [String]) -> String { JSONText.array(items.map(JSONText.string)) }
        return JSONText.array(
            tables.map { table in
                "{\"header\":" + strings(table.header) + ",\"kind\":" + JSONText.string(table.kind) + ",\"rows\":"
                    + JSONText.array(table.rows.map(strings)) + "}"
            })
    }

    /// Moves damaged lines out of the journal at `path`: each goes to `quarantine.jsonl` beside it (line number,
    /// reason, and its bytes as text, at most 64 KiB), and the journal is rewritten without them (up to `end`, the
    /// incomplete tail dropped), atomically.
    static func quarantine(_ lines: [(Damage, Range<Int>)], of path: String, keeping end: Int) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard let source = FileHandle(forReadingAtPath: path) else {
            throw BatchError("\(path): cannot read the journal: \(String(cString: strerror(errno)))", kind: .io)
        }
        defer { try? source.close() }
        do {
            let quarantine = try BufferedOutput(replacing: folder + "/quarantine.jsonl.partial")
            let kept = try BufferedOutput(replacing: path + ".partial")
            var position = 0
            func copy(upTo limit: Int) throws {
                try source.seek(toOffset: UInt64(position))
                while position < limit {
                    let chunk = try source.read(upToCount: min(4 << 20, limit - position)) ?? Data()
                    if chunk.isEmpty { break }
                    try kept.append(chunk)
                    position += chunk.count
                }
            }
            for (damage, range) in lines {
                try copy(upTo: range.lowerBound)
                try source.seek(toOffset: UInt64(range.lowerBound))
                let bytes = try source.read(upToCount: min(range.count, 64 << 10)) ?? Data()
                let text = String(decoding: bytes, as: UTF8.self)
                try quarantine.append(
                    "{\"line\":\(damage.line),\"reason\":\(JSONText.string(damage.reason)),\"bytes\":\(range.count),"
                        + "\"text\":\(JSONText.string(text))}\n")
                position = range.upperBound
            }
            try copy(upTo: end)
            try quarantine.close()
            try kept.close()
            try FileSystem.rename(folder + "/quarantine.jsonl.partial", to: folder + "/quarantine.jsonl")
            try FileSystem.rename(path + ".partial", to: path)
        } catch {
            throw BatchError.wrapping(error, path: path, operation: .write)
        }
    }

    /// The damaged lines of the journal at `path` (none when it is missing).
    public static func damage(_ path: String) throws -> [Damage] { try index(path).damage }

    /// `crc` as 8 lowercase hex digits.
    static func hex8(_ crc: UInt32) -> String {
        let digits = String(crc, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Why a complete line is not an entry, or nil for a good one: a checksum that does not match its bytes
    /// (lines with five parts), or a head that does not decode.
    static func damage(of line: ArraySlice<UInt8>) -> String? {
        var tabs = 0
        var last = line.startIndex
        for i in line.indices where line[i] == 0x09 {
            tabs += 1
            last = i
        }
        guard tabs == 4 else { return nil }
        let stored = String(decoding: line[(last + 1)...], as: UTF8.self)
        let crc = line[..<last].withUnsafeBytes { CRC32.update(0, $0) }
        return stored == hex8(crc) ? nil : "checksum mismatch (the line was damaged after it was written)"
    }

    /// Flushes the journal to stable storage.
    public func synchronize() throws {
        do { try file.synchronize() } catch { throw BatchError(error) }
    }

    /// Calls `body` for every complete, intact entry of the journal at `path`, in file order.
    ///
    /// `body` gets the entry's summary, the line's bytes (no newline) and its byte range. An incomplete last line
    /// (an interrupted tail) is ignored; a complete line that is damaged goes to `damaged` (with the offset after
    /// it), never to `body`. Reads in 4 MiB pieces: memory use does not grow with the journal.
    /// - Throws: When the file cannot be read, or `body`'s error.
    public static func scan(
        _ path: String, _ body: (BatchEntry.Summary, Data, Int, Int) throws -> Void,
        damaged: ((Damage, Int) throws -> Void)? = nil
    ) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BatchError("\(path): cannot read the journal: \(String(cString: strerror(errno)))", kind: .io)
        }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var buffer: [UInt8] = []
        var position = 0
        var offset = 0  // file offset of buffer[0]
        var number = 0
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                number += 1
                let bytes = buffer[position..<newline]
                let end = offset + newline + 1
                if let reason = damage(of: bytes) {
                    try damaged?(Damage(line: number, reason: reason), end)
                    position = newline + 1
                    continue
                }
                let line = Data(bytes)
                let head = bytes.firstIndex(of: 0x09).map { Data(buffer[position..<$0]) } ?? line
                guard let entry = try? decoder.decode(BatchEntry.Summary.self, from: head) else {
                    try damaged?(Damage(line: number, reason: "its head is not a journal entry"), end)
                    position = newline + 1
                    continue
                }
                try body(entry, line, offset + position, end)
                position = newline + 1
                continue
            }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 4 << 20) ?? Data() } catch {
                throw BatchError.wrapping(error, path: path, operation: .read)
            }
            if chunk.isEmpty { return }  // an incomplete last line is ignored
            buffer.removeFirst(position)
            offset += position
            position = 0
            buffer.append(contentsOf: chunk)
        }
    }

    /// Up to `maximum` parts of `data` split at tab bytes (the last part keeps any further tabs), found with a byte
    /// scan: `Collection.split` on `Data` cost more than decoding the entry.
    static func tabSeparatedParts(_ data: Data, maximum: Int) -> [Data] {
        var bounds: [Int] = []
        data.withUnsafeBytes { raw in
            var i = 0
            while i < raw.count && bounds.count < maximum - 1 {
                if raw[i] == 0x09 { bounds.append(i) }
                i += 1
            }
        }
        var parts: [Data] = []
        var start = 0
        for bound in bounds {
            parts.append(data.subdata(in: (data.startIndex + start)..<(data.startIndex + bound)))
            start = bound + 1
        }
        parts.append(data.subdata(in: (data.startIndex + start)..<data.endIndex))
        return parts
    }

    /// Reads one full entry at a byte range given by ``scan(_:_:)`` (from an open handle on the journal).
    static func read(_ handle: FileHandle, start: Int, end: Int, decoder: JSONDecoder) throws -> BatchEntry {
        try handle.seek(toOffset: UInt64(start))
        let data = try handle.read(upToCount: end - start - 1) ?? Data()
        let parts = tabSeparatedParts(data, maximum: 5)
        var entry: BatchEntry
        do { entry = try decoder.decode(BatchEntry.self, from: parts[0]) } catch {
            throw BatchError("the journal entry at byte \(start) does not decode: \(error)")
        }
        if parts.count > 1 { entry.line = String(decoding: parts[1], as: UTF8.self) }
        if parts.count >= 4 {
            do { entry.tables = try decoder.decode([BatchEntry.Table].self, from: parts[2]) } catch {
                throw BatchError("the journal entry at byte \(start) has undecodable tables: \(error)")
            }
            entry.export = parts[3].isEmpty ? nil : String(decoding: parts[3], as: UTF8.self)
        }
        entry.headerKinds = nil
        return entry
    }
}

/// A record's source compared by its exact bytes.
///
/// Swift compares strings by canonical equivalence, so `é` written
/// precomposed (NFC) and as `e` + a combining accent (NFD) are one string to it, but two files to Linux: keyed
/// by `String`, one of two such twins vanished from a run.
public struct SourceKey: Hashable, Sendable {
    /// The first 128 bits of the SHA-256 of the source's UTF-8 bytes.
    ///
    /// 16 bytes per record whatever the length of its path (the sets and indexes of a run of a million records
    /// hold one each). Two names share a key only by a
    /// SHA-256 collision in 128 bits (about 2⁶⁴ names for an even chance).
    let high: UInt64
    let low: UInt64
    /// The key of `source`.
    public init(_ source: String) {
        var hasher = SHA256()
        var text = source
        text.withUTF8 { hasher.update(bytes: UnsafeRawBufferPointer($0)) }
        let w = hasher.finalizeWords()
        high = UInt64(w[0]) << 32 | UInt64(w[1])
        low = UInt64(w[2]) << 32 | UInt64(w[3])
    }
    /// 64 bits of the key: the same in every process (unlike `hashValue`).
    public var fingerprint: UInt64 { high }
}
