import Foundation

/// The export formats for a finished batch: `results.jsonl` turned into `export.<format>.jsonl`, one line per
/// analysed record in the same (deterministic) order — a JSON array of ResearchKit step results, a MORK
/// `form_data` payload, or a FHIR `Bundle`.
///
/// Each record's participant (`healthCode`, else `ParticipantIdentifier`) and `taskRunUUID` come from its join
/// keys; step dates from the record's `stepDates` (its ResearchKit step results) or the results themselves; a
/// record without dates (a bare recorder log) gets `null` ResearchKit dates and no FHIR `effectivePeriod`.
public enum BatchExport {
    /// What was written.
    public struct Summary: Sendable {
        /// The file written.
        public var file: String
        /// Records exported.
        public var records = 0
        /// Notes (FHIR measures without a code), counted by text.
        public var notes: [String: Int] = [:]
    }

    /// The file name for a format: `export.researchkit.jsonl`, `export.mork.jsonl`, `export.fhir.jsonl`.
    public static func fileName(_ format: OutputFormat) -> String { "export.\(format.rawValue).jsonl" }

    /// Writes the export of the batch outputs in `outputFolder` (atomically: a temporary file renamed into place).
    ///
    /// - Throws: ``ExportError`` when `results.jsonl` is missing or unreadable, or a record cannot be exported
    ///   (a MORK envelope without a subject, for instance), naming the record.
    public static func write(
        outputFolder: String, format: OutputFormat, mork: MORKExport.Configuration = MORKExport.Configuration(),
        exportedAt: Date = Date()
    ) throws -> Summary {
        guard format.isExport else { throw ExportError("\(format.rawValue) is not an export format") }
        let resultsPath = outputFolder + "/results.jsonl"
        guard let data = FileManager.default.contents(atPath: resultsPath) else {
            throw ExportError("\(resultsPath): missing; run the batch first")
        }
        let target = outputFolder + "/" + fileName(format)
        var summary = Summary(file: target)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data()
        for record in try BatchRecordLine.read(data, file: resultsPath) {
            let source = record.source
            let results = record.results
            guard !results.isEmpty else { continue }
            var context = ExportContext(exportedAt: exportedAt)
            let keys = record.keys
            context.participant = keys?["healthCode"]?.stringValue ?? keys?["ParticipantIdentifier"]?.stringValue
            context.taskRunUUID = keys?["taskRunUUID"]?.stringValue
            for (step, dates) in record.stepDates?.entries ?? [] {
                let d = dates.objectValue
                context.steps[step] = ExportContext.StepDates(
                    start: d?["start"]?.stringValue.flatMap(ResultDate.init),
                    end: d?["end"]?.stringValue.flatMap(ResultDate.init))
            }
            for result in results {
                if let step = result["stepIdentifier"]?.stringValue, context.steps[step] == nil,
                    let start = result["startDate"]?.stringValue.flatMap(ResultDate.init)
                {
                    context.steps[step] = ExportContext.StepDates(
                        start: start, end: result["endDate"]?.stringValue.flatMap(ResultDate.init))
                }
            }
            let options = ExportOptions(context: context, mork: mork)
            let document: JSONValue
            do {
                document = try Export.render(results.map(ExportRecord.init(json:)), as: format, options: options)
            } catch let error as ExportError {
                throw ExportError("\(source): \(error.description)")
            }
            for note in options.notes { summary.notes[note.replacingOccurrences(of: source, with: "<record>"), default: 0] += 1 }
            var entry = try encoder.encode(JSONObject([("source", .string(source)), ("export", document)]))
            entry.append(0x0A)
            out.append(entry)
            summary.records += 1
        }
        try out.write(to: URL(fileURLWithPath: target), options: .atomic)
        return summary
    }
}
