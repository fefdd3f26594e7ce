import Foundation

extension WalkingAnalysis {
    /// FHIR measures of one result (see ``FHIRExport``): the step count (LOINC 55423-8); none for a step without
    /// motion data.
    public static func exportMeasures(of result: WalkingResult, skipped: inout [String]) -> [ExportMeasure] {
        guard let steps = result.stepCount else { return [] }
        return [
            ExportMeasure(
                system: "http://loinc.org", code: "55423-8", display: "Number of steps in unspecified time Pedometer",
                category: "activity", value: Double(steps), unit: "steps", unitCode: "{steps}",
                method: "walking-step-detector",
                methodDisplay: "taskproc step detection on the acceleration magnitude")
        ]
    }
}

extension WalkingAnalysis {
    /// The walking signal with a tick per step and the cadence over time.
    public static func reportPlots(_ result: JSONObject, readSources: Bool) -> String {
        ReportPlots.walking(result, readSources: readSources)
    }
}
