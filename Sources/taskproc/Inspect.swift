import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// `taskproc inspect PATH`: what an input is and everything wrong with it.
struct Inspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a file or folder: dialect, task, steps, recorders, samples, rates, units and every problem.",
        discussion: """
            Recognises ResearchKit result JSON, recorder logs ({"items":[...]}), ResearchKit task folders (recorder \
            files matched by fileName anywhere below), Bridge/mPower column files, MyDataHelps exports, mhealthtools \
            tables, accelerometer CSV (optionally gzipped) and audio files. Exits non-zero when any part could not \
            be read; the good parts are still reported.

            \(ExitStatus.help)
            """)

    @Argument(help: "File or folder to inspect (- reads standard input).", completion: .file())
    var path: String

    @Option(name: .shortAndLong, help: "Output format: json, table or csv.")
    var format = InspectFormat(.json)

    @OptionGroup(title: "Output")
    var destination: OutputDestination

    @OptionGroup(title: "Accelerometer CSV")
    var csv: CSVInputOptions

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func run() async throws {
        let path = try StandardInput.localPath(self.path)
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.noInput(path) }
        let input: LoadedInput
        do throws(InputError) { input = try AnalysisRegistry.load(path: path, options: csv.loaderOptions) } catch {
            throw CommandFailure.data(InputProblem(error).description)
        }
        let inspection = InputInspection(input)
        Diagnostics.detail(
            "taskproc inspect: \(path): read as \(input.dialect.rawValue) (\(input.taskKind.rawValue)); "
                + "\(inspection.errorCount) unreadable part(s)")
        let text: String
        do { text = try ResultEncoding.render(inspection, as: format.outputFormat, export: ExportOptions()) } catch {
            throw CommandFailure.data("\(error)")
        }
        // Inputs read from a ZIP archive are named `archive.zip!/entry`, never by the temporary extraction folder.
        let json = format.outputFormat == .json
        try destination.write(PathRename.apply(input.archiveRenames, to: text, json: json))
        if inspection.errorCount > 0 {
            printError("taskproc: \(inspection.errorCount) part(s) of \(path) could not be read; see problems")
            throw ExitCode(ExitStatus.partial)
        }
    }
}
