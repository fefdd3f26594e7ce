import ActiveTasks
import ArgumentParser
import Foundation
import GRDB
import StudyBatch
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

@testable import taskproc

/// Parse-level tests of `taskproc batch` and `taskproc merge`.
@Suite struct BatchCommandParsingTests {
    @Test func defaultsAndFlags() throws {
        let command = try Batch.parse(["export", "more.zip", "--out", "results"])
        #expect(command.paths == ["export", "more.zip"])
        #expect(command.out == "results")
        #expect(!command.resume && !command.force && !command.strict)
        #expect(command.jobs == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try Batch.parse(["--resume", "--out", "r"]).resume)
        #expect(try Batch.parse(["e", "--out", "r", "--shard", "2/3"]).shard == "2/3")
    }

    @Test func invalidCombinationsAreRejected() {
        #expect(throws: (any Error).self) { try Batch.parse(["--out", "r"]) }  // no paths, no --resume
        #expect(throws: (any Error).self) { try Batch.parse(["e"]) }  // no --out
        #expect(throws: (any Error).self) { try Batch.parse(["e", "--out", "r", "--shard", "4/3"]) }
        #expect(throws: (any Error).self) { try Batch.parse(["e", "--out", "r", "--shard", "0/3"]) }
        #expect(throws: (any Error).self) { try Batch.parse(["e", "--out", "r", "--jobs", "0"]) }
        #expect(throws: (any Error).self) { try Batch.parse(["--resume", "--force", "--out", "r"]) }
        #expect(throws: (any Error).self) { try Merge.parse(["--out", "r"]) }
    }

    @Test func analysisOptionsRoundTripThroughTheStoredArguments() throws {
        let command = try Batch.parse([
            "e", "--out", "r", "--time-unit", "ms", "--acceleration-unit", "g", "--accept-truncated",
            "--tapping-variant",
            "mpower2016", "--researchkit-version", "3.1",
        ])
        #expect(
            command.analysisArguments == [
                "--time-unit", "ms", "--acceleration-unit", "g", "--tapping-variant", "mpower2016",
                "--researchkit-version",
                "3.1", "--accept-truncated",
            ])
        let options = try Batch.analysisOptions(command.analysisArguments)
        #expect(options.loader.accelerometerCSV.timeUnit == .milliseconds)
        #expect(options.loader.accelerometerCSV.accelerationUnit == .g)
        #expect(options.audio.acceptTruncated)
        #expect(options.tappingVariant == .mpower2016)
        #expect(options.audiometry.researchKitVersion == ResearchKitVersion("3.1"))
        #expect(throws: (any Error).self) { try Batch.parse(["e", "--out", "r", "--researchkit-version", "1.0"]) }
    }
}

/// End-to-end runs of the built binary: kill -9 and resume, exit statuses.
@Suite(.serialized) struct BatchCommandEndToEndTests {
    struct Run {
        var status: Int32
        var stderr: String
    }

    static var binary: URL { CommandLineEndToEndTests.binary }


    func temporaryFolder(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "taskproc-batch-cli-\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func generate(_ folder: String, records: Int, seed: Int) throws {
        let generated = try generateStudyExport(at: folder, records: records, seed: seed)
        #expect(generated.status == 0, "\(generated.output)")
    }

