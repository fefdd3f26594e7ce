import ActiveTasks
import Foundation
import StudyInputs

/// The headline values of a result in the report, shown before the full table of measures: what its kind declares
/// (`docs/report.md`), and its warnings.
enum ReportHeadlines {
    /// The headline rows of `result`: (label, value, unit), as the analysis of its `kind` declares them
    /// (``TaskAnalysis/reportHeadlines(_:)``); empty for a kind without headlines.
    static func rows(_ result: JSONObject) -> [(label: String, value: String, unit: String)] {
        guard let kind = result["kind"]?.stringValue, let analysis = AnalysisRegistry.analysis(forResultKind: kind)
        else { return [] }
        return analysis.reportHeadlines(result)
    }

    /// The headline table of `result`; empty for a kind without headlines.
    static func table(_ result: JSONObject) -> String {
        let rows = rows(result)
        guard !rows.isEmpty else { return "" }
        var s = "<table class=\"headline\"><tr><th>headline</th><th>value</th><th>unit</th></tr>"
        for r in rows {
            s += "<tr><td>\(SVGChart.escape(r.label))</td><td class=\"num\">\(SVGChart.escape(r.value))</td>"
            s += "<td>\(SVGChart.escape(r.unit))</td></tr>"
        }
        return s + "</table>\n"
    }

    /// Every warning of a result: its `warnings` and its `quality.warnings`.
    static func warnings(_ result: JSONObject) -> [String] {
        var out: [String] = []
        for value in [result["warnings"], result["quality"]?.objectValue?["warnings"]] {
            if case .array(let items)? = value { out += items.compactMap(\.stringValue) }
        }
        return out
    }
}
