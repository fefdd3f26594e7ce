import ActiveTasks
import ArgumentParser
import Foundation

/// `--format`, `--output` and `--force`, shared by every command that prints a result.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: "Output format: json (default), table, csv, or an export: researchkit (ORKStepResult JSON), mork (Medidata Rave form_data) or fhir (FHIR R4 Bundle).")
    var format: OutputFormat = .json

    @Option(help: "For --format mork: a JSON file with the form_data envelope and item-OID overrides (see README).")
    var morkConfig: String?

    @Option(help: "Participant identifier for the export formats (default: from the input, e.g. a MyDataHelps path).")
    var participant: String?

    @Option(
        name: .shortAndLong, help: "Write the result to this file instead of standard output (never overwrites; see --force).")
    var output: String?

    @Flag(help: "Overwrite the --output file if it exists.")
    var force = false

    func validate() throws {
        if morkConfig != nil && format != .mork { throw ValidationError("--mork-config applies to --format mork only") }
    }

    /// Renders `result` in the chosen format and writes it; `input` gives the export formats their dates,
    /// identifiers and participant.
    func emit(_ result: some RenderableResult, input: LoadedInput? = nil) throws {
        let export = ExportOptions(context: input.map { ExportContext(input: $0) } ?? ExportContext())
        if let participant { export.context.participant = participant }
        if format == .mork, let morkConfig {
            do { export.mork = try MORKExport.Configuration(file: morkConfig) } catch let error as ExportError {
                throw CommandFailure.data(error.description)
            }
        }
        let text: String
        do { text = try ResultEncoding.render(result, as: format, export: export) } catch let error as ExportError {
            throw CommandFailure.data(error.description)
        }
        try OutputWriter.write(text, to: output, force: force)
        for note in export.notes {
            printError("taskproc: \(format.rawValue): \(note)")
        }
    }
}

/// Writes command output to standard output or, atomically, to a file.
enum OutputWriter {
    /// Writes `text` to `path` (atomically, refusing to replace an existing file unless `force`),
    /// or to standard output when `path` is nil.
    static func write(_ text: String, to path: String?, force: Bool) throws {
        guard let path else {
            do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch {
                throw CommandFailure.io("cannot write standard output: \(Self.reason(error))")
            }
            return
        }
        if !force && FileManager.default.fileExists(atPath: path) {
            throw CommandFailure.cannotCreate("\(path) exists; pass --force to overwrite it")
        }
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw CommandFailure.cannotCreate("\(path): cannot write: \(Self.reason(error))")
        }
    }

    /// The operating system's reason for a file error (`No space left on device`), without Foundation's wrapping.
    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(truncatingIfNeeded: ns.code))) }
        return ns.localizedDescription
    }
}
