import StudyInputs

/// The tone-audiometry analysis in the registry: dB HL tests and legacy tone-audiometry results.
public enum AudiometryAnalysis: TaskAnalysis {
    /// dB HL and legacy tone audiometry.
    public static let kinds: [TaskKind] = [.dBHLToneAudiometry, .toneAudiometry]
    /// Why an audiometry input gave no result.
    public static let nothingToAnalyse = "no tone-audiometry result to analyse"

    /// One result per test, in input order (see ``AudiometryProcessor/analyze(_:options:)``).
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [AudiometryResult] {
        AudiometryProcessor.analyze(input, options: options.audiometry)
    }
}
