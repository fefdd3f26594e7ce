import StudyInputs

extension TappingAnalysis {
    /// The tap timeline and the inter-tap-interval histogram.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String {
        ReportPlots.tapping(result, readSources: readSources)
    }
}
