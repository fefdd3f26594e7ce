import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// phyphox exports as users download them: the folder (`Raw Data.csv` + `meta/device.csv` + `meta/time.csv`) and
/// its zip, written as phyphox documents its CSV export (quoted headers with units, numbers as `1.000000000E0`,
/// experiment time from `START`).
@Suite struct PhyphoxEndToEndTests {
    /// The export's files: `rows` samples at 100 Hz of a 1.8 Hz walk ("Acceleration with g" in m/s²), from
    /// 0.01 s; `runs` the START/PAUSE pairs of `meta/time.csv`.
    static func export(rows: Int, runs: [(Double, Double)]) -> [(String, String)] {
        var data =
            "\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\","
            + "\"Absolute acceleration (m/s^2)\"\n"
        for i in 0..<rows {
            let t = 0.01 + Double(i) / 100
            let s = sin(2 * Double.pi * 1.8 * t)
            let (x, y, z) = (0.98 * s, 9.81 + 2.9 * s, 0.49 * cos(2 * Double.pi * 1.8 * t))
            let a = (x * x + y * y + z * z).squareRoot()
            data += [t, x, y, z, a].map { String(format: "%.9E", $0) }.joined(separator: ",") + "\n"
        }
        var time = "\"event\",\"experiment time\",\"system time\",\"system time text\"\n"
        for (start, pause) in runs {
            time +=
                "\"START\",\(String(format: "%.9E", start)),\(1_704_103_200.123 + start),\"2024-01-01 10:00:00.123 UTC+01:00\"\n"
            time +=
                "\"PAUSE\",\(String(format: "%.9E", pause)),\(1_704_103_200.123 + pause),\"2024-01-01 10:00:30.123 UTC+01:00\"\n"
        }
        let device =
            "\"property\",\"value\"\n\"version\",\"1.1.11\"\n\"build\",\"1011101\"\n\"fileFormat\",\"1.15\"\n"
            + "\"deviceModel\",\"Pixel 7\"\n\"deviceBrand\",\"google\"\n\"deviceBoard\",\"panther\"\n"
        return [("Raw Data.csv", data), ("meta/device.csv", device), ("meta/time.csv", time)]
    }

    @Test func aFolderAndItsZipAreOneWalkingRecordBoundedByTheirRuns() throws {
        let dir = try E2E.temporaryDirectory("phyphox")
        defer { E2E.remove(dir) }
        let folder = dir.appendingPathComponent("Acceleration 2024-01-01 10-00-00").path
        // Two runs, 0–12 s and 18–30 s, with samples in the pause between them (which phyphox would not write;
        // here they must be dropped).
        let files = Self.export(rows: 3000, runs: [(0, 12), (18, 30)])
        for (name, text) in files { try E2E.write(text, to: folder + "/" + name) }
        let zip = dir.appendingPathComponent("phyphox.zip").path
        try BatchSupport.zip(
            files.map { .init(name: "Acceleration 2024-01-01 10-00-00/" + $0.0, data: Data($0.1.utf8)) }
        )
        .write(to: URL(fileURLWithPath: zip))

        let inspect = try E2E.run(["inspect", folder, "--format", "json"])
        #expect(inspect.status == ExpectedExit.success, "\(inspect.stderr)")
        let object = try #require(try E2E.json(inspect.stdout) as? [String: Any])
        #expect(object["dialect"] as? String == "phyphox")
        let table = try #require(object["table"] as? [String: Any])
        #expect(table["exportedBy"] as? String == "phyphox 1.1.11 on google Pixel 7")
        #expect(table["startedAt"] as? String == "2024-01-01 10:00:00.123 UTC+01:00")
        // 0.01…29.99 s at 100 Hz: 600 samples lie strictly inside the 12–18 s pause (12.01…17.99).
        #expect(table["droppedSamples"] as? Int == 599, "\(table)")
        let segments = try #require(table["segments"] as? [[String: Double]])
        #expect(segments == [["start": 0, "end": 12], ["start": 18, "end": 30]])

        for path in [folder, zip] {
            let run = try E2E.run(["analyze", path, "--format", "csv"])
            #expect(run.status == ExpectedExit.success, "\(path): \(run.stderr)")
            let rows = E2E.csvRows(run.stdout)
            #expect(rows.count == 2, "\(run.stdout)")  // one record: the meta tables are not inputs of their own
            let header = try #require(rows.first)
            let source = try #require(header.firstIndex(of: "source"))
            let expected =
                path == zip ? zip + "!/Acceleration 2024-01-01 10-00-00/Raw Data.csv" : folder + "/Raw Data.csv"
            #expect(rows.last?[source] == expected)
            #expect(!run.stdout.contains("taskproc-archive") && !run.stderr.contains("taskproc-archive"))
        }
        // batch: one record each, nothing failed or skipped.
        let out = dir.path + "/out"
        let batch = try E2E.run(["batch", folder, zip, "--out", out, "--no-progress"])
        #expect(batch.status == ExpectedExit.success, "\(batch.stderr)")
        #expect(batch.stderr.contains("2 records: 2 analysed, 0 failed"), "\(batch.stderr)")
    }

