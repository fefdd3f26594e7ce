import Foundation
import SensorSignal
import StudyInputs

extension ReportPlots {
    /// The tap timeline (button lanes over time) and the inter-tap-interval histogram.
    static func tapping(_ result: JSONObject, readSources: Bool) -> String {
        guard readSources, let input = loadSource(result) else {
            return note("The tapping recording is not readable at the result's source path: no tap plots.")
        }
        let step = result["stepIdentifier"]?.stringValue
        guard let recording = input.tapping.first(where: { $0.stepIdentifier == step }) ?? input.tapping.first,
            !recording.samples.isEmpty
        else { return note("No taps in the source.") }
        let taps = recording.samples.sorted { $0.timestamp < $1.timestamp }
        let t0 = taps[0].timestamp
        var timeline = SVGChart(
            title: "Tap timeline", xLabel: "time, s", yLabel: "button",
            layers: [
                .dots(points: taps.filter { $0.button == .left }.map { ($0.timestamp - t0, 2) }, color: "#4a7bb7", label: "left"),
                .dots(points: taps.filter { $0.button == .right }.map { ($0.timestamp - t0, 1) }, color: "#d0342c", label: "right"),
                .dots(points: taps.filter { $0.button == .none }.map { ($0.timestamp - t0, 0) }, color: "#999999", label: "none"),
            ])
        timeline.yCategories = [(0, "none"), (1, "right"), (2, "left")]
        timeline.height = 180
        var s = timeline.render() + "\n"
        let onButtons = taps.filter { $0.button != .none }
        let intervals = onButtons.indices.dropFirst().map { onButtons[$0].timestamp - onButtons[$0 - 1].timestamp }
            .filter { $0 >= 0 }
        if intervals.count >= 2 {
            s += SVGChart(
                title: "Inter-tap intervals (taps on a button)", xLabel: "interval, s", yLabel: "taps",
                layers: [.bars(bins: SVGChart.histogram(intervals), color: "#4a7bb7", label: "")]
            ).render() + "\n"
        }
        return s
    }

    // MARK: Audiometry
}
