/// The walking analysis in the registry: steps, cadence and gait features of every walking step.
public enum WalkingAnalysis: TaskAnalysis {
    /// Walking tasks and bare motion logs.
    public static let kinds: [TaskKind] = [.walking]
    /// Why a walking input gave no result.
    public static let nothingToAnalyse = "no walking recordings (accelerometer or device motion) to analyse"

    /// One result per walking step that has a recording (see ``WalkingProcessor/analyze(_:detector:)``).
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [WalkingResult] {
        WalkingProcessor.analyze(input)
    }
}
