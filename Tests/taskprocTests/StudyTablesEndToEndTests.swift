import Foundation
import GRDB
import TestSupport
import Testing

/// `batch` writes the study tables, and a pandas-free Python recomputes them from the per-kind CSVs
/// (`Tools/batch/check_study_tables.py`).
@Suite struct StudyTablesEndToEndTests {
    @Test func studyTablesRecomputeFromThePerKindCSVs() throws {
        let dir = try E2E.temporaryDirectory("study-tables")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 120, seed: 5, extra: ["--every-task"])
        try #require(generated.status == 0, "\(generated.output)")
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--no-progress"])
        try #require(
            batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        for name in ["participant_day", "participant_week", "surveys_wide", "adherence"] {
            #expect(FileManager.default.fileExists(atPath: out + "/\(name).csv"), "no \(name).csv")
        }
        // every walk of the example export counts steps (walks of 10–30 s)
        let walking = E2E.csvRows(try String(contentsOfFile: out + "/walking.csv", encoding: .utf8))
        let stepCount = try #require(walking.first?.firstIndex(of: "stepCount"))
        let status = try #require(walking.first?.firstIndex(of: "status"))
        let ok = walking.dropFirst().filter { $0[status] == "ok" }
        #expect(ok.count > 20 && ok.allSatisfy { (Int($0[stepCount]) ?? 0) > 0 })
        // every participant-day row recomputed independently
        let check = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", repositoryPath("Tools/batch/check_study_tables.py"), out], mergeStandardError: true)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains(" 0 differences"))
        // one row of one participant and day, by name
        let day = E2E.csvRows(try String(contentsOfFile: out + "/participant_day.csv", encoding: .utf8))
        let row = try #require(day.dropFirst().first { !$0[0].isEmpty && !$0[1].isEmpty })
        let one = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", repositoryPath("Tools/batch/check_study_tables.py"), out, "--participant", row[0], "--date",
                row[1],
            ],
            mergeStandardError: true)
        #expect(one.status == 0, "\(one.stdout)")
        // DuckDB (from PyPI, pinned, in a venv under .build/) reads every CSV with the types columns.csv declares …
        let duck = try runPythonScript("Tools/validators/duckdb_types.py", [out])
        #expect(duck.status == 0 && duck.output.contains(" 0 failed"), "\(duck.output)")
        // … and fails on a type that is wrong (a text column declared an integer)
        let wrong = dir.appendingPathComponent("wrong").path
        try FileManager.default.createDirectory(atPath: wrong, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: out + "/walking.csv", toPath: wrong + "/walking.csv")
        let dictionary = try String(contentsOfFile: out + "/columns.csv", encoding: .utf8).split(separator: "\n")
        let walkingRows = dictionary.filter { $0.hasPrefix("walking.csv,") }.map { line -> String in
            line.hasPrefix("walking.csv,recordSource,") ? String(line.dropLast("text".count)) + "integer" : String(line)
        }
        try ([String(dictionary[0])] + walkingRows).joined(separator: "\n").write(
            toFile: wrong + "/columns.csv", atomically: true, encoding: .utf8)
        let refused = try runPythonScript("Tools/validators/duckdb_types.py", [wrong])
        #expect(refused.status == 1 && refused.output.contains("walking.csv: DuckDB cannot read"), "\(refused.output)")
        // summarize writes the same files again from the journal
        let files = try FileManager.default.contentsOfDirectory(atPath: out).filter {
            $0.hasSuffix(".csv") || $0.hasSuffix(".jsonl")
        }
        let before = try Dictionary(
            uniqueKeysWithValues: files.map { ($0, try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0))) })
        for name in ["participant_day.csv", "walking.csv", "columns.csv"] {
            try FileManager.default.removeItem(atPath: out + "/" + name)
        }
        let summarized = try E2E.run(["summarize", out])
        #expect(summarized.status == ExpectedExit.success, "\(summarized.stderr)")
        for (name, data) in before {
            #expect(FileManager.default.contents(atPath: out + "/" + name) == data, "\(name) differs after summarize")
        }
        #expect(try E2E.run(["summarize", dir.appendingPathComponent("nothing").path]).status == 66)
        // the same tables in SQLite, typed and indexed
        let queue = try DatabaseQueue(path: out + "/taskproc.sqlite")
        defer { try? queue.close() }
        try queue.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM participant_day") == day.count - 1)
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
            for name in ["participant_day", "participant_week", "surveys_wide", "adherence"] {
                #expect(indexes.contains(name + "_index1"), "no index on \(name)")
            }
            #expect(
                try String.fetchOne(db, sql: "SELECT typeof(median) FROM participant_day WHERE n > 0 LIMIT 1") == "real"
            )
            // the per-kind tables declare the types of columns.csv
            let walking = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'walking'") ?? ""
            #expect(
                walking.contains("\"stepCount\" INTEGER") && walking.contains("\"flag_still\" BOOLEAN"), "\(walking)")
            // a week without a run is a row
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM adherence WHERE runs = 0 AND week <> ''") ?? 0 > 0)
        }
    }
}
