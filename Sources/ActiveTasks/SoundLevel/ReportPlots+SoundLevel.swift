import Foundation
import SensorSignal
import StudyInputs

extension ReportPlots {
    /// The SPL window series (ResearchKit-style windows) with the threshold line, per channel.
    static func soundLevel(_ result: JSONObject) -> String {
        var s = ""
        if result["kind"]?.stringValue == "splMeter" {
            let samples = result["samples"]?.arrayValue?.compactMap(\.numberValue) ?? []
            guard !samples.isEmpty else { return note("The SPL meter result holds no samples.") }
            let interval = result["samplingInterval"]?.numberValue ?? 1
            var layers: [SVGChart.Layer] = [
                .line(points: samples.indices.map { (Double($0) * interval, samples[$0]) }, color: "#4a7bb7", label: "ResearchKit dB(A)")
            ]
            if let t = result["threshold"]?.numberValue { layers.append(.horizontal(y: t, color: "#d0342c", label: "threshold")) }
            var chart = SVGChart(title: "SPL meter samples", xLabel: "time, s", yLabel: "dB(A) SPL", layers: layers)
            chart.minimumYSpan = 10
            return chart.render() + "\n"
        }
        guard let level = result["kind"]?.stringValue == "audio" ? result["soundLevel"]?.objectValue : result else {
            return ""
        }
        let unit = level["unit"]?.stringValue ?? "dB"
        let interval = level["samplingInterval"]?.numberValue ?? 1
        let threshold = level["rule"]?.objectValue?["threshold"]?.numberValue
        for channel in level["channels"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            let series = channel["splMeterSamples"]?.arrayValue?.compactMap(\.numberValue) ?? []
            guard !series.isEmpty else { continue }
            var layers: [SVGChart.Layer] = [
                .line(points: series.indices.map { (Double($0) * interval, series[$0]) }, color: "#4a7bb7", label: "LAeq per window")
            ]
            if let threshold, unit == "dB SPL" {
                layers.append(.horizontal(y: threshold, color: "#d0342c", label: "threshold"))
            }
            let c = channel["channel"]?.numberValue.map { " (channel \(ResultEncoding.number($0)))" } ?? ""
            var chart = SVGChart(title: "Sound level history\(c)", xLabel: "time, s", yLabel: "dB(A), \(unit)", layers: layers)
            chart.minimumYSpan = 10
            s += chart.render() + "\n"
        }
        return s
    }
}
