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
            out.append(
                BatchRecordLine(
                    source: source, kind: o["kind"]?.stringValue, status: o["status"]?.stringValue ?? "ok",
                    reason: o["reason"]?.stringValue, results: o["results"]?.arrayValue?.compactMap(\.objectValue) ?? [],
                    keys: o["keys"]?.objectValue, stepDates: o["stepDates"]?.objectValue))
        }
        return out
    }
}
