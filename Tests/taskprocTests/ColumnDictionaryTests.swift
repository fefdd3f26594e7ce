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
/// The dictionary is generated from the documentation (`Tools/reference/column_dictionary.py` →
/// `Sources/StudyBatch/ColumnDictionary.tsv`, compiled in by the `EmbedColumnDictionary` build-tool plugin);
/// these tests keep the two from drifting apart and check what batch writes from it.
@Suite struct ColumnDictionaryTests {
    static let generated = "Sources/StudyBatch/ColumnDictionary.tsv"

    /// Re-running the generator gives the committed file byte for byte: a documentation change that alters a unit
    /// or definition fails here until the file is regenerated.
    @Test func theCommittedDictionaryIsWhatTheDocsGenerate() throws {
        let dir = try E2E.temporaryDirectory("column-dictionary")
        defer { E2E.remove(dir) }
        let fresh = dir.appendingPathComponent("ColumnDictionary.tsv").path
        let run = try runPythonScript("Tools/reference/column_dictionary.py", [fresh])
        try #require(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("cells under"), "a table row split by an unescaped |: \(run.output)")
        let committed = try String(contentsOfFile: repositoryPath(Self.generated), encoding: .utf8)
        let regenerated = try String(contentsOfFile: fresh, encoding: .utf8)
        let firstDifference = zip(committed.split(separator: "\n"), regenerated.split(separator: "\n"))
            .first { $0.0 != $0.1 }
        #expect(
            committed == regenerated,
            "\(Self.generated) is stale: run `python3 Tools/reference/column_dictionary.py` (first difference: \(firstDifference.map { "\($0.0) → \($0.1)" } ?? "in length"))"
        )
        // the compiled-in table is the committed file (the plugin embeds it verbatim at build time)
        #expect(ColumnDictionary.table == committed, "the build did not embed \(Self.generated)")
        let size = try FileManager.default.attributesOfItem(atPath: repositoryPath(Self.generated))[.size] as? Int
        #expect((size ?? .max) <= 64 * 1024, "\(Self.generated) is \(size ?? -1) bytes: over 64 KiB")
    }

    /// Only tokens that can be a column's name are in the dictionary: words of a definition (under
    /// `accuracyStroop`: the other kinds' names, units, `null`, ResearchKit classes) are not, nor JSON-only keys,
    /// objects, arrays or dotted key paths; kinds reading the same articles share their rows instead of copying them.
    @Test func onlyColumnsAreDefinedAndNoRowIsCopied() {
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

        var rows: [String: [String]] = [:]  // row → the sections holding it
        var sections: [String: [String]] = [:]  // kind → its section lines
        var section = ""
        for line in ColumnDictionary.table.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                section = String(line)
                for kind in line.dropFirst().dropLast().split(separator: " ") {
                    sections[String(kind), default: []].append(section)
                }
            } else {
                rows[String(line), default: []].append(section)
            }
        }
        #expect(rows.filter { $0.value.count > 1 }.isEmpty, "rows written twice")
        #expect(sections["tremor"] == sections["balance"], "tremor and balance read the same articles")
        #expect(ColumnDictionary.entries["tremor"] == ColumnDictionary.entries["balance"])
        #expect(sections["tremor"]?.allSatisfy { $0.contains("balance") } == true)
    }

    /// The plugin's build step refuses a malformed table with the file and line, so a hand edit fails the build
    /// rather than losing rows at run time; a good one it embeds verbatim.
    @Test func theBuildStepRejectsAMalformedTable() throws {
        let dir = try E2E.temporaryDirectory("column-dictionary-embed")
        defer { E2E.remove(dir) }
        // the script the plugin runs with `swift`, compiled once here for the cases below
        let tool = dir.appendingPathComponent("embed")
        let compile = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-module-cache-path", dir.appendingPathComponent("cache").path,
                repositoryPath("Plugins/embed_column_dictionary.swift"), "-o", tool.path,
            ],
            mergeStandardError: true)
        try #require(compile.status == 0, "\(compile.stdout)")
        let table = dir.appendingPathComponent("ColumnDictionary.tsv").path
        let output = dir.appendingPathComponent("ColumnDictionary.swift").path
        let cases: [(text: String, message: String)] = [
            ("# c\n[walking]\ncadence\tsteps/min\tsteps per minute\n", ""),
            (
                "cadence\tsteps/min\tsteps per minute\n",
                "ColumnDictionary.tsv:1: error: a row before the first [kinds] line"
            ),
            ("[walking]\ncadence\tsteps/min\n", "ColumnDictionary.tsv:2: error: 2 tab-separated fields"),
            ("[walking]\ncadence\ts\ta\ncadence\ts\tb\n", "ColumnDictionary.tsv:3: error: cadence is defined twice"),
            ("[walking]\n\ncadence\ts\ta\n", "ColumnDictionary.tsv:2: error: an empty line"),
            ("[walking  tremor]\n", "ColumnDictionary.tsv:1: error: a section names kinds"),
            ("[walking]\ncadence\ts\ta", "ColumnDictionary.tsv:2: error: the file does not end with a newline"),
        ]
        for (text, message) in cases {
            try E2E.write(text, to: table)
            let run = try runProcess(tool, [table, output])
            if message.isEmpty {
                #expect(run.status == 0, "\(run.stderr)")
                let swift = try String(contentsOfFile: output, encoding: .utf8)
                #expect(swift.contains("static let table = #\"\"\"\n" + text + "\n\"\"\"#\n"), "\(swift)")
            } else {
                #expect(run.status == 1 && run.stderr.contains(message), "\(text): \(run.stderr)")
            }
        }
        // a definition holding the literal's delimiter gets a longer one
        try E2E.write("[walking]\nx\t\tends with \"\"\"# or \\#(\n", to: table)
        #expect(try runProcess(tool, [table, output]).status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("static let table = ##\"\"\"\n"))
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
        try #require(rows.first == ["file", "column", "unit", "definition", "type"])
        let studyTables: Set<String> = [
            "participant_day.csv", "participant_week.csv", "surveys_wide.csv", "adherence.csv",
        ]
        var expected: [[String]] = []
        let csvs = try FileManager.default.contentsOfDirectory(atPath: out)
            .filter { $0.hasSuffix(".csv") && $0 != "columns.csv" && $0 != "skipped.csv" && !studyTables.contains($0) }
            .sorted()
        #expect(csvs.count >= 20, "\(csvs)")
        for file in csvs {
            let header = try #require(E2E.csvRows(try String(contentsOfFile: out + "/" + file, encoding: .utf8)).first)
            expected += header.map { [file, $0] }
        }
        #expect(rows.dropFirst().map { Array($0.prefix(2)) } == expected)
        for row in rows.dropFirst() {
            #expect(row.count == 5, "\(row)")
            #expect(row.count == 5 && !row[3].isEmpty && row[3] != ColumnDictionary.undocumented, "\(row)")
            #expect(row.count == 5 && ["integer", "real", "boolean", "timestamp", "text"].contains(row[4]), "\(row)")
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
        #expect(dictionary.rows.first == ["file", "column", "unit", "definition", "type"])
        #expect(dictionary.rows[1][0] == "tremor.csv", "sorted by file name")
        let madeUp = dictionary.rows.first { $0[1] == "madeUpColumn" }
        #expect(madeUp == ["walking.csv", "madeUpColumn", "", ColumnDictionary.undocumented, "text"])
        #expect(ColumnDictionary.entry(kind: "walking", column: "stepCount")?.unit == "steps")
        #expect(ColumnDictionary.entry(kind: "stroop", column: "result_taskRunUUID") != nil)
        #expect(ColumnDictionary.entry(kind: "noSuchKind", column: "stepCount") == nil)
        // every task kind batch can write a CSV for has its articles in the generator's map
        for kind in AnalysisRegistry.taskKinds {
            #expect(ColumnDictionary.entries[kind.rawValue] != nil, "no articles for \(kind.rawValue).csv")
        }
    }
}
