import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// `NaN`, `Infinity` and `-Infinity` where JSON needs a number (Python's `json.dumps`, pandas): recorder logs are
/// read with a warning counting them; everything else still refuses them by name.
@Suite struct NonFiniteJSONTests {
    @Test func onlyRecorderLogsReadThem() throws {
        // A ResearchKit result or any other JSON document: an error naming the literal.
        #expect(throws: InputError.self) { try JSONParser.parse(Data(#"{"a": NaN}"#.utf8), file: "x.json") }
        // Only the exact literals, followed by a delimiter.
        for bad in ["NaNa", "nan", "Inf", "+Infinity"] {
            let data = Data((#"{"items":[{"timestamp":0,"x":"# + bad + #","y":-1,"z":0}]}"#).utf8)
            #expect(throws: InputError.self, "\(bad)") { try RecorderLogDecoder.decode(data, file: "accel.json") }
        }
        // Another recorder's items (the tree reader): null, counted.
        let pedometer = Data(
            (#"{"items":[{"startDate":"2024-01-01T10:00:00+0000","endDate":"2024-01-01T10:00:10+0000","#
                + #""numberOfSteps":12,"distance":NaN}]}"#).utf8)
        let decoded = try RecorderLogDecoder.decode(pedometer, file: "pedometer.json")
        #expect(decoded.nonFiniteLiterals == 1 && decoded.droppedItems == 0)
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
}
