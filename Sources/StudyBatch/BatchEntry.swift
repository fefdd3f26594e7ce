import ActiveTasks
import Foundation
import StudyInputs
import StudyOutputs

/// Everything a batch run keeps about one finished record: the journal line it is resumed and merged from,
/// and from which every output file is written.
public struct BatchEntry: Sendable, Hashable, Codable {
    /// What happened to the record.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Analysed; results written.
        case ok
        /// Analysed, but part of the record could not be read (see the `error` column and `problems`).
        case partial
        /// Failed; written to `errors.jsonl`.
        case error
        /// Belongs to another shard; written nowhere.
        case otherShard
        /// Excluded by the consent policy (withdrawn, or outside the sharing scope): never analysed, written
        /// nowhere, only counted (``reason`` holds the ``ConsentPolicy/Exclusion``, no data).
        case excluded
        /// Not data (``DataLikeness``: a licence, README, ground-truth table, metadata JSON): its load failed and
        /// it does not look like any input; listed in `skipped.csv` with ``reason``, counted apart from failures.
        case skipped
    }

    /// One task kind's CSV rows of the record.
    public struct Table: Sendable, Hashable, Codable {
        /// Task kind (`walking`, `audio`, …): the CSV file name and SQLite table.
        public var kind: String
        /// The processor's CSV header (empty for a failed record's row).
        public var header: [String]
        /// Full rows: the ``BatchOutputs/storedKeyColumns`` values, then the processor's columns.
        public var rows: [[String]]
    }

    /// The parts of an entry needed to index a journal (decoding them skips the large `line`).
    public struct Summary: Sendable, Hashable, Decodable {
        /// The CSV header of one task kind's rows.
        public struct TableHeader: Sendable, Hashable, Decodable {
            /// Task kind.
            public var kind: String
            /// The processor's CSV header.
            public var header: [String]
        }
        /// The record's source.
        public var source: String
        /// SHA-256 of the record's content (absent in no journal, but optional for robustness).
        public var contentHash: String?
        /// The record's file-system stamp when it was analysed (``BatchRecord/stamp``); nil in earlier journals.
        public var stamp: String?
        /// What happened.
        public var status: Status
        /// Why it failed or was excluded (nil otherwise).
        public var reason: String?
        /// The kinds and headers of its CSV rows (journals that keep the tables in the head).
        public var tables: [TableHeader]?
        /// The kinds whose CSV rows come with a header (journals that keep the tables after the line).
        public var headerKinds: [String]?

        /// The kinds whose CSV rows come with a processor header.
        public var kindsWithHeader: [String] {
            headerKinds ?? tables?.filter { !$0.header.isEmpty }.map(\.kind) ?? []
        }
    }

    /// The record's source (see ``BatchRecord/source``).
    public var source: String
    /// SHA-256 of the record's content (see ``BatchRecord/contentHash()``).
    public var contentHash: String
    /// What happened.
    public var status: Status
    /// Task kind recognised, if any.
    public var kind: String?
    /// The line written to `results.jsonl` (ok, partial) or `errors.jsonl` (error); empty for other shards.
    public var line: String
    /// Why the record failed; nil unless ``status`` is `error`.
    public var reason: String?
    /// The CSV rows, per task kind.
    public var tables: [Table]
    /// Join keys.
    public var keys: RecordKeys
    /// The loader's dialect name.
    public var dialect: String?
    /// In a journal head: the kinds of ``tables`` with a processor header (the tables follow the line).
    var headerKinds: [String]?
    /// The record's line of `export.<format>.jsonl`, when the run exports and the record could be exported.
    public var export: String?
    /// What the export noted (FHIR measures without a code, …), one line each.
    public var exportNotes: [String]?
    /// The record's file-system stamp when it was analysed (``BatchRecord/stamp``): a resume re-analyses a record
    /// whose stamp changed.
    public var stamp: String?
    /// Why the record could not be exported, when the run exports and it could not.
    public var exportError: String?
    /// When the task run started (ISO 8601 with the device's offset, ``RecordAnalysis/Outcome/startTime``); nil
    /// when the record carries no date, and in entries of earlier versions.
    public var startTime: String?
    /// When the task run ended (ISO 8601 with the device's offset); nil when unknown.
    public var endTime: String?
    /// The ResearchKit task identifier, when the record holds a task result.
    public var taskIdentifier: String?

    /// The local calendar date of ``startTime`` (`yyyy-MM-dd`, in the device's offset); nil without a start.
    public var date: String? { startTime.map { String($0.prefix(10)) } }

    init(
        source: String, contentHash: String, status: Status, kind: String?, line: String, reason: String?,
        tables: [Table],
        keys: RecordKeys, dialect: String?
    ) {
        self.source = source
        self.contentHash = contentHash
        self.status = status
        self.kind = kind
        self.line = line
        self.reason = reason
        self.tables = tables
        self.keys = keys
        self.dialect = dialect
    }

    /// An entry for a record of another shard.
    static func otherShard(_ record: BatchRecord, hash: String) -> BatchEntry {
        var entry = BatchEntry(
            source: record.source, contentHash: hash, status: .otherShard, kind: nil, line: "", reason: nil, tables: [],
            keys: RecordKeys(), dialect: nil)
        entry.stamp = record.stamp
        return entry
    }

    /// An entry for a record the consent policy excludes: its source and why, nothing else.
    static func excluded(_ record: BatchRecord, hash: String, exclusion: ConsentPolicy.Exclusion) -> BatchEntry {
        var entry = BatchEntry(
            source: record.source, contentHash: hash, status: .excluded, kind: nil, line: "",
            reason: exclusion.rawValue, tables: [], keys: RecordKeys(), dialect: nil)
        entry.stamp = record.stamp
        return entry
    }

    /// An error entry for a record that could not even be loaded (rejected, unreadable).
    static func failed(_ record: BatchRecord, hash: String, reason: String) -> BatchEntry {
        let outcome = RecordAnalysis.Outcome(taskKind: .unknown, dialect: .unrecognised, failure: reason)
        return BatchEntry(record: record, hash: hash, outcome: outcome)
    }

    /// The entry for an analysed record; every path under the record's location is renamed to its source.
    init(record: BatchRecord, hash: String, outcome: RecordAnalysis.Outcome) {
        let rename = PathRename(from: record.location, to: record.source)
        source = record.source
        stamp = record.stamp
        contentHash = hash
        keys = outcome.keys
        dialect = outcome.dialect == .unrecognised && record.rejection != nil ? nil : outcome.dialect.rawValue
        let kindName = outcome.taskKind == .unknown ? nil : outcome.taskKind.rawValue
        kind = kindName
        startTime = outcome.startTime?.description
        endTime = outcome.endTime?.description
        taskIdentifier = outcome.taskIdentifier
        let problems = outcome.problems.map { problem -> InputProblem in
            var p = problem
            p.file = rename.text(p.file)
            p.message = rename.text(p.message)
            p.location = p.location.map(rename.text)
            return p
        }
        let problemsJSON = JSONText.array(problems.map { JSONText.encode($0) })
        let errors = problems.filter { $0.severity == .error }
        var fields: [(String, String)] = [
            ("contentHash", JSONText.string(hash)),
            ("dialect", dialect.map(JSONText.string) ?? "null"),
            ("keys", JSONText.encode(keys)),
            ("kind", kindName.map(JSONText.string) ?? "null"),
            ("participant", outcome.keys.participant.map(JSONText.string) ?? "null"),
            ("problems", problemsJSON),
            ("source", JSONText.string(record.source)),
            ("startTime", startTime.map(JSONText.string) ?? "null"),
        ]
        let prefix = { (status: String, error: String) in
            [record.source, hash] + outcome.keys.values + [status, error]
        }
        if let notData = outcome.notData {
            status = .skipped
            reason = notData
            fields.append(("reason", JSONText.string(notData)))
            fields.append(("status", JSONText.string("skipped")))
            tables = []
        } else if let failure = outcome.failure {
            let why = rename.text(failure)
            status = .error
            reason = why
            fields.append(("reason", JSONText.string(why)))
            fields.append(("status", JSONText.string("error")))
            tables = kindName.map { [Table(kind: $0, header: [], rows: [prefix("error", why)])] } ?? []
        } else {
            let partial = !errors.isEmpty
            let state: Status = partial ? .partial : .ok
            status = state
            reason = nil
            let errorText = errors.map(\.description).joined(separator: "; ")
            fields.append(("results", JSONText.array(outcome.results.map { rename.json($0.json) })))
            fields.append(("status", JSONText.string(state.rawValue)))
            var tables: [Table] = []
            for result in outcome.results {
                let rows = result.csvRows.map { prefix(state.rawValue, errorText) + $0.map(rename.text) }
                if let i = tables.firstIndex(where: { $0.kind == result.kind && $0.header == result.csvHeader }) {
                    tables[i].rows += rows
                } else {
                    tables.append(Table(kind: result.kind, header: result.csvHeader, rows: rows))
                }
            }
            for detail in outcome.detailTables {
                let rows = detail.rows.map { prefix(state.rawValue, errorText) + $0.map(rename.text) }
                tables.append(Table(kind: detail.name, header: detail.header, rows: rows))
            }
            self.tables = tables
        }
        if outcome.failure == nil, !outcome.stepDates.isEmpty {
            // Step dates (ISO 8601 with offset) let the export formats date what they export.
            let steps = outcome.stepDates.keys.sorted().map { step -> String in
                let d = outcome.stepDates[step]!
                let start = d.start.map { JSONText.string($0.description) } ?? "null"
                let end = d.end.map { JSONText.string($0.description) } ?? "null"
                return JSONText.string(step) + ":" + JSONText.object([("end", end), ("start", start)])
            }
            fields.append(("stepDates", "{" + steps.joined(separator: ",") + "}"))
        }
        line = JSONText.object(fields)
        if outcome.failure == nil, let export = outcome.export {
            self.export = export.line
            exportNotes = export.notes.isEmpty ? nil : export.notes
            exportError = export.error
        }
    }
}

/// Compact JSON text built from parts, keys in the order given (callers give them sorted).
enum JSONText {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// `s` as a JSON string, exactly as `JSONEncoder` with `.withoutEscapingSlashes` writes it (a test compares the
    /// two over every ASCII character and beyond), without an encoder per string.
    static func string(_ s: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count + 2)
        JSONTextWriter.appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    static func object(_ fields: [(String, String)]) -> String {
        let sorted = fields.sorted { RecordDiscovery.precedes($0.0, $1.0) }
        return "{" + sorted.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
