import Foundation
import TestSupport
import Testing

/// `taskproc batch` over a folder of downloads as a user has it: documents and ground truth beside the
/// recordings, a hidden `.synapseCache`, and the run's own `--output` inside the input.
@Suite struct BatchDownloadsEndToEndTests {
    /// A walking table of `rows` samples at 100 Hz (`time,x,y,z`, g).
    static func walk(_ rows: Int) -> String {
        var text = "time,x,y,z\n"
        for i in 0..<rows {
            let t = Double(i) / 100
            let s = sin(2 * Double.pi * 1.8 * t)
            text += "\(t),\(0.1 * s),\(0.05 * cos(2 * Double.pi * 1.8 * t)),\(-1 + 0.3 * s)\n"
        }
        return text
    }

    @Test func nonDataIsSkippedHiddenFoldersAreNamedAndTheOwnOutputIsNeverRead() throws {
        let dir = try E2E.temporaryDirectory("downloads")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("downloads").path
        try E2E.write(Self.walk(3000), to: input + "/walk.csv")
        try E2E.write("MIT License\n\nPermission is hereby granted, free of charge\n", to: input + "/LICENSE.txt")
        try E2E.write("step,time_s,foot\n1,0.52,L\n2,1.03,R\n", to: input + "/truth.csv")
        try E2E.write(#"{"participant": "S01", "steps": 42}"#, to: input + "/peer-result.json")
        try E2E.write(Self.walk(2000), to: input + "/.synapseCache/123/456/walk.csv")
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
        try E2E.write(Self.walk(2000), to: hidden + "/.synapseCache/1/walk.csv")
        let empty = try E2E.run(["batch", hidden, "--out", dir.path + "/empty", "--no-progress"])
        #expect(empty.status == ExpectedExit.dataError)
        #expect(
            empty.stderr.contains("no records found under \(hidden); hidden folders were not searched"),
            "\(empty.stderr)")
    }
}
