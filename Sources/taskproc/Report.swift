import ActiveTasks
import Archives
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// `taskproc report RESULTS`: a self-contained HTML page of results.
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a self-contained HTML report (inline SVG plots, no external assets) of taskproc results.",
        discussion: """
            RESULTS is an `analyze --format json` file, a batch results.jsonl, or a batch output folder. Per record: \
            the key numbers and plots (audiogram, sound level history with the threshold, walking signal with the \
            detected steps and the cadence over time, tap timeline and inter-tap-interval histogram); for several \
            records, a study overview.
            """)

    @Argument(help: "The results to report on.", completion: .file())
    var results: String

    @Option(name: .shortAndLong, help: "The HTML file to write (never overwrites; see --force).")
    var output: String

    @Flag(help: "Overwrite the --output file if it exists.")
    var force = false

    @Option(help: "The page title.")
    var title = "taskproc report"

    @Flag(help: "Do not re-read source recordings (walking signal and tap plots need them).")
    var noSources = false

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func run() async throws {
        guard FileManager.default.fileExists(atPath: results) else { throw CommandFailure.noInput(results) }
        // One writer per output: a second report to the same file is refused while this one runs.
        let target = OutputTarget(path: output)
        if !force && target.exists {
            throw CommandFailure.cannotCreate("\(output) exists; pass --force to overwrite it")
        }
        let lock =
            target.isSpecial || target.isDirectory
            ? nil : try OutputLock.acquire(forFile: output, command: "taskproc report")
        defer { lock?.release() }
        if let note = lock?.takeoverNote { Diagnostics.note("taskproc report: warning: " + note) }
        // Streamed: the records are read twice, line by line, and the page written as it is made.
        let summary = try OutputWriter.stream(to: output, force: force) { write in
            do {
                return try HTMLReport.render(path: results, title: title, readSources: !noSources, into: write)
            } catch let error as ExportError {
                throw CommandFailure.data(error.description)
            }
        }
        Diagnostics.note("taskproc: report of \(summary.records) record(s) written to \(output)")
        Diagnostics.detail(
            "taskproc report: records by kind: "
                + summary.byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "; \(summary.bytes) bytes")
    }
}
