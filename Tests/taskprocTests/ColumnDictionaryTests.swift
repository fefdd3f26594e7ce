import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// The column dictionary batch writes beside its CSVs (issue 20, item 2: "Batch writes a `columns.csv` (file,
/// column, unit, definition) next to its CSVs").
///
/// The dictionary is generated from the documentation (`Tests/Reference/column_dictionary.py` →
/// `Sources/StudyBatch/ColumnDictionary.swift`); these tests keep the two from drifting apart and check what
/// batch writes from it.
@Suite struct ColumnDictionaryTests {
    static let generated = "Sources/StudyBatch/ColumnDictionary.swift"

    /// Re-running the generator gives the committed file byte for byte: a documentation change that alters a unit
    /// or definition fails here until the file is regenerated.
    @Test func theCommittedDictionaryIsWhatTheDocsGenerate() throws {
        let dir = try E2E.temporaryDirectory("column-dictionary")
        defer { E2E.remove(dir) }
        let fresh = dir.appendingPathComponent("ColumnDictionary.swift").path
        let run = try runReferenceScript("column_dictionary.py", [fresh])
        try #require(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("cells under"), "a table row split by an unescaped |: \(run.output)")
        let committed = try String(contentsOfFile: repositoryPath(Self.generated), encoding: .utf8)
        let regenerated = try String(contentsOfFile: fresh, encoding: .utf8)
        let firstDifference = zip(committed.split(separator: "\n"), regenerated.split(separator: "\n"))
            .first { $0.0 != $0.1 }
        #expect(
            committed == regenerated,
            "\(Self.generated) is stale: run `python3 Tests/Reference/column_dictionary.py` (first difference: \(firstDifference.map { "\($0.0) → \($0.1)" } ?? "in length"))"
        )
    }

    /// Only tokens that can be a column's name are in the dictionary: words of a definition (under
    /// `accuracyStroop`: the other kinds' names, units, `null`, ResearchKit classes) are not, nor JSON-only keys,
    /// objects, arrays or dotted key paths.
    @Test func onlyColumnsAreDefined() {
        for word in ["amslerGrid", "count", "null", "ORKTaskResult", "boolean", "units", "kind", "startDate"] {
            #expect(ColumnDictionary.entries["accuracyStroop"]?[word] == nil, "accuracyStroop: \(word)")
        }
        #expect(ColumnDictionary.entries["walking"]?["quality"] == nil, "an object")
        #expect(ColumnDictionary.entries["walking"]?["hygiene"] == nil, "a sub-object")
        #expect(ColumnDictionary.entries["tremor"]?["orderRepair"] == nil, "a key of quality.hygiene")
        #expect(ColumnDictionary.entries["tremor"]?["EnergyInBand1"] == nil, "a feature: <sensor>.<axis>.<feature>")
        #expect(ColumnDictionary.entries["dBHLToneAudiometry"]?["bilateral"] == nil, "an object")
        #expect(ColumnDictionary.entries["audio"]?["channels"] == nil, "an array")
        #expect(ColumnDictionary.entries["audio"]?["splMeterSamples"] == nil, "JSON only")
        #expect(ColumnDictionary.entries["stroop"]?["result_taskRunUUID"] == nil, "looked up as taskRunUUID")
        // what is documented only in prose, a list item or another key's row, but is a column, stays
        #expect(ColumnDictionary.entry(kind: "tapping", column: "dfaTapInter") != nil)
        #expect(ColumnDictionary.entry(kind: "audio", column: "levelUnit") != nil)
        #expect(ColumnDictionary.entry(kind: "walking", column: "bouts")?.unit == "bouts")
    }

    /// Batch over an export holding every task writes a row for every column of every CSV it wrote, in file then
    /// column order, each with a definition from the docs; units where the docs give them.
    @Test func batchDescribesEveryColumnOfEveryCSV() throws {
        let dir = try E2E.temporaryDirectory("columns-csv")
        defer { E2E.remove(dir) }
        let export = dir.appendingPathComponent("export").path
        let generated = try generateStudyExport(at: export, records: 40, seed: 19, extra: ["--every-task"])
        try #require(generated.status == 0, "\(generated.output)")
        let out = dir.appendingPathComponent("out").path
        let batch = try E2E.run(["batch", export, "--out", out, "--no-progress"])
        try #require(
            batch.status == ExpectedExit.success || batch.status == ExpectedExit.batchPartial, "\(batch.stderr)")
        #expect(!batch.stderr.contains("no documented definition"), "\(batch.stderr)")

        let rows = E2E.csvRows(try String(contentsOfFile: out + "/columns.csv", encoding: .utf8))
        try #require(rows.first == ["file", "column", "unit", "definition"])
        var expected: [[String]] = []
        let csvs = try FileManager.default.contentsOfDirectory(atPath: out)
            .filter { $0.hasSuffix(".csv") && $0 != "columns.csv" }.sorted()
        #expect(csvs.count >= 20, "\(csvs)")
        for file in csvs {
            let header = try #require(E2E.csvRows(try String(contentsOfFile: out + "/" + file, encoding: .utf8)).first)
            expected += header.map { [file, $0] }
        }
        #expect(rows.dropFirst().map { Array($0.prefix(2)) } == expected)
        for row in rows.dropFirst() {
            #expect(row.count == 4, "\(row)")
            #expect(row.count == 4 && !row[3].isEmpty && row[3] != ColumnDictionary.undocumented, "\(row)")
        }
        // a few units, as the articles give them
        let unit = Dictionary(rows.dropFirst().map { ($0[0] + " " + $0[1], $0[2]) }, uniquingKeysWith: { a, _ in a })
        #expect(unit["walking.csv cadence"] == "steps/min")
        #expect(unit["walking.csv stepTimeCV"] == "%")
        #expect(unit["walking.csv recordSource"] == "—")
        #expect(unit["stroop.csv accuracy"] == "fraction")
        #expect(unit["tremor.csv accelerometer.x.mean.tm"] == "g")
        #expect(unit["tremor.csv gyroscope.z.energy.tm"] == "(rad/s)²")
        #expect(unit["tremor.csv gyroscope.y.mobility.tm"] == "Hz")
        #expect(unit["tapping.csv cvTapInter"] == "%")
        #expect(unit["tapping.csv meanDriftLeft"] == "points")
        #expect(unit["audio.csv rmsDBFS"] == "dBFS")
        #expect(unit["dBHLToneAudiometry.csv pta4"] == "dB HL")
    }

    /// A column the docs do not define is still listed, with "(undocumented)", and reported for the warning.
    @Test func anUndocumentedColumnIsListedAndReported() {
        let columns = BatchOutputs.keyColumns + ["stepCount", "madeUpColumn", "accelerometer.x.madeUp.tm"]
        let dictionary = BatchOutputs.columnDictionary(kinds: ["walking", "tremor"]) { kind in
            kind == "walking" ? columns : BatchOutputs.keyColumns + ["accelerometer.x.mean.tm"]
        }
        #expect(dictionary.undocumented == ["walking.csv: madeUpColumn", "walking.csv: accelerometer.x.madeUp.tm"])
        #expect(dictionary.rows.first == ["file", "column", "unit", "definition"])
        #expect(dictionary.rows[1][0] == "tremor.csv", "sorted by file name")
        let madeUp = dictionary.rows.first { $0[1] == "madeUpColumn" }
        #expect(madeUp == ["walking.csv", "madeUpColumn", "", ColumnDictionary.undocumented])
        #expect(ColumnDictionary.entry(kind: "walking", column: "stepCount")?.unit == "steps")
        #expect(ColumnDictionary.entry(kind: "stroop", column: "result_taskRunUUID") != nil)
        #expect(ColumnDictionary.entry(kind: "noSuchKind", column: "stepCount") == nil)
        // every task kind batch can write a CSV for has its articles in the generator's map
        for kind in TaskKind.allCases where kind != .unknown {
            #expect(ColumnDictionary.entries[kind.rawValue] != nil, "no articles for \(kind.rawValue).csv")
        }
    }
}
