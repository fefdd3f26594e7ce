import StudyInputs

/// The walking analysis in the registry: steps, cadence and gait features of every walking step.
public enum WalkingAnalysis: TaskAnalysis {
    /// Walking tasks and bare motion logs.
    public static let kinds: [TaskKind] = [.walking]
    /// Why a walking input gave no result.
    public static let nothingToAnalyse = "no walking recordings (accelerometer or device motion) to analyse"

    /// One result per walking step that has a recording (see ``WalkingProcessor/analyze(_:detector:)``); with
    /// ``FeatureSet/mhealthtools`` each also carries mhealthtools' walk features of its recording.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [WalkingResult] {
        var results = WalkingProcessor.analyze(input)
        guard options.featureSet == .mhealthtools else { return results }
        var recordings: [String: LoadedRecording] = [:]
        func collect(_ node: LoadedInput) {
            for r in node.recordings where recordings[r.file] == nil { recordings[r.file] = r }
            for child in node.children { collect(child) }
        }
        collect(input)
        for i in results.indices {
            guard let source = results[i].source, let recording = recordings[source] else { continue }
            switch recording.data {
            case .deviceMotion(let cleaned):
                results[i].mhealthtoolsFeatures = MotionFeatures.deviceMotion(
                    cleaned.log, function: .walk, source: source)
            case .accelerometer(let cleaned):
                let log = cleaned.log
                let scale = cleaned.analysedUnit.toG
                let a = log.acceleration
                results[i].mhealthtoolsFeatures = MotionFeatures.accelerometer(
                    timestamps: log.timestamp, x: a.x.map { $0 * scale }, y: a.y.map { $0 * scale },
                    z: a.z.map { $0 * scale }, function: .walk, source: source)
                results[i].quality.warnings.append(
                    "mhealthtools walk features from an accelerometer log: raw acceleration in g (gravity "
                        + "included), not userAcceleration, and no gyroscope features")
            default:
                continue
            }
        }
        return results
    }
}
