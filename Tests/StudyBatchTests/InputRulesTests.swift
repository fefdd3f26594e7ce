import ActiveTasks
import Foundation
import TestSupport
import Testing

@testable import StudyBatch
@testable import StudyInputs

/// `--input-config` patterns and the file's errors.
@Suite struct InputRulesTests {
    static func rule(_ match: String) -> InputRule {
        InputRule(match: match, arguments: [], analysis: AnalysisOptions())
    }

    @Test(arguments: [
        ("*.tsv", "shimmer/S01/walk.tsv", true),  // no '/': the file name, anywhere
        ("*.tsv", "walk.tsv.gz", false),
        ("Raw Data.csv", "phyphox/run 1/Raw Data.csv", true),
        ("shimmer/*.tsv", "shimmer/walk.tsv", true),
        ("shimmer/*.tsv", "shimmer/S01/walk.tsv", false),  // '*' stops at '/'
        ("shimmer/**/*.tsv", "shimmer/walk.tsv", true),  // '**' is zero or more components
        ("shimmer/**/*.tsv", "shimmer/a/b/walk.tsv", true),
        ("**/xsens/*.txt", "study/xsens/MT_01.txt", true),
        ("xsens/MT_0?.txt", "xsens/MT_01.txt", true),
        ("xsens/MT_0?.txt", "xsens/MT_011.txt", false),
        ("S*_Accel.csv", "S14_Accel.csv", true),
        ("s*_accel.csv", "S14_Accel.csv", false),  // case-sensitive
        ("exports/*/walk.csv", "exports.zip/p1/walk.csv", false),
        ("exports.zip/*/walk.csv", "exports.zip!/p1/walk.csv", true),  // inside an archive: '!/' read as '/'
        ("café/*.csv", "café/x.csv", true),
        ("caf?/*.csv", "café/x.csv", true),  // '?' is one character, not one byte
    ])
    func patterns(pattern: String, path: String, matches: Bool) {
        #expect(Self.rule(pattern).matches(path) == matches)
    }

    @Test func relativePathsAreTakenFromTheInputTheRecordWasFoundIn() {
        let inputs = [RecordDiscovery.Input("downloads"), RecordDiscovery.Input("more/export.zip")]
        #expect(InputRule.relativePath(of: "downloads/shimmer/a.tsv", inputs: inputs) == "shimmer/a.tsv")
        #expect(InputRule.relativePath(of: "more/export.zip!/p1/a.csv", inputs: inputs) == "export.zip/p1/a.csv")
        #expect(InputRule.relativePath(of: "downloads", inputs: inputs) == "downloads")
    }

    @Test func theFirstMatchingRuleGivesTheOptions() {
        var tab = AnalysisOptions()
        tab.loader.accelerometerCSV.sampleRate = 100
        var other = AnalysisOptions()
        other.loader.accelerometerCSV.sampleRate = 50
        var configuration = BatchConfiguration(inputs: [.init("in")])
        configuration.inputRules = [
            InputRule(match: "xsens/*.txt", arguments: ["--sample-rate", "100"], analysis: tab),
            InputRule(match: "*.txt", arguments: ["--sample-rate", "50"], analysis: other),
        ]
        let base = AnalysisOptions()
        #expect(configuration.options(for: "in/xsens/a.txt", base: base).loader.accelerometerCSV.sampleRate == 100)
        #expect(configuration.options(for: "in/b/a.txt", base: base).loader.accelerometerCSV.sampleRate == 50)
        #expect(configuration.options(for: "in/a.csv", base: base) == base)
    }

    @Test func badFilesAreErrorsThatNameTheFileAndTheProblem() throws {
        let folder = try BatchSupport.temporaryFolder("rules")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func error(_ text: String) throws -> String {
            let path = folder + "/rules.json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try InputRulesFile.read(path)
                return "no error"
            } catch {
                return error.message
            }
        }
        #expect(try error("[]").contains("rules.json: expected {\"rules\""))
        #expect(try error(#"{"rules": [{"options": []}]}"#).hasSuffix("missing \"match\" at $.rules[0]"))
        #expect(
            try error(#"{"rules": [{"match": "*.csv", "options": "--delimiter tab"}]}"#).hasSuffix(
                "wrong type at $.rules[0].options"))
        #expect(
            try error(#"{"rules": [{"match": "", "options": []}]}"#).hasSuffix("rule 1 has an empty \"match\" pattern"))
        #expect(try error(#"{"rules": [{"match": "*.csv", "options": ["--delimiter", "tab"]}]}"#) == "no error")
        #expect(throws: BatchError.self) { try InputRulesFile.read(folder + "/missing.json") }
    }
}
