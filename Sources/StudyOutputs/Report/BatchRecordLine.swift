import ActiveTasks
import Foundation
import StudyInputs

/// One line of a batch `results.jsonl` or `errors.jsonl`, as readers of the outputs (the report, the exports)
/// need it.
public struct BatchRecordLine: Sendable {
    /// The record's source.
    public var source: String
    /// Task kind, when recognised.
    public var kind: String?
    /// `ok`, `partial` or `error` (`ok` when absent).
    public var status: String
    /// Why a failed record gave no results.
    public var reason: String?
    /// The results, one per step.
    public var results: [JSONObject]
    /// The join keys (`recordId`, `healthCode`, `ParticipantIdentifier`, `taskRunUUID`), when present.
    public var keys: JSONObject?
    /// Start and end of each ResearchKit step of the record (`{step: {start, end}}`), when known.
    public var stepDates: JSONObject?
    /// The record's participant by batch's documented rule (`docs/batch.md`), when known.
    public var participant: String?
    /// When the record started (ISO 8601 local time with its offset), when known.
    public var startTime: String?

    /// Calls `body` with every non-empty line of the batch JSON Lines file at `path`, parsed, in file order; the
    /// file is read in 4 MiB pieces, so memory does not grow with it.
    ///
    /// - Throws: ``ExportError`` naming the file and line that is not a batch record, or `body`'s error.
    public static func forEach(path: String, _ body: (BatchRecordLine) throws -> Void) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ExportError("\(path): cannot read") }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        var position = 0
        var number = 0
        var atEnd = false
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A)
                ?? (atEnd && position < buffer.count ? buffer.count : nil)
            {
                number += 1
                let line = buffer[position..<newline]
                position = min(newline + 1, buffer.count)
                if line.isEmpty { continue }
                try body(try parse(Data(line), file: path, line: number))
                continue
            }
            if atEnd { return }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 4 << 20) ?? Data() } catch {
                throw ExportError("\(path): cannot read: \(error.localizedDescription)")
            }
            buffer.removeFirst(position)
            position = 0
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    /// One line of a batch JSON Lines file (`line` is its 1-based number, for errors).
    static func parse(_ line: Data, file: String, line number: Int) throws -> BatchRecordLine {
        let value: JSONValue
        do { value = try JSONParser.parse(line, file: file) } catch {
            throw ExportError("\(file): line \(number): \(error)")
        }
        guard let o = value.objectValue, let source = o["source"]?.stringValue else {
            throw ExportError("\(file): line \(number): expected a batch record with a \"source\"")
        }
        return fields(o, source: source)
    }

    /// A parsed line's fields.
    static func fields(_ o: JSONObject, source: String) -> BatchRecordLine {
        BatchRecordLine(
            source: source, kind: o["kind"]?.stringValue, status: o["status"]?.stringValue ?? "ok",
            reason: o["reason"]?.stringValue, results: o["results"]?.arrayValue?.compactMap(\.objectValue) ?? [],
            keys: o["keys"]?.objectValue, stepDates: o["stepDates"]?.objectValue,
            participant: o["participant"]?.stringValue, startTime: o["startTime"]?.stringValue)
    }

    /// Parses every non-empty line of a batch JSON Lines file.
    ///
    /// - Throws: ``ExportError`` naming the file and line that is not a batch record.
    public static func read(_ data: Data, file: String) throws -> [BatchRecordLine] {
        var out: [BatchRecordLine] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            let value: JSONValue
            do { value = try JSONParser.parse(Data(line), file: file) } catch {
                throw ExportError("\(file): line \(index + 1): \(error)")
            }
            guard let o = value.objectValue, let source = o["source"]?.stringValue else {
                throw ExportError("\(file): line \(index + 1): expected a batch record with a \"source\"")
            }
            out.append(fields(o, source: source))
        }
        return out
    }
}
