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
}
