import Foundation
import SensorSignal
import StudyInputs

extension ReportPlots {
    /// The acceleration magnitude with the detected steps, and the cadence over time (60 / step interval).
    static func walking(_ result: JSONObject, readSources: Bool) -> String {
        let steps = result["stepTimes"]?.arrayValue?.compactMap(\.numberValue) ?? []
        var s = ""
        var signal: [(x: Double, y: Double)] = []
        var unit = "g"
        if readSources, let input = loadSource(result) {
            let source = result["source"]?.stringValue
            for recording in input.recordings where recording.file == source || input.recordings.count == 1 {
                switch recording.data {
                case .accelerometer(let cleaned):
                    let log = cleaned.log
                    unit = log.unit.rawValue
                    let t0 = log.timestamp.first ?? 0
                    signal = log.timestamp.indices.map { i in
                        let a = log.acceleration
                        return (log.timestamp[i] - t0, (a.x[i] * a.x[i] + a.y[i] * a.y[i] + a.z[i] * a.z[i]).squareRoot())
                    }
                case .deviceMotion(let cleaned):
                    let log = cleaned.log
                    let t0 = log.timestamp.first ?? 0
                    signal = log.timestamp.indices.map { i in
                        let u = log.userAcceleration, g = log.gravity
                        let x = u.x[i] + g.x[i], y = u.y[i] + g.y[i], z = u.z[i] + g.z[i]
                        return (log.timestamp[i] - t0, (x * x + y * y + z * z).squareRoot())
                    }
                default: continue
                }
                if !signal.isEmpty { break }
            }
        }
        if signal.isEmpty {
            s += note("The recording is not readable at the result's source path: steps shown without the signal.")
        }
        var layers: [SVGChart.Layer] = []
        if !signal.isEmpty { layers.append(.line(points: thin(signal, limit: 4000), color: "#4a7bb7", label: "|a|")) }
        layers.append(.ticks(xs: steps, color: "#d0342c", label: "steps (\(steps.count))"))
        s += SVGChart(title: "Acceleration magnitude and detected steps", xLabel: "time, s", yLabel: "|a|, \(unit)", layers: layers)
            .render() + "\n"
        var cadence: [(x: Double, y: Double)] = []
        for i in steps.indices.dropFirst() {
            let dt = steps[i] - steps[i - 1]
            if dt > 0, dt < 2 { cadence.append(((steps[i] + steps[i - 1]) / 2, 60 / dt)) }
        }
        if !cadence.isEmpty {
            var layers: [SVGChart.Layer] = [.dots(points: cadence, color: "#2a9d8f", label: "60 / step interval")]
            if let mean = result["cadence"]?.numberValue { layers.append(.horizontal(y: mean, color: "#333333", label: "cadence")) }
            s += SVGChart(title: "Cadence over time", xLabel: "time, s", yLabel: "steps/min", layers: layers).render() + "\n"
        }
        return s
    }

    // MARK: Tapping
}
