import ActiveTasks
import Archives
import Foundation
import StudyInputs
import StudyOutputs

/// The append-only record of finished records that makes a batch run resumable.
///
/// One line per record, appended with one `write` each by the single writer task, in four tab-separated parts:
/// the head (the ``BatchEntry`` as compact JSON without its line, tables and export, plus the kinds that have a
/// CSV header), the results line verbatim, the CSV tables as a JSON array, and the export line verbatim (empty
/// when there is none). Compact JSON holds no raw tab, so the tabs split the parts unambiguously. Indexing a
/// journal decodes only the heads; the line is never escaped into JSON and unescaped again. A line without a tab
/// (journals of earlier versions) is one whole JSON entry; one with a single tab has the tables and export in
/// its head.
///
/// A run killed at any moment (even `kill -9`) leaves at most one incomplete last line; ``open(_:)`` drops it (and
/// any undecodable tail) by truncating the file to its last complete entry, so every record is either in the
/// journal exactly once or still to do.
public final class BatchJournal {
    /// The journal file.
    public let path: String
    /// Sources already in the journal, by their exact bytes (``SourceKey``).
    private(set) var done: Set<SourceKey> = []
    /// How many records the journal holds.
    public var doneCount: Int { done.count }
    /// True when `source` (byte for byte) is in the journal.
    public func contains(_ source: String) -> Bool { done.contains(SourceKey(source)) }
    /// Entries of other shards in the journal.
    public private(set) var otherShard = 0
    /// Entries the consent policy excluded, by ``ConsentPolicy/Exclusion`` raw value.
    public private(set) var excluded: [String: Int] = [:]
    private let file: OutputFile
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Opens (creating if needed) the journal at `path`, repairing an interrupted tail.
    /// - Throws: ``BatchError`` when the file cannot be read or written.
    public init(_ path: String) throws {
        self.path = path
        let file: OutputFile
        do { file = try OutputFile.open(path, .update) } catch { throw BatchError(error) }
        var valid = 0
        var sources: Set<SourceKey> = []
        var otherShard = 0
        var excluded: [String: Int] = [:]
        try Self.scan(path) { entry, _, _, end in
            sources.insert(SourceKey(entry.source))
            valid = end
            Self.count(entry.status, reason: entry.reason, otherShard: &otherShard, excluded: &excluded)
        }
        done = sources
        self.otherShard = otherShard
        self.excluded = excluded
        self.file = file
        do { try file.truncate(to: Int64(valid)) } catch { throw BatchError(error) }
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
        data.append(0x0A)
        do { try file.writeAll(data) } catch { throw BatchError(error) }
        done.insert(SourceKey(entry.source))
        Self.count(entry.status, reason: entry.reason, otherShard: &otherShard, excluded: &excluded)
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

    private static func count(
        _ status: BatchEntry.Status, reason: String?, otherShard: inout Int, excluded: inout [String: Int]
    ) {
        if status == .otherShard { otherShard += 1 }
        if status == .excluded { excluded[reason ?? "", default: 0] += 1 }
    }

    /// Flushes the journal to stable storage.
    public func synchronize() throws {
        do { try file.synchronize() } catch { throw BatchError(error) }
    }

    /// Calls `body` for every complete, decodable entry of the journal at `path`, in file order.
    ///
    /// `body` gets the entry's summary, the line's bytes (no newline) and its byte range. Scanning stops at the
    /// first incomplete or undecodable line (an interrupted tail). Reads in 4 MiB pieces: memory use does not grow
    /// with the journal.
    /// - Throws: When the file cannot be read, or `body`'s error.
    public static func scan(_ path: String, _ body: (BatchEntry.Summary, Data, Int, Int) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BatchError("\(path): cannot read the journal: \(String(cString: strerror(errno)))", kind: .io)
        }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var buffer: [UInt8] = []
        var position = 0
        var offset = 0  // file offset of buffer[0]
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let line = Data(buffer[position..<newline])
                let head = buffer[position..<newline].firstIndex(of: 0x09).map { Data(buffer[position..<$0]) } ?? line
                guard let entry = try? decoder.decode(BatchEntry.Summary.self, from: head) else { return }
                try body(entry, line, offset + position, offset + newline + 1)
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
        let parts = tabSeparatedParts(data, maximum: 4)
        var entry = try decoder.decode(BatchEntry.self, from: parts[0])
        if parts.count > 1 { entry.line = String(decoding: parts[1], as: UTF8.self) }
        if parts.count == 4 {
            entry.tables = try decoder.decode([BatchEntry.Table].self, from: parts[2])
            entry.export = parts[3].isEmpty ? nil : String(decoding: parts[3], as: UTF8.self)
        }
        entry.headerKinds = nil
        return entry
    }
}

/// A record's source compared by its exact bytes. Swift compares strings by canonical equivalence, so `é` written
/// precomposed (NFC) and as `e` + a combining accent (NFD) are one string to it, but two files to Linux: keyed
/// by `String`, one of two such twins vanished from a run.
struct SourceKey: Hashable, Sendable {
    let bytes: [UInt8]
    init(_ source: String) { bytes = Array(source.utf8) }
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
