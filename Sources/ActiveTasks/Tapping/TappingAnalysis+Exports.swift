import StudyInputs

extension TappingAnalysis {
    /// The tap timeline and the inter-tap-interval histogram.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String {
        ReportPlots.tapping(result, readSources: readSources)
    }
}

extension TappingAnalysis {
    /// The report's headlines of a tapping result (`docs/report.md`).
    public static let headlines: [ReportHeadline] = [
        .init(key: "numberTaps", label: "taps", unit: "taps"),
        .init(key: "meanTapInter", label: "mean inter-tap interval", unit: "s"),
        .init(key: "cvTapInter", label: "inter-tap interval CV", unit: "%"),
        .init(key: "leftTaps", label: "left taps", unit: "taps"),
        .init(key: "rightTaps", label: "right taps", unit: "taps"),
    ]

    /// Taps per tapping step.
    public static var reportDistributions: [ReportDistribution] {
        [.init(kind: .tapping, key: "numberTaps", label: "taps per tapping step")]
    }
}

extension TappingAnalysis {
    /// Fewest taps without `flag_short`: ResearchKit's 10 s step gives 40–70.
    public static let minimumFlagTaps = 10
    /// Shortest plausible median inter-tap interval, s: faster than 20 taps/s is beyond human tapping.
    public static let minimumPlausibleInterval = 0.05

    /// Tapping flags: `short` under ``minimumFlagTaps`` taps, `still` with no tap at all, `repaired` when
    /// timestamps ran backwards or repeated, `implausible` when the median inter-tap interval is under
    /// ``minimumPlausibleInterval``; `rate` is not judged (taps are events, not samples).
    public static func qualityFlags(of result: TappingResult) -> QualityFlags {
        let taps = result.features.numberTaps ?? result.extras.tapCount
        let median = result.features.intervals.median
        return QualityFlags(
            short: taps < minimumFlagTaps,
            still: result.extras.tapCount == 0,
            repaired: result.extras.backwardsTimestamps + result.extras.repeatedTimestamps > 0,
            implausible: median.isFinite ? median < minimumPlausibleInterval : nil)
    }
}

extension TappingAnalysis {
    /// The columns of `taps.csv`, after batch's key columns.
    public static let tapsColumns = ["stepIdentifier", "tap", "time", "button", "x", "y", "duration", "sincePrevious"]

    /// `taps.csv`: one row per tap analysed, in the recording's order: its tapping step, its 1-based number, its
    /// time (s, as ResearchKit records it: since the step's first button tap), the button (`left`, `right`, or
    /// `none` outside both), its location in the step's view (points), the touch duration (s; blank when the
    /// source does not record it) and the time since the previous row's tap (s; blank at the first; negative
    /// where the timestamps run backwards, which `flag_repaired` marks).
    public static func detailTables(of result: TappingResult) -> [DetailTable] {
        guard !result.taps.isEmpty else { return [] }
        let n = { (v: Double?) in ResultEncoding.number(v, digits: 10) }
        var rows: [[String]] = []
        rows.reserveCapacity(result.taps.count)
        var previous: Double?
        for (k, tap) in result.taps.enumerated() {
            rows.append([
                result.stepIdentifier ?? "", String(k + 1), n(tap.timestamp), tap.button.rawValue, n(tap.location.x),
                n(tap.location.y), n(tap.duration), previous.map { n(tap.timestamp - $0) } ?? "",
            ])
            previous = tap.timestamp
        }
        return [DetailTable(name: "taps", header: tapsColumns, rows: rows)]
    }
}
