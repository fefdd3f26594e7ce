import ActiveTasks
import ArgumentParser
import SensorSignal

/// The root command: dispatches to subcommands.
struct TaskprocCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskproc",
        abstract: "Turn raw ResearchKit active-task results into validated, summarised step results.",
        discussion: """
            Reads audio recordings (WAV, FLAC, OGG, AIFF, CAF, RF64, W64, … through libsndfile) and, as \
            later versions add them, ResearchKit result JSON, recorder logs, mPower files and CSV.
            """,
        version: "taskproc \(taskprocVersion) (\(fftwVersion), \(libsndfileVersion))",
        subcommands: [Analyze.self, Inspect.self, Batch.self, Merge.self, Synth.self, Audiometry.self]
    )
}
