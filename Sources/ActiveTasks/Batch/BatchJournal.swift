import Foundation

/// The append-only record of finished records that makes a batch run resumable.
///
/// One line per record (a JSON ``BatchEntry``), appended with one `write` each by the single writer task. A run
/// killed at any moment (even `kill -9`) leaves at most one incomplete last line; ``open(_:)`` drops it (and any
/// undecodable tail) by truncating the file to its last complete entry, so every record is either in the journal
/// exactly once or still to do.
public final class BatchJournal {
    /// The journal file.
    public let path: String
    /// Sources already in the journal.
    public private(set) var done: Set<String> = []
    private let handle: FileHandle

    /// Opens (creating if needed) the journal at `path`, repairing an interrupted tail.
    /// - Throws: ``BatchError`` when the file cannot be read or written.
    public init(_ path: String) throws {
        self.path = path
        let fm = FileManager.default
        if !fm.fileExists(atPath: path) { _ = fm.createFile(atPath: path, contents: nil) }
        var valid = 0
        var sources: Set<String> = []
        try Self.scan(path) { entry, _, _, end in
            sources.insert(entry.source)
            valid = end
        }
        done = sources
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw BatchError("\(path): cannot open the journal", kind: .io)
        }
        self.handle = handle
        try handle.truncate(atOffset: UInt64(valid))
        try handle.seekToEnd()
    }

    deinit { try? handle.close() }

    /// Appends one entry (one `write` call; the kernel keeps it through a kill of the process).
    public func append(_ entry: BatchEntry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(entry)
        data.append(0x0A)
        try handle.write(contentsOf: data)
        done.insert(entry.source)
    }

    /// Flushes the journal to stable storage.
    public func synchronize() throws { try handle.synchronize() }

    /// Calls `body` for every complete, decodable entry of the journal at `path`, in file order.
    ///
    /// `body` gets the entry's summary, the line's bytes (no newline) and its byte range. Scanning stops at the
    /// first incomplete or undecodable line (an interrupted tail). Reads in 4 MiB pieces: memory use does not grow
    /// with the journal.
    /// - Throws: When the file cannot be read, or `body`'s error.
    public static func scan(_ path: String, _ body: (BatchEntry.Summary, Data, Int, Int) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BatchError("\(path): cannot read the journal", kind: .io)
        }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var buffer: [UInt8] = []
        var position = 0
        var offset = 0  // file offset of buffer[0]
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                let line = Data(buffer[position..<newline])
                guard let entry = try? decoder.decode(BatchEntry.Summary.self, from: line) else { return }
                try body(entry, line, offset + position, offset + newline + 1)
                position = newline + 1
                continue
            }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 4 << 20) ?? Data() } catch {
                throw BatchError("\(path): cannot read the journal: \(error.localizedDescription)", kind: .io)
            }
            if chunk.isEmpty { return }  // an incomplete last line is ignored
            buffer.removeFirst(position)
            offset += position
            position = 0
            buffer.append(contentsOf: chunk)
        }
    }

    /// Reads one full entry at a byte range given by ``scan(_:_:)`` (from an open handle on the journal).
    static func read(_ handle: FileHandle, start: Int, end: Int, decoder: JSONDecoder) throws -> BatchEntry {
        try handle.seek(toOffset: UInt64(start))
        let data = try handle.read(upToCount: end - start - 1) ?? Data()
        return try decoder.decode(BatchEntry.self, from: data)
    }
}
