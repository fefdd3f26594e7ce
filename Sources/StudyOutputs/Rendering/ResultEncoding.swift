import ActiveTasks
import Foundation
import StudyInputs

/// How a result is written for people or programs.
public enum OutputFormat: String, Sendable, CaseIterable, Codable {
    /// Pretty-printed JSON with sorted keys (the default; stable for diffs and tools).
    case json
    /// Aligned plain text for a person at a terminal.
    case table
    /// Comma-separated values with a header row (RFC 4180 quoting).
    case csv
    /// ResearchKit-style step results (`ORKStepResult` with `taskproc.*Result` children); see ``ResearchKitExport``.
    case researchkit
    /// A Medidata Rave Patient Cloud `form_data` payload (MORK); see ``MORKExport``.
    case mork
    /// A FHIR R4 `Bundle` of `Observation`s; see ``FHIRExport``.
    case fhir

    /// True for the formats that hand results to another system (`researchkit`, `mork`, `fhir`).
    public var isExport: Bool { self == .researchkit || self == .mork || self == .fhir }
}

extension ResultEncoding {
    /// Renders `result` in `format`; the export formats use `export` for dates, identifiers and the MORK envelope.
    ///
    /// - Returns: The text; for `fhir`, results without a FHIR mapping are listed in ``ExportOptions/notes``.
    /// - Throws: ``ExportError`` when an export cannot be made (e.g. the MORK envelope is incomplete).
    public static func render(
        _ result: some RenderableResult, as format: OutputFormat, export: ExportOptions = ExportOptions()
    ) throws -> String {
        switch format {
        case .researchkit, .mork, .fhir:
            return try json(Export.render(try ExportRecord.records(of: result), as: format, options: export))
        case .json: return try json(result)
        case .table: return table(result.tableSections)
        case .csv:
            // Results of different kinds have different columns: one CSV block per kind, a blank line between.
            let tables = (result as? AnalysedResults)?.csvTables ?? [result.csvTable]
            return tables.map { t in
                ([t.header] + t.rows).map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
            }.joined(separator: "\n")
        }
    }
}