    func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    func run(_ arguments: [String]) throws -> Run {
        let (process, err) = try start(arguments)
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: String(decoding: e, as: UTF8.self))
    }

    func journalLines(_ out: String) -> Int {
        let data = FileManager.default.contents(atPath: out + "/.taskproc-batch/journal.jsonl") ?? Data()
        return data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// Starts a batch run and SIGKILLs it once its journal holds at least `lines` records.
    func killMidway(_ arguments: [String], out: String, after lines: Int) throws -> Bool {
        let (process, err) = try start(arguments)
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && journalLines(out) < lines && Date() < deadline { usleep(500) }
        guard process.isRunning else { return false }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        _ = err.fileHandleForReading.readDataToEndOfFile()
        return process.terminationReason == .uncaughtSignal
    }

    func outputs(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder)
        where name.hasSuffix(".jsonl") || name.hasSuffix(".csv") || name.hasSuffix(".partial") {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return out
    }

    func tables(_ folder: String) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: folder + "/taskproc.sqlite")
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: [String]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            where name != "run_log" {
                tables[name] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(name)\" ORDER BY rowid").map { "\($0)" }
            }
            return tables
        }
    }

    @Test func killDashNineAtAnyMomentThenResumeGivesTheUninterruptedOutputs() throws {
        let folder = try temporaryFolder("kill")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 300, seed: 21)
        let reference = folder + "/reference"
        let clean = try run(["batch", export, "--out", reference, "--no-progress"])
        #expect(clean.status == 2, "\(clean.stderr)")  // partial: the generated export has broken records
        let total = journalLines(reference)
        #expect(total > 250)

        // Kill the first run early, the resumed run again later, then let a second resume finish.
        let victim = folder + "/victim"
        let killed = try killMidway(
            ["batch", export, "--out", victim, "--no-progress", "--jobs", "1"], out: victim, after: 20)
        #expect(killed, "the run finished before it could be killed")
        let afterFirst = journalLines(victim)
        #expect(afterFirst >= 20 && afterFirst < total)
        #expect(!FileManager.default.fileExists(atPath: victim + "/results.jsonl"))
        let killedAgain = try killMidway(
            ["batch", "--resume", "--out", victim, "--no-progress", "--jobs", "1"], out: victim, after: afterFirst + 40)
        #expect(killedAgain)
        let resumed = try run(["batch", "--resume", "--out", victim, "--no-progress"])
        #expect(resumed.status == 2, "\(resumed.stderr)")  // the same partial result as the uninterrupted run
        #expect(journalLines(victim) == total)  // no record lost, none duplicated
        let victimOutputs = try outputs(victim)
        let referenceOutputs = try outputs(reference)
        #expect(victimOutputs == referenceOutputs)
        // Name what differs (seen once in CI, 2026-11-26, not reproduced): the file and its first differing line.
        for name in Set(victimOutputs.keys).union(referenceOutputs.keys) where victimOutputs[name] != referenceOutputs[name] {
            let a = String(decoding: victimOutputs[name] ?? Data(), as: UTF8.self).split(separator: "\n")
            let b = String(decoding: referenceOutputs[name] ?? Data(), as: UTF8.self).split(separator: "\n")
            let first = zip(a, b).first { $0 != $1 }
            Issue.record("\(name) differs: resumed \(a.count) lines, uninterrupted \(b.count); first difference \(String(describing: first))")
        }
        #expect(try tables(victim) == tables(reference))
    }

    @Test func exitStatusRules() throws {
        let folder = try temporaryFolder("exit")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        // Every record fails → 65 (data error).
        let broken = folder + "/broken"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: broken + "/a.json"))
        try Data("{\"items\": [".utf8).write(to: URL(fileURLWithPath: broken + "/b.json"))
        let allFailed = try run(["batch", broken, "--out", folder + "/o1", "--no-progress"])
        #expect(allFailed.status == 65)
        #expect(allFailed.stderr.contains("2 records: 0 analysed, 2 failed"))
        let lines = try String(contentsOfFile: folder + "/o1/errors.jsonl", encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0].contains("an empty (0-byte) file"))

        // Some fail → 2 (partial), or 65 with --strict.
        let mixed = folder + "/mixed"
        try generate(mixed, records: 30, seed: 2)
        #expect(try run(["batch", mixed, "--out", folder + "/o2", "--no-progress"]).status == 2)
        #expect(try run(["batch", mixed, "--out", folder + "/o3", "--no-progress", "--strict"]).status == 65)

        // Outputs are never overwritten without --force (73); a missing path is 66, no records a data error (65).
        let again = try run(["batch", mixed, "--out", folder + "/o2", "--no-progress"])
        #expect(again.status == 73)
        #expect(again.stderr.contains("already holds batch outputs"))
        #expect(!again.stderr.contains("Usage:"))
        #expect(try run(["batch", mixed, "-o", folder + "/o2", "--no-progress", "--force"]).status == 2)
        #expect(try run(["batch", folder + "/nope", "--out", folder + "/o4"]).status == 66)
        let empty = folder + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try run(["batch", empty, "--output", folder + "/o5"])
        #expect(none.status == 65)
        #expect(none.stderr.contains("no records found"))
    }

    @Test func shardThenMergeMatchesOneRun() throws {
        let folder = try temporaryFolder("shard")
        defer { for _ in 0..<3 { try? FileManager.default.removeItem(atPath: folder) } }
        let export = folder + "/export"
        try generate(export, records: 60, seed: 9)
        // Partial (2): the generated export has broken records.
        #expect(try run(["batch", export, "--out", folder + "/single", "--no-progress"]).status == 2)
        for k in 1...2 {
            let r = try run(["batch", export, "--out", folder + "/s\(k)", "--shard", "\(k)/2", "--no-progress"])
            #expect(r.status == 2, "\(r.stderr)")
        }
        let merge = try run(["merge", folder + "/s2", folder + "/s1", "--out", folder + "/merged"])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try outputs(folder + "/merged") == outputs(folder + "/single"))
        #expect(try tables(folder + "/merged") == tables(folder + "/single"))
        // the merged outputs have their column dictionary too (compared byte for byte just above)
        #expect(try outputs(folder + "/merged")["columns.csv"] != nil)
    }
}
