import ActiveTasks
import Foundation
import StudyInputs
import StudyOutputs

/// The export formats in a batch: `export.<format>.jsonl`, one line per analysed record in the outputs' (source)
/// order — `{"export": <document>, "source": <record>}` where the document is a JSON array of ResearchKit step
/// results, a MORK `form_data` payload, or a FHIR `Bundle`.
///
/// Each record's export is made when the record is analysed, from its typed results (the same path as
/// `taskproc analyze --format …`), kept in the journal with the record, and written with the other outputs before
/// the run is marked complete: a resumed run or a merge of shards writes it too, and the results are never read
/// back from `results.jsonl` to be exported.
///
/// Dates: a record's ResearchKit task and step dates, else dates its results carry; a record without any (a bare
/// recorder log) gets `null` ResearchKit dates and no FHIR `effectivePeriod`. Participant: the record's
/// `healthCode`, else `ParticipantIdentifier`; `taskRunUUID` from its keys.
public enum BatchExport {
    /// What a batch exports and how.
    public struct Settings: Sendable {
        /// `researchkit`, `mork` or `fhir`.
        public var format: OutputFormat
        /// The MORK envelope and item OIDs (for `mork`).
        public var mork: MORKExport.Configuration
        /// How `fhir` shapes its bundles (type, subject, Patient, consent shape).
        public var fhir = FHIRExport.Settings()
        /// How a consent signature is written by `fhir`.
        public var fhirConsent: FHIRConsentShape {
            get { fhir.consentShape }
            set { fhir.consentShape = newValue }
        }
        /// The export time (FHIR `timestamp`, MORK signature time): the run's start, so a resumed run exports the
        /// same bytes.
        public var exportedAt: Date

        /// Creates settings.
        public init(format: OutputFormat, mork: MORKExport.Configuration = MORKExport.Configuration(), exportedAt: Date)
        {
            self.format = format
            self.mork = mork
            self.exportedAt = exportedAt
        }
    }

    /// The export of one record: its line, or why there is none.
    public struct Outcome: Sendable, Hashable {
        /// The line for `export.<format>.jsonl` (no newline); nil when the record could not be exported.
        public var line: String?
        /// Notes, such as FHIR measures without a code, one line each.
        public var notes: [String] = []
        /// Why the record could not be exported (a MORK envelope without a subject, for instance).
        public var error: String?
    }

    /// The file name for a format: `export.researchkit.jsonl`, `export.mork.jsonl`, `export.fhir.jsonl`.
    public static func fileName(_ format: OutputFormat) -> String { "export.\(format.rawValue).jsonl" }

    /// Every export file name (for `--force` cleanup).
    static var fileNames: [String] { OutputFormat.allCases.filter(\.isExport).map(fileName) }

    /// Exports one analysed record.
    ///
    /// - Parameters:
    ///   - results: The record's typed results, in order.
    ///   - context: The loaded record's dates, identifiers and device (``ExportContext/init(input:exportedAt:)``).
    ///   - keys: The record's join keys (participant, task run).
    ///   - rename: The record's on-disk location renamed to its source, in every path the export holds.
    ///   - settings: Format, MORK configuration and export time.
    static func export(
        _ results: [AnalysedResult], context: ExportContext, keys: RecordKeys, rename: PathRename, settings: Settings
    ) -> Outcome {
        var context = context
        context.exportedAt = ResultDate(date: settings.exportedAt, utcOffset: 0)
        // The participant and task run are the record's join keys (the same as its CSV and SQLite rows).
        context.participant = keys.healthCode ?? keys.participantIdentifier
        context.taskRunUUID = keys.taskRunUUID
        let records: [ExportRecord]
        do {
            records = try ExportRecord.records(of: AnalysedResults(results)).map { rename.record($0) }
        } catch {
            return Outcome(error: "\(error)")
        }
        context.absorbDates(of: records)
        let options = ExportOptions(context: context, mork: settings.mork)
        options.fhir = settings.fhir
        do {
            let document = try Export.render(records, as: settings.format, options: options)
            let line = JSONObject([("export", document), ("source", .string(rename.to))])
            let text = try ResultEncoding.compactJSON(.object(line))
            return Outcome(line: text, notes: options.notes.map(rename.text))
        } catch {
            return Outcome(error: rename.text("\(error)"))
        }
    }
}

extension PathRename {
    /// The record with every path in its strings renamed.
    func record(_ record: ExportRecord) -> ExportRecord {
        guard !isIdentity else { return record }
        var out = record
        out.source = record.source.map(text)
        out.json = Self.renamed(.object(record.json), text).objectValue ?? record.json
        out.uncoded = record.uncoded.map(text)
        return out
    }

    static func renamed(_ value: JSONValue, _ f: (String) -> String) -> JSONValue {
        switch value {
        case .string(let s): .string(f(s))
        case .array(let items): .array(items.map { renamed($0, f) })
        case .object(let o): .object(JSONObject(o.entries.map { ($0.key, renamed($0.value, f)) }))
        default: value
        }
    }
}
