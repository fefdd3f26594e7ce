import ActiveTasks
import ArgumentParser
import Foundation

/// `--format`, `--output` and `--force`, shared by every command that prints a result.
struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output format: json (default), table or csv.")
    var format: OutputFormat = .json

    @Option(
        name: .shortAndLong, help: "Write the result to this file instead of standard output (never overwrites; see --force).")
    var output: String?

    @Flag(help: "Overwrite the --output file if it exists.")
    var force = false

    /// Renders `result` in the chosen format and writes it.
    func emit(_ result: some RenderableResult) throws {
        try OutputWriter.write(try ResultEncoding.render(result, as: format), to: output, force: force)
    }
}

/// Writes command output to standard output or, atomically, to a file.
enum OutputWriter {
    /// Writes `text` to `path` (atomically, refusing to replace an existing file unless `force`),
    /// or to standard output when `path` is nil.
    static func write(_ text: String, to path: String?, force: Bool) throws {
        guard let path else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        if !force && FileManager.default.fileExists(atPath: path) {
            throw ValidationError("\(path) exists; pass --force to overwrite it")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
