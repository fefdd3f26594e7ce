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
