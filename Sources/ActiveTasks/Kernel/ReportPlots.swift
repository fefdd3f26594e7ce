import Foundation
import SensorSignal
import StudyInputs

/// The per-kind plots of ``HTMLReport``.
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

    /// Per ear and frequency, in test order: the recorded and re-derived thresholds, dB SPL, presentations and
    /// false alarms.
    static func thresholdTable(_ result: JSONObject) -> String {
        let columns = [
            ("calculatedThreshold", "threshold, dB HL"), ("rederivedThreshold", "re-derived, dB HL"),
            ("thresholdSPL", "dB SPL"), ("presentations", "presentations"), ("falseAlarms", "false alarms"),
        ]
        var s = "<table class=\"thresholds\"><tr><th>ear</th><th>frequency, Hz</th>"
        s += columns.map { "<th>\($0.1)</th>" }.joined() + "</tr>"
        var rows = 0
        for ear in result["ears"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            let side = ear["ear"]?.stringValue ?? "?"
            for f in ear["frequencies"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                s += "<tr><td>\(SVGChart.escape(side))</td><td class=\"num\">\(ResultEncoding.number(f["frequency"]?.numberValue))</td>"
                for (key, _) in columns {
                    let text = f[key]?.numberValue.map { ResultEncoding.number($0, digits: 5) } ?? "—"
                    s += "<td class=\"num\">\(text)</td>"
                }
                s += "</tr>"
                rows += 1
            }
        }
        return rows == 0 ? "" : s + "</table>\n"
    }

    /// The standard audiogram of a dB HL result (the lower of repeated thresholds; no response at the highest
    /// level presented).
    static func audiogram(_ result: JSONObject) -> String {
        var ears: [(ear: Ear, points: [AudiogramPoint])] = []
        for ear in result["ears"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            guard let side = ear["ear"]?.stringValue.flatMap(Ear.init(rawValue:)) else { continue }
            var best: [Double: Double] = [:]
            var noResponse: [Double: Double] = [:]
            for f in ear["frequencies"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                guard let hz = f["frequency"]?.numberValue else { continue }
                if f["noThreshold"]?.boolValue == true {
                    noResponse[hz] = max(noResponse[hz] ?? -.infinity, f["highestLevelPresented"]?.numberValue ?? 120)
                } else if let t = f["calculatedThreshold"]?.numberValue {
                    best[hz] = min(best[hz] ?? .infinity, t)
                }
            }
            var points = best.map { AudiogramPoint(frequency: $0.key, level: $0.value) }
            for (hz, level) in noResponse where best[hz] == nil {
                points.append(AudiogramPoint(frequency: hz, level: level, noResponse: true))
            }
            ears.append((side, points.sorted { $0.frequency < $1.frequency }))
        }
        guard !ears.isEmpty else { return note("No thresholds to plot.") }
        var svg = AudiogramSVG.render(ears: ears)
        if let range = svg.range(of: "?>") , svg.hasPrefix("<?xml") { svg = String(svg[range.upperBound...]) }
        return svg.trimmingCharacters(in: .whitespacesAndNewlines) + "\n" + volumeDefectNote(result)
    }

    /// Under the audiogram: when an ear was tested at a reduced output volume (ResearchKit's volume defect), the
    /// offset and the volume-corrected thresholds, which differ from the recorded ones the audiogram plots.
    static func volumeDefectNote(_ result: JSONObject) -> String {
        var lines: [String] = []
        for ear in result["ears"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
            guard let offset = ear["volume"]?.objectValue?["offset"]?.numberValue, offset != 0 else { continue }
            let side = ear["ear"]?.stringValue ?? "?"
            var corrected: [String] = []
            for f in ear["frequencies"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                guard let hz = f["frequency"]?.numberValue, let recorded = f["calculatedThreshold"]?.numberValue,
                    let fixed = f["volumeCorrectedThreshold"]?.numberValue
                else { continue }
                corrected.append(
                    "\(ResultEncoding.number(hz)) Hz \(ResultEncoding.number(recorded, digits: 4)) → "
                        + "\(ResultEncoding.number(fixed, digits: 4))")
            }
            let volume = ear["outputVolume"]?.numberValue.map { " at output volume \(ResultEncoding.number($0, digits: 4))" } ?? ""
            lines.append(
                "Volume defect, \(side) ear\(volume): tones were \(ResultEncoding.number(-offset, digits: 3)) dB "
                    + "softer than nominal, so the plotted (recorded) thresholds are too high; volume-corrected, dB HL: "
                    + (corrected.isEmpty ? "none recorded" : corrected.joined(separator: ", ")))
        }
        return lines.map { "<p class=\"status-partial\">\(SVGChart.escape($0))</p>\n" }.joined()
    }

    // MARK: Sound level

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
