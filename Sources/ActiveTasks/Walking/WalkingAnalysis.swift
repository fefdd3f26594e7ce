import Foundation
import SensorSignal
import StudyInputs

extension TaskKind {
    /// Walking tasks (short walk, walk back and forth, timed walk, fitness check, 6MWT) and bare motion logs.
    public static let walking = TaskKind("walking")
}

/// The walking analysis in the registry: steps, cadence and gait features of every walking step.
enum WalkingAnalysis: TaskAnalysis {
    /// Walking tasks and bare motion logs.
    public static let kinds: [TaskKind] = [.walking]

    /// Walking, for a ResearchKit result with a walking step (a timed walk, a step of ResearchKit's walking-type
    /// tasks: ``walkingSteps``, `walking.…`) and for recorder data standing alone (``InputContent/recorderData``);
    /// not when every motion recording belongs to another task (``LoadedRecording/motionTask``: tremor, balance,
    /// rest) and no timed walk remains.
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        let root = input.researchKit?.result
        let timedWalk = !(root?.timedWalkResults.isEmpty ?? true)
        let walkingStep =
            timedWalk
            || root?.stepItems.contains {
                walkingSteps.contains($0.stepIdentifier) || $0.stepIdentifier.hasPrefix("walking.")
            } ?? false
        guard walkingStep || input.content.contains(.recorderData) else { return [] }
        let motion = input.recordings.filter(\.isMotion)
        if !motion.isEmpty && motion.allSatisfy({ $0.motionTask != nil }) && !timedWalk { return [] }
        return [.walking]
    }

    /// A motion recording of a walking input shorter than the shortest walking run the step detector counts
    /// (``StepDetector/Configuration/shortRecordingDuration``, 3 s): flagged before the analysis, as a short recording
    /// whose steps are counted only as one short walk, or under ``StepDetector/Configuration/minimumSegmentDuration``
    /// (1.5 s) as too short to count steps at all.
    public static func inspectionNotes(_ input: LoadedInput) -> [InputProblem] {
        guard input.kinds.contains(.walking) else { return [] }
        let configuration = StepDetector.Configuration()
        let needed = configuration.shortRecordingDuration
        let shortest = configuration.minimumSegmentDuration
        return input.recordings.compactMap { recording in
            let span: Double?
            switch recording.data {
            case .accelerometer(let log): span = log.report.timeSpan
            case .deviceMotion(let log): span = log.report.timeSpan
            default: span = nil
            }
            guard let span, span < needed else { return nil }
            let message =
                span < shortest || !configuration.countsShortRecordings
                ? String(format: "%.2f s of motion data: too short to count steps ", span)
                    + "(the analysis needs at least \(ResultEncoding.number(shortest)) s; a gait rhythm "
                    + "\(ResultEncoding.number(needed)) s)"
                : String(format: "%.2f s of motion data: a short recording, under the ", span)
                    + "\(ResultEncoding.number(needed)) s a gait rhythm needs: its steps are counted only as one short "
                    + "walk, a less certain count"
            return InputProblem(.warning, file: recording.file, message: message)
        }
    }

    /// Step identifiers of ResearchKit's walking-type tasks.
    public static let walkingSteps: Set<String> = [
        "walking.outbound", "walking.return", "walking.rest", "timed.walk.trial1", "timed.walk.trial2",
        "timed.walk.turn.around", "fitness.walk", "fitness.rest", "6mwt",
    ]
    /// Why a walking input gave no result.
    public static let nothingToAnalyse = "no walking recordings (accelerometer or device motion) to analyse"

    /// One result per walking step that has a recording (see ``WalkingProcessor/analyze(_:detector:gait:)``); with
    /// ``FeatureSet/mhealthtools`` each also carries mhealthtools' walk features of its recording.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [WalkingResult] {
        var results = WalkingProcessor.analyze(input, gait: options.gait ?? GaitOptions())
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
