import Foundation
import TestSupport
import Testing

/// `--records-table`: the study's own record table joined onto every row of the records it describes.
@Suite struct RecordsTableTests {
    @Test func aStudyTableJoinsByRecordIdAndSurvivesSummarize() throws {
        let dir = try E2E.temporaryDirectory("records-table")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(
            at: export, records: 40, seed: 3, extra: ["--broken", "0", "--zipped", "0"])
        try #require(generated.status == 0, "\(generated.output)")
        // the ResearchKit records' ids, from their folders (researchkit/healthCode=…/recordId=…/)
        let root = export + "/researchkit"
        var ids: [String] = []
        for participant in try FileManager.default.contentsOfDirectory(atPath: root) {
            for record in try FileManager.default.contentsOfDirectory(atPath: root + "/" + participant)
            where record.hasPrefix("recordId=") {
                ids.append(String(record.dropFirst("recordId=".count)))
            }
        }
        ids.sort()
        try #require(ids.count >= 4)
        let described = Array(ids.prefix(ids.count / 2))
        // a Bridge-like table: a quoted cell with a comma, a column named like a key column
        var csv = "recordId,createdOn,medTimepoint,healthCode\n"
        for (i, id) in described.enumerated() {
            csv += "\(id),2024-05-0\(i % 9 + 1)T10:00:00Z,\"Immediately before, medication\",other\(i)\n"
        }
        csv += "not-a-record,2024-01-01T00:00:00Z,none,x\n"
        let table = dir.appendingPathComponent("records.csv").path
        try E2E.write(csv, to: table)
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--records-table", table, "--no-progress"])
        try #require(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stderr.contains("records table: \(described.count) of "), "\(batch.stderr)")
        let rows = E2E.csvRows(try String(contentsOfFile: out + "/walking.csv", encoding: .utf8))
        let header = try #require(rows.first)
        #expect(Array(header.suffix(3)) == ["createdOn", "medTimepoint", "records_healthCode"])
        let recordId = try #require(header.firstIndex(of: "recordId"))
        let timepoint = try #require(header.firstIndex(of: "medTimepoint"))
        var joined = 0
        for row in rows.dropFirst() {
            if described.contains(row[recordId]) {
                #expect(row[timepoint] == "Immediately before, medication")
                joined += 1
            } else {
                #expect(row[timepoint] == "")
            }
        }
        #expect(joined == described.count)
        // every added column is defined in columns.csv, and typed
        let dictionary = E2E.csvRows(try String(contentsOfFile: out + "/columns.csv", encoding: .utf8))
        let created = try #require(dictionary.first { $0[0] == "walking.csv" && $0[1] == "createdOn" })
        #expect(created[3].contains("records.csv") && created[4] == "timestamp", "\(created)")
        // summarize reads the table again: the same bytes
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/walking.csv"))
        #expect(try E2E.run(["summarize", out]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/walking.csv")) == before)
    }

    @Test func aBadRecordsTableIsRefusedNamingTheProblem() throws {
        let dir = try E2E.temporaryDirectory("records-table-bad")
        defer { E2E.remove(dir) }
        let input = dir.appendingPathComponent("walk.csv").path
        try E2E.write("t,x,y,z\n0,0,0,1\n0.01,0,0,1\n", to: input)
        let missing = try E2E.run([
            "batch", input, "--out", dir.appendingPathComponent("o1").path, "--records-table", "/nonexistent.csv",
        ])
        #expect(missing.status == 66, "\(missing.stderr)")
        let noKey = dir.appendingPathComponent("nokey.csv").path
        try E2E.write("id,createdOn\nA,2024\n", to: noKey)
        let keyless = try E2E.run([
            "batch", input, "--out", dir.appendingPathComponent("o2").path, "--records-table", noKey,
        ])
        #expect(keyless.status != 0 && keyless.stderr.contains("no column \"recordId\""), "\(keyless.stderr)")
        let twice = dir.appendingPathComponent("twice.csv").path
        try E2E.write("recordId,createdOn\nA,2024\nA,2025\n", to: twice)
        let doubled = try E2E.run([
            "batch", input, "--out", dir.appendingPathComponent("o3").path, "--records-table", twice,
        ])
        #expect(doubled.status != 0 && doubled.stderr.contains("recordId A is on two rows"), "\(doubled.stderr)")
        let keyed = try E2E.run([
            "batch", input, "--out", dir.appendingPathComponent("o4").path, "--records-table", noKey,
            "--records-table-key", "id", "--no-progress",
        ])
        #expect(keyed.status == 0 && keyed.stderr.contains("records table: 0 of 1"), "\(keyed.stderr)")
    }
}
