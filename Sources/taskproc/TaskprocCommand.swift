import ActiveTasks
import ArgumentParser
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

/// The root command: dispatches to subcommands.
struct TaskprocCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskproc",
        abstract: "Turn raw ResearchKit active-task results into validated, summarised step results.",
        discussion: """
            Reads ResearchKit result JSON and task folders, recorder logs, mPower, MyDataHelps and mhealthtools \
            files, accelerometer CSV and audio recordings (WAV, FLAC, OGG, AIFF, CAF, RF64, W64, ... through \
            libsndfile; m4a/AAC/ALAC through ffmpeg). `analyze` handles one input of any of the \
            \(AnalysisRegistry.taskKinds.count) task kinds (\(AnalysisRegistry.taskKinds.map(\.rawValue).joined(separator: ", "))); \
            `batch` a whole export (folders and .zip files) into JSONL, CSV and SQLite \
            tables, resumable, shardable (`merge`) and consent-aware. `--format researchkit|mork|fhir` hands \
            results to study systems; `report` draws them as a self-contained HTML page.

            Every command takes -q/--quiet (only errors on standard error) and -v/--verbose. The progress bar and \
            colour appear only when standard error is a terminal (not TERM=dumb); NO_COLOR (any non-empty value) \
            turns colour off. Shell completions: `taskproc --generate-completion-script bash|zsh|fish` prints the \
            script (`make install` installs all three and the man page).
            """,
        version: "taskproc \(taskprocVersion) (\(fftwVersion), \(libsndfileVersion))",
        subcommands: [
            Analyze.self, Inspect.self, Batch.self, Merge.self, Summarize.self, Synth.self, Audiometry.self,
            Report.self,
        ]
    )

    /// Parses the command line and runs the command; a ``CommandFailure`` exits with its own status and no
    /// usage banner, other errors as ArgumentParser reports them (usage errors 64).
    static func execute() async {
        var failure: (any Error)?
        do {
            var command = try parseAsRoot()
            if let controlled = command as? any VerbosityControlled {
                Diagnostics.verbosity = controlled.diagnostics.level
            }
            do {
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            } catch {
                failure = CommandFailure.translating(error)
            }
        } catch {
            failure = error
        }
        // Archives `analyze` and `inspect` extracted are removed whatever the outcome (exit does not unwind).
        InputLoader.removeExtractedArchives()
        if let failure = failure as? CommandFailure {
            printError(
                "taskproc: " + Terminal.colored("error:", .red) + " " + TerminalText.visible(failure.message), raw: true
            )
            Foundation.exit(failure.status)
        }
        if let failure { exit(withError: failure) }
    }
}
