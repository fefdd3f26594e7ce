import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

@testable import taskproc

/// `-q/--quiet` and `-v/--verbose` on every command, and the progress bar's text (issue 20, item 4).
@Suite struct VerbosityParsingTests {
    /// Every command that runs (no subcommands of its own), found by walking the command tree.
    static func leaves(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        let children = command.configuration.subcommands
        return children.isEmpty ? [command] : children.flatMap { leaves($0) }
    }

    @Test func everyCommandTakesQuietAndVerbose() throws {
        let leaves = Self.leaves(TaskprocCommand.self)
        #expect(leaves.count == 8)
        for leaf in leaves {
            let help = TaskprocCommand.helpMessage(for: leaf, columns: 200)
            #expect(help.contains("-q, --quiet") && help.contains("-v, --verbose"), "\(leaf): \(help)")
            #expect((leaf as? any VerbosityControlled.Type) != nil, "\(leaf) does not apply --quiet/--verbose")
        }
    }

    @Test func flagsGiveTheLevelAndContradictEachOther() throws {
        #expect(try Synth.parse(["a.wav"]).diagnostics.level == .normal)
        #expect(try Synth.parse(["a.wav", "-q"]).diagnostics.level == .quiet)
        #expect(try Synth.parse(["a.wav", "--quiet"]).diagnostics.level == .quiet)
        #expect(try Batch.parse(["e", "-o", "r", "-v"]).diagnostics.level == .verbose)
        #expect(try Merge.parse(["s1", "-o", "r", "--verbose"]).diagnostics.level == .verbose)
        #expect(throws: (any Error).self) { try Report.parse(["r", "-o", "x.html", "-q", "-v"]) }
        // The older flags keep working beside them.
        let batch = try Batch.parse(["e", "--out", "r", "--no-progress", "--quiet"])
        #expect(batch.noProgress && batch.diagnostics.quiet)
    }

    @Test func theRootHelpDocumentsCompletionsQuietAndNoColor() {
        let help = TaskprocCommand.helpMessage(columns: 200)
        for text in ["--generate-completion-script bash|zsh|fish", "-q/--quiet", "NO_COLOR", "make install"] {
            #expect(help.contains(text), "\(text)")
        }
    }
}

@Suite struct BatchProgressLineTests {
    typealias State = BatchRunner.ProgressState

    @Test func discoveryShowsWhatWasFoundWithoutPercentageOrETA() {
        let line = BatchProgressBar.line(State(found: 1234, done: 456, failed: 3), rate: 120, color: false)
        #expect(line == "\r\u{1B}[Kfound 1234 records… 456 done, 3 failed, 120 records/s")
        #expect(!line.contains("%") && !line.contains("ETA"))
        let none = BatchProgressBar.line(State(found: 7, done: 0), rate: 0, color: false)
        #expect(none == "\r\u{1B}[Kfound 7 records… 0 done, 0 records/s")
    }

    /// With the census's estimate: the estimated total and an ETA from it, both marked `~`.
    @Test func discoveryWithAnEstimateShowsTheEstimatedTotalAndETA() {
        var state = State(found: 1234, done: 456, failed: 3)
        state.estimatedTotal = 9800
        let line = BatchProgressBar.line(state, rate: 120, color: false)
        // (9800 − 456) / 120 = 77.9 s, rounded up.
        #expect(line == "\r\u{1B}[Kfound 1234 of ~9800 records… 456 done, 3 failed, 120 records/s ETA ~1:18")
        #expect(BatchProgressBar.line(state, rate: 0, color: false).hasSuffix("ETA ~--:--"))
    }

    @Test func onceEverythingIsFoundItShowsPercentageETAAndFailures() {
        let line = BatchProgressBar.line(
            State(found: 1000, done: 250, failed: 2, discoveryComplete: true), rate: 50, color: false)
        #expect(line == "\r\u{1B}[K250/1000 [=======                       ]  25% 50 records/s ETA 0:15, 2 failed")
        // 99.9 % is not shown as 100 %; only the end is.
        let almost = BatchProgressBar.line(
            State(found: 1000, done: 999, discoveryComplete: true), rate: 10, color: false)
        #expect(almost.contains(" 99% ") && almost.hasSuffix("ETA 0:01"))
        let end = BatchProgressBar.line(State(found: 1000, done: 1000, discoveryComplete: true), rate: 0, color: false)
        #expect(end.contains("[==============================] 100% ") && end.hasSuffix("ETA 0:00"))
        let unknownRate = BatchProgressBar.line(
            State(found: 10, done: 0, discoveryComplete: true), rate: 0, color: false)
        #expect(unknownRate.hasSuffix("ETA --:--"))
    }

