import Foundation
import StudyInputs

extension TaskKind {
    /// Normalized reaction time (`ORKNormalizedReactionTimeResult`: hold a button, release it and tap the stimulus).
    public static let normalizedReactionTime = TaskKind("normalizedReactionTime")
}

/// Normalized reaction time (`ORKNormalizedReactionTimeResult`, one object per attempt): the participant holds a
/// button, releases it when the stimulus appears and taps the stimulus.
///
/// ResearchKit's step view controller records four wall-clock dates per attempt: `stimulusStartDate` (the stimulus
/// appeared, after a random wait of 2, 4 or 6 s written as `currentInterval`), `timerStartDate` (the button was
/// released after the stimulus), `reactionDate` (the stimulus was tapped) and `timerEndDate` (the attempt ended).
/// It computes no measure of its own: "normalized" is the procedure (every response starts from the same held
/// button). The scores here are the differences of those dates:
///
/// - **reaction time** `reactionDate − stimulusStartDate` (s), over valid attempts (both dates, not backwards);
/// - **release time** `timerStartDate − stimulusStartDate` (s): the lift-off latency;
/// - **movement time** `reactionDate − timerStartDate` (s): from the release to the tap.
///
/// An attempt without `stimulusStartDate` is a false start (the button released, or the screen tapped, before the
/// stimulus); one with the stimulus but no `reactionDate` timed out. ResearchKit's serializer writes dates in whole
/// seconds, so when every time is a whole number of seconds a warning says their resolution is 1 s. Definitions:
/// `docs/active-tasks.md`.
enum NormalizedReactionTimeAnalysis: ScoredTaskAnalysis {
    /// Normalized reaction-time steps.
    public static let kinds: [TaskKind] = [.normalizedReactionTime]
    /// Why an input gave no result.
    public static let nothingToAnalyse = "no normalized reaction-time result (ORKNormalizedReactionTimeResult) to score"
    /// The attempts' class.
    public static let classNames = ["ORKNormalizedReactionTimeResult"]
    // No stepIdentifiers: ResearchKit's predefined task names its step `reactionTime`, as the reaction-time task
    // does, so an empty step cannot be told apart and is left to ReactionTimeAnalysis.

    /// The scores of one step's attempts.
    public static func scores(_ objects: [ScoredFields], warnings: inout [String]) -> [TaskScore] {
        var reactionTimes: [Double] = []
        var releaseTimes: [Double] = []
        var movementTimes: [Double] = []
        var falseStarts = 0
        var timeouts = 0
        for o in objects {
            let stimulus = o.date("stimulusStartDate", &warnings)
            let release = o.date("timerStartDate", &warnings)
            let reaction = o.date("reactionDate", &warnings)
            guard let stimulus else {
                falseStarts += 1
                continue
            }
            guard let reaction else {
                timeouts += 1
                continue
            }
            let rt = reaction.timeIntervalSince1970 - stimulus.timeIntervalSince1970
            guard rt >= 0 else {
                warnings.append("\(o.path): reactionDate is before stimulusStartDate; no reaction time")
                continue
            }
            reactionTimes.append(rt)
            guard let release else { continue }
            let lift = release.timeIntervalSince1970 - stimulus.timeIntervalSince1970
            let move = reaction.timeIntervalSince1970 - release.timeIntervalSince1970
            if lift >= 0 && move >= 0 {
                releaseTimes.append(lift)
                movementTimes.append(move)
            } else {
                warnings.append(
                    "\(o.path): timerStartDate (the release) is not between stimulusStartDate and reactionDate; "
                        + "no release or movement time")
            }
        }
        let valid = reactionTimes.count
        if valid < objects.count {
            warnings.append(
                "\(objects.count - valid) of \(objects.count) attempts have no reaction time (false starts: "
                    + "\(falseStarts), timeouts: \(timeouts))")
        }
        let times = reactionTimes + releaseTimes + movementTimes
        if !times.isEmpty && times.allSatisfy({ $0 == $0.rounded() }) {
            warnings.append(
                "every time is a whole number of seconds: the dates have 1 s resolution (ResearchKit's serializer "
                    + "writes whole seconds), so each time is uncertain by up to 1 s")
        }
        return [
            TaskScore("attempts", Double(objects.count), "count"),
            TaskScore("validAttempts", Double(valid), "count"),
            TaskScore("falseStarts", Double(falseStarts), "count"),
            TaskScore("timeouts", Double(timeouts), "count"),
            TaskScore("meanReactionTime", ScoreStatistics.mean(reactionTimes), "s"),
            TaskScore("medianReactionTime", ScoreStatistics.median(reactionTimes), "s"),
            TaskScore("sdReactionTime", ScoreStatistics.sd(reactionTimes), "s"),
            TaskScore("minimumReactionTime", reactionTimes.min(), "s"),
            TaskScore("maximumReactionTime", reactionTimes.max(), "s"),
            TaskScore("meanReleaseTime", ScoreStatistics.mean(releaseTimes), "s"),
            TaskScore("meanMovementTime", ScoreStatistics.mean(movementTimes), "s"),
        ]
    }
}

extension NormalizedReactionTimeAnalysis {
    /// The study tables' measures: mean reaction time.
    public static let studyMeasures: [StudyMeasure] = [StudyMeasure("meanReactionTime", unit: "s")]
}
