import ActiveTasks
import Archives
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
    static func data(_ message: String) -> CommandFailure {
        CommandFailure(status: ExitStatus.dataError, message: message)
    }
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
/// Control characters in it (from file names and cells of inputs) are escaped unless `raw` (taskproc's own colour).
func printError(_ text: String, raw: Bool = false) {
    // A safety net: no line of input quoted at length (a 20 MB class name) floods the terminal.
    let short = text.utf8.count > 8_000 ? String(text.prefix(4_000)) + "… (\(text.utf8.count) bytes in all)\n" : text
    let safe = raw ? short : TerminalText.visible(short)
    let line = safe.hasSuffix("\n") ? safe : safe + "\n"
    try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
}

extension CommandFailure {
    /// An error a command's `run()` threw, as the failure it means: ArgumentParser's own (usage, exit codes) and
    /// ``CommandFailure`` unchanged; a batch error, a file failure or a Foundation file error with its exit status
    /// and the operating system's reason in words (never an `NSError` dump, never exit 1).
    static func translating(_ error: any Error) -> any Error {
        switch error {
        case is CommandFailure, is ExitCode, is ValidationError, is CleanExit: return error
        case let error as BatchError: return CommandFailure(error)
        case let failure as FileFailure:
            return CommandFailure(
                status: failure.category == .cannotCreate ? ExitStatus.cannotCreate : ExitStatus.ioError,
                message: failure.description)
        case let refusal as OutputLock.Refusal: return CommandFailure(BatchError(refusal))
        case is DecodingError: return CommandFailure.data("unreadable data: \(error)")
        default:
            // Foundation's file errors; anything else (ArgumentParser's own help and usage errors) is left alone.
            let domain = (error as NSError).domain
            guard domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain, let code = FileFailure.errno(of: error)
            else { return error }
            let failure = FileFailure(path: "(a file)", operation: .write, errno: code)
            return CommandFailure(
                status: failure.category == .cannotCreate ? ExitStatus.cannotCreate : ExitStatus.ioError,
                message: failure.reason + ((error as NSError).userInfo[NSFilePathErrorKey].map { ": \($0)" } ?? ""))
        }
    }

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
