import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// `NaN`, `Infinity` and `-Infinity` where JSON needs a number (Python's `json.dumps`, pandas): data files are
/// read with a warning counting them; everything else still refuses them by name.
@Suite struct NonFiniteJSONTests {
    @Test func theTreeParserReadsThemAsNullOnlyWhenAsked() throws {
        let text = Data(#"{"a": NaN, "b": [1, Infinity, -Infinity], "c": 2, "d": "NaN"}"#.utf8)
        #expect(throws: InputError.self) { try JSONParser.parse(text, file: "x.json") }
        var count = 0
        let value = try JSONParser.parse(text, file: "x.json", nonFinite: &count)
        #expect(count == 3)
        #expect(value.objectValue?["a"] == .null)
        #expect(value.objectValue?["b"] == .array([.number(1), .null, .null]))
        #expect(value.objectValue?["d"] == .string("NaN"))
        // Only the exact literals, followed by a delimiter.
        for bad in [#"{"a": NaNa}"#, #"{"a": nan}"#, #"{"a": Inf}"#, #"{"a": +Infinity}"#] {
            var n = 0
            #expect(throws: InputError.self, "\(bad)") {
                try JSONParser.parse(Data(bad.utf8), file: "x.json", nonFinite: &n)
            }
        }
    }

    @Test func recorderLogsDropTheSamplesHoldingThemWithAWarning() throws {
        var items: [String] = []
        for i in 0..<20 { items.append(#"{"timestamp":\#(Double(i) / 100),"x":0.01,"y":-1,"z":0.02}"#) }
        items[3] = #"{"timestamp":0.03,"x":NaN,"y":-1,"z":0.02}"#
        items[7] = #"{"timestamp":0.07,"x":0.01,"y":-Infinity,"z":Infinity}"#
        let data = Data((#"{"items":["# + items.joined(separator: ",") + "]}").utf8)
        let decoded = try RecorderLogDecoder.decode(data, file: "accel.json")
        #expect(decoded.nonFiniteLiterals == 3)
        #expect(decoded.droppedItems == 2)
        guard case .accelerometer(let log) = decoded.log else {
            Issue.record("not an accelerometer log")
            return
        }
        #expect(log.timestamp.count == 18)
        #expect(!log.timestamp.contains(0.03) && !log.timestamp.contains(0.07))
        #expect(log.acceleration.x.allSatisfy(\.isFinite) && log.acceleration.y.allSatisfy(\.isFinite))

        let folder = NSTemporaryDirectory() + "taskproc-nonfinite-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/accel.json"
        try data.write(to: URL(fileURLWithPath: path))
        let input = try AnalysisRegistry.load(path: path)
        let warned = input.problems.contains { problem in
            problem.severity == .warning
                && problem.message.hasPrefix("3 NaN/Infinity literal(s), which JSON does not allow")
                && problem.message.hasSuffix("the 2 sample(s) holding them dropped")
        }
        #expect(warned, "\(input.problems)")
    }

    @Test func researchKitResultsSayHowManyTheyRead() throws {
        let text =
            #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"2D4E0C3C-0D6B-4C68-9B4F-6C0B6C6F1A11","startDate":"2024-01-01T10:00:00+0000","endDate":"2024-01-01T10:01:00+0000","results":[{"_class":"ORKStepResult","identifier":"q","startDate":"2024-01-01T10:00:00+0000","endDate":"2024-01-01T10:01:00+0000","results":[{"_class":"ORKNumericQuestionResult","identifier":"q","numericAnswer":NaN,"questionType":4}]}]}"#
        let document = try ResearchKitDecoder.decode(Data(text.utf8), file: "task.json")
        #expect(document.warnings.contains { $0.kind == .nonFiniteLiteral && $0.message.hasPrefix("1 NaN/Infinity") })
    }
}
