import ActiveTasks
import Foundation
import TestSupport
import Testing

@testable import StudyBatch
@testable import StudyInputs

/// A folder of downloads: the files that are not data are skipped with their reasons (`skipped.csv`), the data
/// files that fail stay failures, and shards merge to the same lists.
@Suite struct BatchNotDataTests {
    /// The downloads: 2 data files that analyse, 2 that fail (a sensor table with unknown column names, a table cut
    /// off after its header), 6 that are not data.
    static func downloads(at folder: String) throws {
        let files: [String: String] = [
            "walk.csv": SyntheticWalk.csv(rows: 3000),
            "subject2/walk.csv": SyntheticWalk.csv(rows: 2000),
            "shimmer.tsv": SyntheticWalk.csv(rows: 500).replacingOccurrences(of: "time,x,y,z", with: "ms,A,B,C")
                .replacingOccurrences(of: ",", with: "\t"),
            "cut.csv": "time,acc_x,acc_y,acc_z\n",
            "LICENSE.txt": String(
                repeating: "Permission is hereby granted, free of charge, to any person\n", count: 30),
            "truth.csv": "step,time_s,foot\n1,0.52,L\n2,1.03,R\n3,1.55,L\n",
            "meta/device.csv": "property,value\ndeviceModel,Pixel 7\ndeviceBrand,google\n",
            "meta/time.csv": "event,experiment time,system time,system time text\nSTART,0,1.7e9,2023-11-14 22:13:20\n",
            "peer-result.json": #"{"participant": "S01", "steps": 42, "method": "gaitpy"}"#,
            "LICENSE": "MIT License\n\nPermission is hereby granted\n",
        ]
        for (name, text) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    static func run(_ input: String, out: String, shard: ShardSpec? = nil) async throws -> BatchRunner.Summary {
        try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(input)], shard: shard),
            analysis: RecordAnalysis.Options(), outputFolder: out, mode: .fresh(force: false), jobs: 2)
    }

    @Test func nonDataIsSkippedWithItsReasonAndShardsMergeToTheSameLists() async throws {
        let folder = try BatchSupport.temporaryFolder("notdata")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/downloads"
        try Self.downloads(at: input)
        let single = folder + "/single"
        let summary = try await Self.run(input, out: single)
        #expect(summary.records == 10)
        #expect(summary.counts.succeeded == 2)
        #expect(summary.counts.failed == 2)
        #expect(summary.counts.notData == 6)

        let skipped = try String(contentsOfFile: single + "/skipped.csv", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(skipped.first == "recordSource,contentHash,reason")
        let names = skipped.dropFirst().map { String($0.split(separator: ",")[0].dropFirst(input.count + 1)) }
        #expect(
            names == ["LICENSE", "LICENSE.txt", "meta/device.csv", "meta/time.csv", "peer-result.json", "truth.csv"])
        #expect(skipped.contains { $0.contains("truth.csv") && $0.contains("2 numeric: not sensor samples") })
        let errors = try BatchSupport.jsonLines(single + "/errors.jsonl").map { $0["source"] as? String ?? "" }
        #expect(errors == [input + "/cut.csv", input + "/shimmer.tsv"])
        // No skipped file reaches a result table.
        let walking = try String(contentsOfFile: single + "/walking.csv", encoding: .utf8)
        #expect(!walking.contains("truth.csv") && !walking.contains("LICENSE"))
        let tables = try BatchSupport.sqliteTables(single)
        #expect(tables["skipped"]?.count == 6)

        // Two shards merged: the same files, byte for byte, and the same database.
        var shards: [String] = []
        for k in 1...2 {
            let out = folder + "/shard\(k)"
            _ = try await Self.run(input, out: out, shard: ShardSpec("\(k)/2"))
            shards.append(out)
        }
        let merged = folder + "/merged"
        _ = try BatchMerge.merge(shardFolders: shards, into: merged, force: false)
        #expect(try BatchSupport.textOutputs(merged) == BatchSupport.textOutputs(single))
        #expect(try BatchSupport.sqliteTables(merged) == tables)

        // A resume of the finished run counts the skipped records apart from failures.
        let again = try await BatchRunner.run(
            configuration: BatchConfiguration(inputs: [.init(input)]), analysis: RecordAnalysis.Options(),
            outputFolder: single, mode: .resume, jobs: 2)
        #expect(again.alreadyComplete && again.counts.notData == 6 && again.counts.failed == 2)
    }
}
