import Foundation
import SensorSignal
import StudyInputs

/// What the kinds' report plots share (notes, re-reading a source, thinning); each kind's plots are in its folder
/// (`ReportPlots+Walking.swift`, …), called by its ``TaskAnalysis/reportPlots(_:readSources:)``.
enum ReportPlots {
    static func note(_ text: String) -> String { "<p class=\"note\">\(SVGChart.escape(text))</p>\n" }

    /// The loaded source of a result, when it is still readable at the path the result names.
    static func loadSource(_ result: JSONObject) -> LoadedInput? {
        guard let source = result["source"]?.stringValue, FileManager.default.fileExists(atPath: source) else { return nil }
        return try? AnalysisRegistry.load(path: source)
    }

    /// Keeps at most `limit` points, evenly spaced.
    static func thin<T>(_ values: [T], limit: Int) -> [T] {
        guard values.count > limit else { return values }
        let step = Double(values.count) / Double(limit)
        return (0..<limit).map { values[Int.clamped(Double($0) * step, to: 0...(values.count - 1))] }
    }

    // MARK: Walking
}
