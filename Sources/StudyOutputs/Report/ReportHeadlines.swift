import ActiveTasks
import Foundation
import StudyInputs

/// The headline values of each result kind in the report: a fixed, documented order with units
/// (`docs/report.md`), shown before the full table of measures.
enum ReportHeadlines {
    /// One headline: the key in the result JSON, its label and its unit.
    struct Headline {
        var key: String
        var label: String
        var unit: String
    }

    /// Headlines per result `kind`. A key missing from a result (or `null`) is shown as "—".
    static let byKind: [String: [Headline]] = [
        "walking": [
            .init(key: "stepCount", label: "steps", unit: "steps"),
            .init(key: "cadence", label: "cadence", unit: "steps/min"),
            .init(key: "walkingDuration", label: "walking time", unit: "s"),
            .init(key: "stepRegularity", label: "step regularity", unit: "—"),
            .init(key: "strideRegularity", label: "stride regularity", unit: "—"),
            .init(key: "stepTimeCV", label: "step-time CV", unit: "%"),
            .init(key: "gaitSpeed", label: "gait speed (timed walk)", unit: "m/s"),
            .init(key: "pedometerDistance", label: "pedometer distance", unit: "m"),
        ],
        "tapping": [
            .init(key: "numberTaps", label: "taps", unit: "taps"),
            .init(key: "meanTapInter", label: "mean inter-tap interval", unit: "s"),
            .init(key: "cvTapInter", label: "inter-tap interval CV", unit: "%"),
            .init(key: "leftTaps", label: "left taps", unit: "taps"),
            .init(key: "rightTaps", label: "right taps", unit: "taps"),
        ],
        "motionSignal": [
            .init(key: "task", label: "task", unit: ""),
            .init(key: "duration", label: "duration", unit: "s"),
            .init(key: "samplingRate", label: "sampling rate", unit: "Hz"),
            .init(key: "magnitudeSD", label: "|a| SD", unit: "g"),
        ],
        "splMeter": [
            .init(key: "energyAverage", label: "energy average", unit: "dB(A) (ResearchKit)"),
            .init(key: "passed", label: "passed", unit: "yes/no"),
        ],
    ]

    /// The headline rows of `result`: (label, value, unit), in the documented order; empty for a kind without
    /// headlines. Audio results give theirs per channel (LAeq, LAFmax, LA90 in the level's unit, dB SPL when
    /// calibrated, else dBFS), dB HL audiometry per ear (PTA4, volume offset) and for the test (better-ear PTA4,
    /// WHO grade).
    static func rows(_ result: JSONObject) -> [(label: String, value: String, unit: String)] {
        func text(_ v: JSONValue?) -> String {
            switch v {
            case .number(let d)?: ResultEncoding.number(d, digits: 4)
            case .string(let t)?: t
            case .bool(let b)?: b ? "yes" : "no"
            default: "—"
            }
        }
        guard let kind = result["kind"]?.stringValue else { return [] }
        switch kind {
        case "audio":
            guard let level = result["soundLevel"]?.objectValue else { return [] }
            let unit = level["unit"]?.stringValue ?? "dB"
            var rows: [(String, String, String)] = []
            for channel in level["channels"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                let c = channel["channel"]?.numberValue.map { "channel \(ResultEncoding.number($0)) " } ?? ""
                for key in ["LAeq", "LAFmax", "LA90"] { rows.append((c + key, text(channel[key]), unit)) }
            }
            return rows
        case "dBHLToneAudiometry":
            var rows: [(String, String, String)] = []
            for ear in result["ears"]?.arrayValue?.compactMap(\.objectValue) ?? [] {
                let side = (ear["ear"]?.stringValue ?? "?") + " ear "
                rows.append((side + "PTA4", text(ear["summary"]?.objectValue?["pta4"]), "dB HL"))
                rows.append((side + "volume offset", text(ear["volume"]?.objectValue?["offset"]), "dB"))
            }
            let bilateral = result["bilateral"]?.objectValue
            rows.append(("better-ear PTA4", text(bilateral?["betterEarPTA4"]), "dB HL"))
            rows.append(("WHO grade (better ear)", text(bilateral?["whoGrade"]), ""))
            return rows
        default:
            return (byKind[kind] ?? []).map { ($0.label, text(result[$0.key]), $0.unit) }
        }
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
