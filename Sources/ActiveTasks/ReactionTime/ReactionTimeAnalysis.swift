import Foundation
import StudyInputs

extension TaskKind {
    /// Reaction time (`ORKReactionTimeResult` and its device-motion files).
    public static let reactionTime = TaskKind("reactionTime")
}

/// Reaction time (`ORKReactionTimeResult`, one object per successful attempt): the time from the stimulus to the
/// shake that answered it.
///
/// An attempt's `timestamp` is the stimulus onset on the device's uptime clock; its `fileResults` name the
/// device-motion file recorded for it, whose sample timestamps are on the same clock. ResearchKit stops that recorder
/// at the first sample whose |userAcceleration| exceeds the step's `thresholdAcceleration` (a property of the step,
/// not of the result), so the attempt's reaction time is the **last sample's timestamp − `timestamp`**: an upper
/// bound by at most the few samples delivered while the recorder stopped. Attempts whose file is missing or empty,
/// or ends before the stimulus, have no reaction time (with a warning). Failed attempts (false starts, timeouts)
/// leave no result in ResearchKit, so they cannot be counted. Definitions: `docs/active-tasks.md`.
enum ReactionTimeAnalysis: ScoredTaskAnalysis {
    /// Reaction-time steps.
    public static let kinds: [TaskKind] = [.reactionTime]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no reaction-time result (ORKReactionTimeResult) to score"
    /// The attempts' class.
    public static let classNames = ["ORKReactionTimeResult"]
    /// The predefined task's active step.
    public static let stepIdentifiers = ["reactionTime"]

    /// One result per step, each attempt's reaction time read from its device-motion file.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [ScoredTaskResult] {
        // The device-motion samples of each recorded file, by file name.
        var lastSample: [String: Double] = [:]
        for recording in input.recordings {
            guard case .deviceMotion(let cleaned) = recording.data else { continue }
            lastSample[(recording.file as NSString).lastPathComponent] = cleaned.log.timestamp.last
        }
        return analyzeSteps(input) { objects, warnings in scores(objects, lastSample: lastSample, warnings: &warnings) }
    }

    /// Without the recordings (``analyze(_:options:)`` passes them): every attempt lacks its file.
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        scores(objects, lastSample: [:], warnings: &warnings)
    }

    static func scores(_ objects: [ScoredFields], lastSample: [String: Double], warnings: inout [String]) -> [TaskScore] {
        var times: [Double] = []
        var missing = 0
        for o in objects {
            guard let stimulus = o.number("timestamp", &warnings) else {
                missing += 1
                continue
            }
            let names = o.objects("fileResults", &warnings).compactMap { $0.string("fileName", &warnings) }
            guard let last = names.lazy.compactMap({ lastSample[$0] }).first else {
                missing += 1
                continue
            }
            guard last >= stimulus else {
                warnings.append("\(o.path): its motion recording ends before the stimulus; no reaction time")
                missing += 1
                continue
            }
            times.append(last - stimulus)
        }
        if missing > 0 {
            warnings.append(
                "\(missing) of \(objects.count) attempts have no reaction time (no stimulus timestamp or no device-motion "
                    + "file beside the result)")
        }
        return [
            TaskScore("attempts", Double(objects.count), "count"),
            TaskScore("timedAttempts", Double(times.count), "count"),
            TaskScore("meanReactionTime", ScoreStatistics.mean(times), "s"),
            TaskScore("medianReactionTime", ScoreStatistics.median(times), "s"),
            TaskScore("sdReactionTime", ScoreStatistics.sd(times), "s"),
            TaskScore("minimumReactionTime", times.min(), "s"),
            TaskScore("maximumReactionTime", times.max(), "s"),
        ]
    }
}

extension ReactionTimeAnalysis {
    /// The study tables' measures: mean reaction time.
    public static let studyMeasures: [StudyMeasure] = [StudyMeasure("meanReactionTime", unit: "s")]
}