    @Test func runsAreReadFromTheTimeTable() throws {
        let dir = try E2E.temporaryDirectory("phyphox-meta")
        defer { E2E.remove(dir) }
        let folder = dir.path + "/export"
        for (name, text) in Self.export(rows: 10, runs: [(0, 5)]) { try E2E.write(text, to: folder + "/" + name) }
        // An unfinished run (no PAUSE): open-ended.
        try E2E.write(
            "\"event\",\"experiment time\",\"system time\",\"system time text\"\n\"START\",0,1.7e9,\"t0\"\n"
                + "\"PAUSE\",5,1.7e9,\"t1\"\n\"START\",7,1.7e9,\"t2\"\n", to: folder + "/meta/time.csv")
        let export = try #require(PhyphoxExport.recognize(folder, names: FileTree.sortedNames(folder)))
        #expect(export.dataFiles == [folder + "/Raw Data.csv"])
        let metadata = try export.metadata()
        #expect(metadata.segments == [0...5, 7...Double.infinity])
        #expect(metadata.startedAt == "t0")
        #expect(
            PhyphoxExport.kept([4.9, 5.04, 5.2, 6.99, 7.0, 100], segments: metadata.segments, slack: 0.05) == [
                0, 1, 3, 4, 5,
            ])
        // A PAUSE before its START is an error naming the file and the cell.
        try E2E.write("\"event\",\"experiment time\"\n\"START\",5\n\"PAUSE\",1\n", to: folder + "/meta/time.csv")
        #expect(throws: InputError.self) { try export.metadata() }
        // No meta/ folder: not a phyphox export.
        #expect(PhyphoxExport.recognize(dir.path, names: ["export"]) == nil)
    }

    /// A folder with one table per sensor: a result per table, and no failure for the folder itself.
    @Test func aFolderOfSeveralTablesGivesAResultPerTable() throws {
        let dir = try E2E.temporaryDirectory("phyphox-tables")
        defer { E2E.remove(dir) }
        let folder = dir.path + "/export"
        let files = Self.export(rows: 1500, runs: [(0, 15)])
        for (name, text) in files { try E2E.write(text, to: folder + "/" + name) }
        try E2E.write(files[0].1, to: folder + "/Accelerometer.csv")
        let run = try E2E.run(["analyze", folder, "--format", "csv"])
        #expect(run.status == ExpectedExit.success, "\(run.stderr)")
        #expect(E2E.csvRows(run.stdout).count == 3, "\(run.stdout)")
        let inspect = try E2E.run(["inspect", folder, "--format", "json"])
        let children = (try E2E.json(inspect.stdout) as? [String: Any])?["children"] as? [[String: Any]] ?? []
        #expect(children.map { $0["dialect"] as? String } == ["phyphox", "phyphox"], "\(inspect.stdout.prefix(400))")
    }

    /// `inspect` flags a walk shorter than a gait rhythm needs, and one too short to count at all, before any
    /// analysis says so.
    @Test func inspectFlagsAWalkTooShortToCount() throws {
        let dir = try E2E.temporaryDirectory("short-walk")
        defer { E2E.remove(dir) }
        try E2E.write(SyntheticWalk.csv(rows: 200), to: dir.path + "/short.csv")
        try E2E.write(SyntheticWalk.csv(rows: 100), to: dir.path + "/shorter.csv")
        try E2E.write(SyntheticWalk.csv(rows: 1000), to: dir.path + "/long.csv")
        let short = try E2E.run(["inspect", dir.path + "/short.csv", "--format", "table"])
        #expect(
            short.stdout.contains(
                "1.99 s of motion data: a short recording, under the 3 s a gait rhythm needs: its steps are counted "
                    + "only as one short walk"), "\(short.stdout)")
        let shorter = try E2E.run(["inspect", dir.path + "/shorter.csv", "--format", "table"])
        #expect(
            shorter.stdout.contains(
                "0.99 s of motion data: too short to count steps (the analysis needs at least 1.5 s"),
            "\(shorter.stdout)")
        let long = try E2E.run(["inspect", dir.path + "/long.csv", "--format", "table"])
        #expect(!long.stdout.contains("too short"))
    }
}
