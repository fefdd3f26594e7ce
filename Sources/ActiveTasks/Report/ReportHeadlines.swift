import Foundation

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

    /// The headline table of `result`; empty for a kind without headlines.
    static func table(_ result: JSONObject) -> String {
        guard let kind = result["kind"]?.stringValue, let headlines = byKind[kind] else { return "" }
        var s = "<table class=\"headline\"><tr><th>headline</th><th>value</th><th>unit</th></tr>"
        for h in headlines {
            let value: String
            switch result[h.key] {
            case .number(let d)?: value = ResultEncoding.number(d, digits: 4)
            case .string(let text)?: value = SVGChart.escape(text)
            case .bool(let b)?: value = b ? "yes" : "no"
            default: value = "—"
            }
            s += "<tr><td>\(SVGChart.escape(h.label))</td><td class=\"num\">\(value)</td>"
            s += "<td>\(SVGChart.escape(h.unit))</td></tr>"
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
