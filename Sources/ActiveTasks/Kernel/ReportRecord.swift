import Foundation
import SensorSignal
import StudyInputs

/// One analysed record as the report sees it: its source, status and the results it gave.
public struct ReportRecord: Sendable {
    /// The record's source (a file, folder or `archive.zip!/path`).
    public var source: String
    /// The task kind, when known.
    public var kind: String?
    /// `ok`, `partial` or `error`.
    public var status: String
    /// Why an `error` record gave no results.
    public var reason: String?
    /// The results, one per step, as `taskproc analyze --format json` writes them.
    public var results: [JSONObject]
    /// The participant the record belongs to, when batch found one in its path or result (a `healthCode`,
    /// `ParticipantIdentifier` or `participantIdentifier` key).
    public var participant: String?
    /// When the record started, as ISO 8601 local time with its offset (batch's `startTime`), when known; the
    /// report's trends place the record on the day it names.
    public var startTime: String?

    /// Creates a record.
    public init(
        source: String, kind: String?, status: String, reason: String? = nil, results: [JSONObject],
        participant: String? = nil, startTime: String? = nil
    ) {
        self.source = source
        self.kind = kind
        self.status = status
        self.reason = reason
        self.results = results
        self.participant = participant
        self.startTime = startTime
    }
}
