import ArgumentParser
import Foundation
import StudyBatch

/// `taskproc summarize OUT`: write a finished batch run's outputs again from its journal.
struct Summarize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a finished batch run's outputs again from its journal, without analysing anything.",
        discussion: """
            Rebuilds the per-kind CSVs, the study tables (participant_day.csv, participant_week.csv, \
            surveys_wide.csv, adherence.csv), columns.csv, results.jsonl, errors.jsonl and taskproc.sqlite of the \
            run in OUT as this version writes them: a run of an earlier version gets the newer columns and tables. \
            The run must be complete (finish it with `taskproc batch --resume -o OUT`).

            \(ExitStatus.help)
            """)

    @Argument(help: "The output folder of a finished `taskproc batch` or `taskproc merge`.", completion: .directory)
    var folder: String

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func run() throws {
        let counts: BatchOutputs.Counts
        do { counts = try BatchSummarize.summarize(folder: folder) } catch let error as BatchError {
            throw CommandFailure(error)
        }
        Diagnostics.note(
            "taskproc summarize: \(counts.succeeded) analysed, \(counts.failed) failed records; outputs in \(folder)\n")
        Batch.warnUndocumented(counts, command: "summarize", out: folder)
    }
}
