import Foundation
import SensorSignal
import StudyInputs

extension ReportPlots {
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
}
