import Foundation
import TestSupport
import Testing

/// `taskproc batch` over a folder of downloads as a user has it: documents and ground truth beside the
/// recordings, a hidden `.synapseCache`, and the run's own `--output` inside the input.
@Suite struct BatchDownloadsEndToEndTests {
    @Test func nonDataIsSkippedHiddenFoldersAreNamedAndTheOwnOutputIsNeverRead() throws {
        let dir = try E2E.temporaryDirectory("downloads")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("downloads").path
        try E2E.write(SyntheticWalk.csv(rows: 3000), to: input + "/walk.csv")
        try E2E.write("MIT License\n\nPermission is hereby granted, free of charge\n", to: input + "/LICENSE.txt")
        try E2E.write("step,time_s,foot\n1,0.52,L\n2,1.03,R\n", to: input + "/truth.csv")
        try E2E.write(#"{"participant": "S01", "steps": 42}"#, to: input + "/peer-result.json")
        try E2E.write(SyntheticWalk.csv(rows: 2000), to: input + "/.synapseCache/123/456/walk.csv")
        let out = input + "/results"

        // Twice: the second run must not read the first one's outputs (results.jsonl, walking.csv) as inputs.
        for arguments in [["batch", input, "--out", out], ["batch", input, "--out", out, "--force"]] {
            let run = try E2E.run(arguments + ["--no-progress"])
            #expect(run.status == ExpectedExit.success, "\(run.stderr)")
            #expect(
                run.stderr.contains("4 records: 1 analysed, 0 failed, 3 skipped as not data (skipped.csv)"),
                "\(run.stderr)")
            #expect(
                run.stderr.contains(
                    "1 hidden folder(s) not searched (give one as an input to search it): "
                        + input + "/.synapseCache"), "\(run.stderr)")
            #expect(
                run.stderr.contains("batch output folders not read as input: \(out) (this run's --output)"),
                "\(run.stderr)")
        }
        let skipped = try String(contentsOfFile: out + "/skipped.csv", encoding: .utf8)
        #expect(
            E2E.csvRows(skipped).map { $0.first ?? "" }
                == ["recordSource", input + "/LICENSE.txt", input + "/peer-result.json", input + "/truth.csv"])
        #expect(try String(contentsOfFile: out + "/errors.jsonl", encoding: .utf8).isEmpty)

        // The hidden folder given as an input is searched.
        let cache = try E2E.run(["batch", input + "/.synapseCache", "--out", dir.path + "/cache", "--no-progress"])
        #expect(cache.status == ExpectedExit.success, "\(cache.stderr)")
        #expect(cache.stderr.contains("1 records: 1 analysed"), "\(cache.stderr)")

        // Nothing but the non-data and the hidden folder: no data is an error that says where to look.
        let bare = dir.appendingPathComponent("bare").path
        try E2E.write("MIT License\n", to: bare + "/LICENSE.txt")
        let none = try E2E.run(["batch", bare, "--out", dir.path + "/none", "--no-progress"])
        #expect(none.status == ExpectedExit.dataError)
        #expect(none.stderr.contains("no data found under \(bare): 1 file(s) skipped as not data"), "\(none.stderr)")
        let hidden = dir.appendingPathComponent("hidden").path
        try E2E.write(SyntheticWalk.csv(rows: 2000), to: hidden + "/.synapseCache/1/walk.csv")
        let empty = try E2E.run(["batch", hidden, "--out", dir.path + "/empty", "--no-progress"])
        #expect(empty.status == ExpectedExit.dataError)
        #expect(
            empty.stderr.contains("no records found under \(hidden); hidden folders were not searched"),
            "\(empty.stderr)")
    }
    @Test func inputRulesGiveEachDeviceItsReaderOptions() throws {
        let dir = try E2E.temporaryDirectory("rules")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("mixed").path
        try E2E.write(SyntheticWalk.csv(rows: 3000), to: input + "/phone/walk.csv")
        try E2E.write(SyntheticWalk.xsens(rows: 3000), to: input + "/xsens/MT_01.txt")
        let rules = dir.appendingPathComponent("rules.json").path
        try E2E.write(#"{"rules": [{"match": "xsens/*.txt", "options": ["--sample-rate", "100"]}]}"#, to: rules)

        // Without the rule the counter file fails, naming the option; with it both files are walks.
        let plain = try E2E.run(["batch", input, "--out", dir.path + "/plain", "--no-progress"])
        #expect(plain.status == ExpectedExit.batchPartial, "\(plain.stderr)")
        let out = dir.path + "/out"
        let ruled = try E2E.run(["batch", input, "--out", out, "--input-config", rules, "--no-progress"])
        #expect(ruled.status == ExpectedExit.success, "\(ruled.stderr)")
        let rows = E2E.csvRows(try String(contentsOfFile: out + "/walking.csv", encoding: .utf8))
        let header = try #require(rows.first)
        let steps = try #require(header.firstIndex(of: "stepCount"))
        let counts = rows.dropFirst().map { Int($0[steps]) ?? -1 }
        // 30 s at 1.8 steps/s, both files: the same walk, so the same count
        #expect(counts.count == 2 && counts[0] == counts[1] && (50...56).contains(counts[0]), "\(rows)")

        // --resume keeps the stored rules and refuses new ones; a rule with a non-reader option is a usage error.
        let resumed = try E2E.run(["batch", "--resume", "--out", out, "--no-progress"])
        #expect(resumed.status == ExpectedExit.success, "\(resumed.stderr)")
        let refused = try E2E.run(["batch", "--resume", "--out", out, "--input-config", rules])
        #expect(refused.status == ExpectedExit.usage)
        try E2E.write(#"{"rules": [{"match": "*.txt", "options": ["--jobs", "3"]}]}"#, to: rules)
        let bad = try E2E.run(["batch", input, "--out", dir.path + "/bad", "--input-config", rules])
        #expect(bad.status == ExpectedExit.usage)
        #expect(bad.stderr.contains("rules.json: rule 1 (*.txt): Unknown option '--jobs'"), "\(bad.stderr)")
    }
}
