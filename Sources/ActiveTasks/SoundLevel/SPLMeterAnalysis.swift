import StudyInputs

extension TaskKind {
    /// Environment SPL meter.
    public static let environmentSPLMeter = TaskKind("environmentSPLMeter")
}

/// The SPL-meter analysis in the registry: ResearchKit `ORKEnvironmentSPLMeterResult`s, alone or as the
/// background-noise step of a dB HL task.
enum SPLMeterAnalysis: TaskAnalysis {
    /// Environment SPL meter.
    public static let kinds: [TaskKind] = [.environmentSPLMeter]

    /// SPL meter, for `ORKEnvironmentSPLMeterResult`s.
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        input.researchKit?.result?.environmentSPLMeterResults.isEmpty == false ? [.environmentSPLMeter] : []
    }
    /// Why an SPL-meter input gave no result.
    public static let nothingToAnalyse = "no ORKEnvironmentSPLMeterResult to analyse (only a step configuration?)"

    /// One result per SPL-meter step, with the step's threshold rule unless the options override it.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [SPLMeterResult] {
        SPLMeterProcessor.analyze(input, rule: options.splMeterRule)
    }

    /// The environment check's summary under the local code system ``ScoredTasks/codeSystem``
    /// (`splMeter.<key>`): `energyAverage`, `minimum`, `maximum` in dB (ResearchKit's own approximately A-weighted
    /// levels, not calibrated sound pressure levels: no LOINC code and not UCUM `dB[SPL]`), and `passed` (the quiet
    /// check) as a Boolean.
    public static func exportMeasures(of result: SPLMeterResult, skipped: inout [String]) -> [ExportMeasure] {
        func measure(_ key: String, _ value: Double?, _ display: String) -> ExportMeasure? {
            guard let value, value.isFinite else { return nil }
            return ExportMeasure(
                system: ScoredTasks.codeSystem, code: result.kind + "." + key,
                display: "Environment SPL meter: " + display, category: "exam", value: value,
                unit: "dB (ResearchKit)", unitCode: "dB", method: "taskproc-splMeter",
                methodDisplay: "ResearchKit's SPL meter levels, summarised by taskproc", step: result.stepIdentifier)
        }
        var measures = [
            measure("energyAverage", result.energyAverage, "energy average of the levels"),
            measure("minimum", result.minimum, "lowest level"), measure("maximum", result.maximum, "highest level"),
        ].compactMap { $0 }
        if let passed = result.passed, var check = measure("passed", passed ? 1 : 0, "quiet enough to test") {
            check.valueType = .boolean
            measures.append(check)
        }
        return measures
    }
}
