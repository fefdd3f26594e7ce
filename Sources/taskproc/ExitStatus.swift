import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// taskproc's exit statuses (sysexits.h numbers), the same for every command; documented in `--help` and the
/// README. 0 is success and 64 (usage) is ArgumentParser's own.
enum ExitStatus {
    /// Partial: some inputs or records could not be read or analysed; the results of the rest were written.
    static let partial: Int32 = 2
    /// Data error: the input is unreadable or invalid, or nothing in it could be analysed.
    static let dataError: Int32 = 65
    /// An input file or folder does not exist.
    static let noInput: Int32 = 66
    /// An output cannot be created (it exists without `--force`, or its folder cannot be made).
    static let cannotCreate: Int32 = 73
    /// An I/O error while reading or writing.
    static let ioError: Int32 = 74

    /// The table printed in `--help` texts.
    static let help = """
        Exit status: 0 success; 2 partial (some inputs or records unreadable, the rest written); 64 usage error; \
        65 data error (unreadable or invalid input, nothing to analyse); 66 input missing; 73 cannot create output; \
        74 I/O error.
        """
}

/// A command failure with its exit status: printed as `taskproc: error: MESSAGE` (no usage banner) and the
/// process exits with ``status``.
struct CommandFailure: Error, CustomStringConvertible {
    /// The exit status (see ``ExitStatus``).
    var status: Int32
    /// One line (or a few) saying what failed, naming the file.
    var message: String

    var description: String { message }

    /// A data error (65).
    static func data(_ message: String) -> CommandFailure { CommandFailure(status: ExitStatus.dataError, message: message) }
    /// A missing input (66).
    static func noInput(_ path: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.noInput, message: "\(path): no such file or folder")
    }
    /// An output that cannot be created (73).
    static func cannotCreate(_ message: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.cannotCreate, message: message)
    }
    /// An I/O error (74).
    static func io(_ message: String) -> CommandFailure { CommandFailure(status: ExitStatus.ioError, message: message) }
}

/// Writes one diagnostic line to standard error, ignoring a closed or full stream (there is nowhere left to say so).
func printError(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
}

extension CommandFailure {
    /// The exit status of a batch or merge failure.
    init(_ error: BatchError) {
        switch error.kind {
        case .noInput: self.init(status: ExitStatus.noInput, message: error.message)
        case .invalid: self.init(status: ExitStatus.dataError, message: error.message)
        case .cannotCreate: self.init(status: ExitStatus.cannotCreate, message: error.message)
        case .io: self.init(status: ExitStatus.ioError, message: error.message)
        }
    }
}

extension StandardInput {
    /// `path`, or for `-` the file standard input was saved to (a data error when it cannot be read).
    static func localPath(_ path: String) throws -> String {
        guard path == "-" else { return path }
        do throws(InputError) { return try save(from: FileHandle.standardInput) } catch {
            throw CommandFailure.data(InputProblem(error).description)
        }
    }
}
