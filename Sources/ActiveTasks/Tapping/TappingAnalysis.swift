import StudyInputs

/// The tapping analysis in the registry: the mhealthtools (or mPower 2016) features and ResearchKit extras.
public enum TappingAnalysis: TaskAnalysis {
    /// Two-finger tapping.
    public static let kinds: [TaskKind] = [.tapping]
    /// Why a tapping input gave no result.
    public static let nothingToAnalyse = "no tapping recording to analyse"

    /// One result per tapping recording, in input order.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [TappingResult] {
        TappingProcessor.analyze(input, variant: options.tappingVariant, depressThreshold: options.depressThreshold)
    }
}
