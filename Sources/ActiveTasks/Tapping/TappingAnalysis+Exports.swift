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
