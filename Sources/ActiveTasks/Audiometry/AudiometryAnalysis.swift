import StudyInputs

extension TaskKind {
    /// dB HL tone audiometry.
    public static let dBHLToneAudiometry = TaskKind("dBHLToneAudiometry")
    /// Legacy (pre-dB HL) tone audiometry.
    public static let toneAudiometry = TaskKind("toneAudiometry")
}

/// The tone-audiometry analysis in the registry: dB HL tests and legacy tone-audiometry results.
enum AudiometryAnalysis: TaskAnalysis {
    /// dB HL and legacy tone audiometry.
    public static let kinds: [TaskKind] = [.dBHLToneAudiometry, .toneAudiometry]

    /// dB HL tone audiometry for `ORKdBHLToneAudiometryResult`s; legacy tone audiometry for `ORKToneAudiometryResult`s
    /// and MyDataHelps tone-audiometry rows (``InputContent/toneAudiometryRows``).
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        let root = input.researchKit?.result
        var kinds: [TaskKind] = []
        if !(root?.dBHLToneAudiometryResults.isEmpty ?? true) { kinds.append(.dBHLToneAudiometry) }
        if !(root?.toneAudiometryResults.isEmpty ?? true) || input.content.contains(.toneAudiometryRows) {
            kinds.append(.toneAudiometry)
        }
        return kinds
    }

    /// First: the predefined dB HL task starts with an SPL-meter step (its background-noise check), and the task is
    /// still a dB HL task whose SPL step is analysed too.
    public static let position = KindRecognition.Position.first
    /// The dB HL task holds an SPL-meter step by design: not a mixed task.
    public static let holdsOtherSteps: [TaskKind] = [.dBHLToneAudiometry]
    /// Why an audiometry input gave no result.
    public static let nothingToAnalyse = "no tone-audiometry result to analyse"

    /// One result per test, in input order (see ``AudiometryProcessor/analyze(_:options:)``).
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [AudiometryResult] {
        AudiometryProcessor.analyze(input, options: options.audiometry)
    }
}
