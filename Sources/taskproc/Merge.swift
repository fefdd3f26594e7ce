import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// `taskproc merge SHARD_DIR… -o DIR`: combine the outputs of `batch --shard K/N` runs.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Combine the output folders of `taskproc batch --shard K/N` runs into one run's outputs.",
        discussion: """
            Every shard 1 to N must be given once, complete, with the same inputs and options. The merged folder \
            holds exactly what one unsharded run would have written (the SQLite run_log lists every shard's events). \
            The output folder may not be, or be inside, a shard folder.

            \(ExitStatus.help)
            """)

    @Argument(help: "The shards' output folders.", completion: .directory)
    var shards: [String]

    @OptionGroup(title: "Output") var outputFolder: OutputFolderOption

    /// The output folder (`-o/--output`, or the older `--out`).
    var out: String { outputFolder.path }

    @Flag(help: "Replace earlier batch outputs in --output.")
    var force = false

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func validate() throws {
        if shards.isEmpty { throw ValidationError("give the shard output folders to merge") }
    }

    func run() throws {
        for shard in shards where !FileManager.default.fileExists(atPath: shard) { throw CommandFailure.noInput(shard) }
        let summary: BatchMerge.Summary
        do {
            summary = try BatchMerge.merge(shardFolders: shards, into: out, force: force)
        } catch let error as BatchError {
            throw CommandFailure(error)
        }
        let text =
            "taskproc merge: \(shards.count) shards, \(summary.records) records: \(summary.counts.succeeded) analysed, "
            + "\(summary.counts.failed) failed; outputs in \(out)\n"
        Diagnostics.detail("taskproc merge: shard folders: " + shards.joined(separator: " "))
        if let note = summary.lockNote { Diagnostics.note("taskproc merge: warning: " + note) }
        Diagnostics.note(text)
        Batch.warnUndocumented(summary.counts, command: "merge", out: out)
    }
}
