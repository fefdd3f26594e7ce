import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much taskproc says on standard error (data never goes there).
enum Verbosity: Int, Sendable, Comparable {
    /// Errors only: no progress bar, warnings, notes or summaries.
    case quiet = 0
    /// Errors, warnings and the one-line summaries (the default).
    case normal = 1
    /// Also what each input was read as, per-record failures as they happen, and timings.
    case verbose = 2

    static func < (a: Verbosity, b: Verbosity) -> Bool { a.rawValue < b.rawValue }
}

/// `-q/--quiet` and `-v/--verbose`: every command has them (``TaskprocCommand/execute()`` applies them).
struct VerbosityOptions: ParsableArguments {
    @Flag(
        name: [.customShort("q"), .long],
        help: "Print only errors on standard error: no progress, warnings or summaries.")
    var quiet = false

    @Flag(
        name: [.customShort("v"), .long],
        help: "Print more on standard error: what each input was read as, each failure as it happens, timings.")
    var verbose = false

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other") }
    }

    /// The level the flags ask for.
    var level: Verbosity { quiet ? .quiet : verbose ? .verbose : .normal }
}

/// A command with the `--quiet`/`--verbose` options.
protocol VerbosityControlled {
    /// The command's `--quiet`/`--verbose` flags.
    var diagnostics: VerbosityOptions { get }
}

/// Diagnostics on standard error at the chosen ``Verbosity``.
///
/// Errors always go out (``printError(_:)``).
enum Diagnostics {
    private static let current = Atomic<Int>(Verbosity.normal.rawValue)

    /// The level in force (set once, before the command runs).
    static var verbosity: Verbosity {
        get { Verbosity(rawValue: current.load(ordering: .relaxed)) ?? .normal }
        set { current.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// A warning or summary: printed unless `--quiet`.
    static func note(_ text: String) {
        if verbosity >= .normal { printError(text) }
    }

    /// Extra detail: printed only with `--verbose`.
    static func detail(_ text: String) {
        if verbosity >= .verbose { printError(text) }
    }
}

/// What standard error can show: animation (a redrawn progress line) and colour.
enum Terminal {
    /// True when standard error is a terminal that understands carriage returns and control sequences (not
    /// `TERM=dumb`): only then is the progress bar drawn.
    static var standardErrorIsInteractive: Bool {
        isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// True when standard error may be coloured: an interactive terminal and `NO_COLOR` unset or empty
    /// (https://no-color.org).
    static var standardErrorHasColor: Bool {
        standardErrorIsInteractive && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// An SGR colour code (`ESC [ code m`).
    enum Color: String {
        /// Bold red: errors and failures.
        case red = "1;31"
    }

    /// `text` in `color` when standard error takes colour, else `text` unchanged.
    static func colored(_ text: String, _ color: Color) -> String {
        standardErrorHasColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}

extension Analyze: VerbosityControlled {}
extension Inspect: VerbosityControlled {}
extension Batch: VerbosityControlled {}
extension Merge: VerbosityControlled {}
extension Summarize: VerbosityControlled {}
extension Synth: VerbosityControlled {}
extension AudiometrySimulate: VerbosityControlled {}
extension Report: VerbosityControlled {}