    @Test func failuresAreRedOnlyWithColour() {
        let state = State(found: 10, done: 5, failed: 2, discoveryComplete: true)
        #expect(BatchProgressBar.line(state, rate: 1, color: true).hasSuffix(", \u{1B}[1;31m2 failed\u{1B}[0m"))
        #expect(!BatchProgressBar.line(state, rate: 1, color: false).contains("\u{1B}[1"))
        // No failures: nothing red even with colour.
        let clean = State(found: 10, done: 5, discoveryComplete: true)
        #expect(!BatchProgressBar.line(clean, rate: 1, color: true).contains("\u{1B}[1"))
    }
}

/// The built binary under a pseudo-terminal (util-linux `script`) and on pipes: colour, `NO_COLOR`, `TERM=dumb`,
/// the progress bar's two phases, and what `--quiet` / `--verbose` print.
@Suite(.serialized) struct TerminalOutputEndToEndTests {
    static let escape = "\u{1B}"
    static let red = "\u{1B}[1;31m"

    func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs taskproc on a terminal: the status and everything the terminal received (stdout and stderr).
    func runOnTerminal(_ arguments: [String], environment: [String]) throws -> (status: Int32, output: String) {
        let command = ([CommandLineEndToEndTests.binary.path] + arguments).map(quoted).joined(separator: " ")
        let r = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["-u", "NO_COLOR", "TERM=xterm"] + environment + ["script", "-qec", command, "/dev/null"],
            standardInput: "/dev/null")
        return (r.status, r.stdout)
    }

    func run(_ arguments: [String]) throws -> ProcessOutput {
        try runProcess(CommandLineEndToEndTests.binary, arguments, standardInput: "/dev/null")
    }

    @Test func errorsAreRedOnATerminalUnlessNoColorOrDumb() throws {
        let missing = "/nonexistent/taskproc-\(UUID().uuidString).wav"
        let coloured = try runOnTerminal(["analyze", missing], environment: [])
        #expect(coloured.status == ExpectedExit.missingInput)
        #expect(
            coloured.output.contains("taskproc: \(Self.red)error:\u{1B}[0m \(missing): no such file"),
            "\(coloured.output)")
        for environment in [["NO_COLOR=1"], ["NO_COLOR=anything"], ["TERM=dumb"]] {
            let plain = try runOnTerminal(["analyze", missing], environment: environment)
            #expect(plain.status == ExpectedExit.missingInput)
            #expect(plain.output.contains("taskproc: error: \(missing): no such file"), "\(environment)")
            #expect(!plain.output.contains(Self.escape), "\(environment): \(plain.output)")
        }
        // An empty NO_COLOR does not count (no-color.org).
        #expect(try runOnTerminal(["analyze", missing], environment: ["NO_COLOR="]).output.contains(Self.red))
        let piped = try run(["analyze", missing])
        #expect(piped.stderr == "taskproc: error: \(missing): no such file or folder\n")
    }

    @Test func theProgressBarShowsDiscoveryAndFailuresOnATerminalOnly() throws {
        let dir = try E2E.temporaryDirectory("progress")
        defer { E2E.remove(dir) }
        let export = dir.path + "/export"
        let generated = try generateStudyExport(at: export, records: 40, seed: 5)
        try #require(generated.status == 0, "\(generated.output)")

        let tty = try runOnTerminal(["batch", export, "-o", dir.path + "/a", "--jobs", "1"], environment: [])
        #expect(tty.status == ExpectedExit.batchPartial, "\(tty.output)")  // the generated export has broken records
        #expect(tty.output.contains("\r\u{1B}[Kfound "), "no discovery phase: \(tty.output)")
        #expect(tty.output.contains("] 100% "), "\(tty.output)")
        #expect(tty.output.contains("\(Self.red)"), "failures are not counted in red: \(tty.output)")
        let redraws = tty.output.components(separatedBy: "\r\u{1B}[K").dropFirst()
        // While discovering: no percentage; an ETA only with the census's estimated total, both marked `~`.
        for line in redraws where line.hasPrefix("found ") {
            #expect(!line.contains("%"), "\(line)")
            #expect(line.contains(" of ~") == line.contains("ETA ~"), "\(line)")
            #expect(!line.contains("ETA") || line.contains("ETA ~"), "\(line)")
        }

        let noColor = try runOnTerminal(["batch", export, "-o", dir.path + "/b"], environment: ["NO_COLOR=1"])
        #expect(noColor.status == ExpectedExit.batchPartial)
        #expect(noColor.output.contains("] 100% ") && noColor.output.contains(" failed"), "\(noColor.output)")
        #expect(!noColor.output.contains("\u{1B}[1"), "colour despite NO_COLOR: \(noColor.output)")

        let quiet = try runOnTerminal(["batch", export, "-o", dir.path + "/c", "--quiet"], environment: [])
        #expect(quiet.status == ExpectedExit.batchPartial)
        #expect(!quiet.output.contains("found ") && !quiet.output.contains("%"), "\(quiet.output)")

        for environment in [["TERM=dumb"]] {
            let dumb = try runOnTerminal(["batch", export, "-o", dir.path + "/d"], environment: environment)
            // The terminal turns each newline into CR LF; any other CR would be a redraw.
            let redraws = dumb.output.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(!redraws.contains("\r") && !dumb.output.contains(Self.escape), "\(dumb.output)")
        }
        let piped = try run(["batch", export, "-o", dir.path + "/e"])
        #expect(piped.status == ExpectedExit.batchPartial)
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains(Self.escape), "\(piped.stderr)")
        #expect(piped.stderr.hasPrefix("taskproc batch: 40 records"), "\(piped.stderr)")
    }

    @Test func quietPrintsOnlyErrorsAndVerboseMore() throws {
        let dir = try E2E.temporaryDirectory("verbosity")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/tone.wav"
        // synth: silent by default and with -q; -v says what it wrote.
        #expect(try run(["synth", wav, "--duration", "1", "-q"]).stderr.isEmpty)
        let synth = try run(["synth", wav, "--duration", "1", "--force", "--verbose"])
        #expect(
            synth.status == 0 && synth.stderr.hasPrefix("taskproc synth: \(wav): sine, wav16, 48000 frames"),
            "\(synth.stderr)")
        // analyze and inspect: -v says what each input was read as.
        let analyze = try run(["analyze", wav, "-v"])
        #expect(
            analyze.status == 0 && analyze.stderr.contains("taskproc analyze: \(wav): read as audio"),
            "\(analyze.stderr)")
        #expect(try run(["analyze", wav, "-q"]).stderr.isEmpty)
        let inspect = try run(["inspect", wav, "-v"])
        #expect(
            inspect.status == 0 && inspect.stderr.contains("taskproc inspect: \(wav): read as audio"),
            "\(inspect.stderr)")
        // Errors are still said with -q.
        let broken = dir.path + "/broken.wav"
        try Data("RIFF".utf8).write(to: URL(fileURLWithPath: broken))
        let failing = try run(["analyze", broken, "-q"])
        #expect(failing.status != 0 && failing.stderr.hasPrefix("taskproc: error: "), "\(failing.stderr)")

        // audiometry simulate: a summary line per audiogram, none with -q.
        let audiograms = dir.path + "/audiograms.json"
        try E2E.write(
            #"[{"250": 10, "500": 15, "1000": 20, "2000": 25, "3000": 30, "4000": 40, "8000": null}]"#, to: audiograms)
        let simulated = try run(["audiometry", "simulate", audiograms, "-o", dir.path + "/sim.json"])
        #expect(simulated.status == 0 && simulated.stderr.hasPrefix("audiogram 1: "), "\(simulated.stderr)")
        let quietSimulation = try run(["audiometry", "simulate", audiograms, "-o", dir.path + "/sim2.json", "-q"])
        #expect(quietSimulation.status == 0 && quietSimulation.stderr.isEmpty, "\(quietSimulation.stderr)")

        // batch: -v reports each failed record as it happens (one line per errors.jsonl line); -q only the count.
        let export = dir.path + "/export"
        try #require(try generateStudyExport(at: export, records: 30, seed: 8).status == 0)
        let verbose = try run(["batch", export, "-o", dir.path + "/v", "-v"])
        #expect(verbose.status == ExpectedExit.batchPartial)
        let errors = try E2E.jsonLines(dir.path + "/v/errors.jsonl")
        let failedLines = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("taskproc batch: failed: ") }
        #expect(!errors.isEmpty && failedLines.count == errors.count, "\(verbose.stderr)")
        #expect(verbose.stderr.contains("job(s)") && verbose.stderr.contains("taskproc batch: 30 records"))
        let quiet = try run(["batch", export, "-o", dir.path + "/q", "-q"])
        #expect(quiet.status == ExpectedExit.batchPartial)
        #expect(
            quiet.stderr
                == "taskproc batch: \(errors.count) of 30 records failed; reasons in \(dir.path)/q/errors.jsonl\n")

        // merge: the summary, none with -q; -v names the shard folders.
        #expect(
            try run(["batch", export, "-o", dir.path + "/s1", "--shard", "1/1", "-q"]).status
                == ExpectedExit.batchPartial)
        let merged = try run(["merge", dir.path + "/s1", "-o", dir.path + "/m", "-v"])
        #expect(
            merged.status == 0 && merged.stderr.contains("taskproc merge: shard folders: \(dir.path)/s1\n"),
            "\(merged.stderr)")
        #expect(merged.stderr.contains("taskproc merge: 1 shards, 30 records"), "\(merged.stderr)")
        #expect(try run(["merge", dir.path + "/s1", "-o", dir.path + "/m2", "-q"]).stderr.isEmpty)

        // report: the "written" note, none with -q; -v counts records by kind.
        #expect(try run(["report", dir.path + "/v", "-o", dir.path + "/r.html", "--no-sources", "-q"]).stderr.isEmpty)
        let report = try run(["report", dir.path + "/v", "-o", dir.path + "/r2.html", "--no-sources", "-v"])
        #expect(
            report.status == 0 && report.stderr.contains("taskproc: report of ")
                && report.stderr.contains("records by kind: "))
    }
}
