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
        s += signalStrips(signal: signal, steps: steps, unit: unit)
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

    /// Seconds of walk per strip of the signal plot: at most ~70 steps per 640 px strip, so each step's tick stands
    /// apart (a 194 s walk in one plot merges its 350 ticks into a band).
    static let walkingStripSeconds = 30.0
    /// Strips drawn at most (the first 6 minutes); the cadence plot covers the whole walk.
    static let walkingStripsMost = 12

    /// The acceleration magnitude with the detected steps: one plot for a walk up to 40 s, else one strip per 30 s
    /// on a shared level axis.
    static func signalStrips(signal: [(x: Double, y: Double)], steps: [Double], unit: String) -> String {
        let title = "Acceleration magnitude and detected steps"
        let end = max(signal.last?.x ?? 0, steps.last ?? 0)
        guard end > walkingStripSeconds + 10, end.isFinite else {
            var layers: [SVGChart.Layer] = []
            if !signal.isEmpty {
                layers.append(.line(points: thin(signal, limit: 4000), color: "#4a7bb7", label: "|a|"))
            }
            layers.append(.ticks(xs: steps, color: "#d0342c", label: "steps (\(steps.count))"))
            return SVGChart(title: title, xLabel: "time, s", yLabel: "|a|, \(unit)", layers: layers).render() + "\n"
        }
        let levels = signal.map(\.y).filter(\.isFinite)
        let yRange = (levels.min() ?? 0)...(levels.max() ?? 1)
        let strips = Int.clamped((end / walkingStripSeconds).rounded(.up), to: 1...walkingStripsMost)
        var s = ""
        if end > Double(strips) * walkingStripSeconds {
            s += note(
                "The first \(strips) × \(ResultEncoding.number(walkingStripSeconds)) s of the \(ResultEncoding.number(end, digits: 4)) s "
                    + "walk are drawn; the cadence below covers all of it.")
        }
        for strip in 0..<strips {
            let t0 = Double(strip) * walkingStripSeconds, t1 = t0 + walkingStripSeconds
            let inStrip = signal.filter { $0.x >= t0 && $0.x <= t1 }
            let ticks = steps.filter { $0.isFinite && $0 >= t0 && $0 < t1 }
            var layers: [SVGChart.Layer] = []
            if !inStrip.isEmpty {
                layers.append(.line(points: thin(inStrip, limit: 1500), color: "#4a7bb7", label: "|a|"))
            }
            layers.append(.ticks(xs: ticks, color: "#d0342c", label: "steps (\(ticks.count))"))
            let span = "\(ResultEncoding.number(t0))–\(ResultEncoding.number(t1)) s"
            var chart = SVGChart(
                title: (strip == 0 ? title + ", " : "") + span, xLabel: "time, s", yLabel: "|a|, \(unit)", layers: layers)
            chart.height = 150
            chart.xRange = t0...t1
            chart.yRange = yRange
            s += chart.render() + "\n"
        }
        return s
    }

    // MARK: Tapping
}
