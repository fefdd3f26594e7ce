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
        try Self.scan(path) { entry, _, end in
            sources.insert(entry.source)
            valid = end
        }
        done = sources
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw BatchError("\(path): cannot open the journal") }
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

    /// Calls `body` for every complete, decodable entry of the journal at `path`, in file order, with its byte
    /// range; stops at the first incomplete or undecodable line (an interrupted tail).
    /// - Throws: When the file cannot be read, or `body`'s error.
    public static func scan(_ path: String, _ body: (BatchEntry, Int, Int) throws -> Void) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw BatchError("\(path): cannot read the journal: \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var start = 0
            while start < raw.count {
                guard let newline = raw[start...].firstIndex(of: 0x0A) else { return }
                let slice = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress! + start), count: newline - start, deallocator: .none)
                guard let entry = try? decoder.decode(BatchEntry.self, from: slice) else { return }
                try body(entry, start, newline + 1)
                start = newline + 1
            }
        }
    }
}
