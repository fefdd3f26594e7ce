import StudyInputs

extension TaskKind {
    /// Two-finger tapping.
    public static let tapping = TaskKind("tapping")
}

/// The tapping analysis in the registry: the mhealthtools (or mPower 2016) features and ResearchKit extras.
enum TappingAnalysis: TaskAnalysis {
    /// Two-finger tapping.
    public static let kinds: [TaskKind] = [.tapping]

    /// Tapping, for tap samples read (a ResearchKit tapping result, a tap table) or expected
    /// (``InputContent/tapSamples``).
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        !input.tapping.isEmpty || input.content.contains(.tapSamples) ? [.tapping] : []
    }
    /// Why a tapping input gave no result.
    public static let nothingToAnalyse = "no tapping recording to analyse"

    /// One result per tapping recording, in input order.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [TappingResult] {
        TappingProcessor.analyze(input, variant: options.tappingVariant, depressThreshold: options.depressThreshold)
    }
}
