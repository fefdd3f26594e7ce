import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// The exports see typed results through ``JSONTreeEncoder``; Foundation's `JSONEncoder` (sorted keys), parsed
/// back, is the reference: the trees must be equal for every result type and for every `Encoder` feature.
@Suite struct JSONTreeEncoderTests {
    static func foundationTree(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONParser.parse(try encoder.encode(value), file: "reference")
    }

    static func fixture(_ relative: String) -> String {
        fixturePath(relative)
    }

    @Test func everyResultTypeEncodesAsFoundationWould() throws {
        let folder = TemporaryDirectory()
        let tone = folder.path("tone.wav")
        let samples = (0..<(3 * 48_000)).map { 0.3 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) }
        try AudioFileWriter.write([samples], sampleRate: 48_000, to: tone, format: .wav24)
        var options = AnalysisOptions()
        options.audio.soundLevel.calibration = SoundCalibration(sensitivityOffset: -23.3, source: "value")
        let inputs = [
            Self.fixture("audiometry/dbhl-task.json"), Self.fixture("researchkit/spl-meter.json"),
            Self.fixture("researchkit/tapping-task.json"), Self.fixture("researchkit/timed-walk-task.json"),
            Self.fixture("audiometry/legacy-tone-audiometry.json"),
            sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"),
            sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz"), tone,
        ]
        var kinds: Set<String> = []
        var compared = 0
        for path in inputs {
            for analysis in AnalysisRegistry.analyze(try AnalysisRegistry.load(path: path), options: options) {
                for result in analysis.results {
                    let tree = try JSONTreeEncoder.encode(result.result)
                    let reference = try Self.foundationTree(result.result)
                    #expect(tree == reference, "\(path): \(result.kind.rawValue)")
                    kinds.insert(result.kind.rawValue)
                    compared += 1
                }
            }
        }
        // Every registered analysis is covered (dB HL and legacy audiometry, its SPL step, taps, walks, audio).
        #expect(
            kinds == ["dBHLToneAudiometry", "toneAudiometry", "environmentSPLMeter", "tapping", "walking", "audio"])
        #expect(compared >= 9)
    }

    struct Everything: Encodable {
        struct Inner: Encodable {
            var a: Int
            var b: String?
        }
        var int64 = Int64.max
        var uint8: UInt8 = 200
        var float: Float = 0.1
        var double = -2.5e-300
        var flag = true
        var missing: String? = nil
        var date = Date(timeIntervalSinceReferenceDate: 12.25)
        var data = Data([0, 1, 2, 250])
        var url = URL(string: "https://example.org/a?b=c")!
        var map = ["z": 1, "A": 2, "é": 3, "10": 4, "9": 5]
        var nested = [[Inner(a: 1, b: nil)], []]
        var empty = [String: Int]()

        enum Key: String, CodingKey { case int64, uint8, float, double, flag, missing, date, data, url, map, nested }
        enum Sub: String, CodingKey { case x, y }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(int64, forKey: .int64)
            try c.encode(uint8, forKey: .uint8)
            try c.encode(float, forKey: .float)
            try c.encode(double, forKey: .double)
            try c.encode(flag, forKey: .flag)
            try c.encodeIfPresent(missing, forKey: .missing)
            try c.encode(date, forKey: .date)
            try c.encode(data, forKey: .data)
            try c.encode(url, forKey: .url)
            try c.encode(map, forKey: .map)
            try c.encode(nested, forKey: .nested)
            var sub = c.nestedContainer(keyedBy: Sub.self, forKey: .missing)
            try sub.encodeNil(forKey: .x)
            var list = sub.nestedUnkeyedContainer(forKey: .y)
            try list.encode(1)
            try list.encodeNil()
            var deeper = list.nestedContainer(keyedBy: Sub.self)
            try deeper.encode("v", forKey: .x)
            try Inner(a: 7, b: "s").encode(to: list.superEncoder())
            try Inner(a: 8, b: nil).encode(to: c.superEncoder())
        }
    }

    @Test func everyEncoderFeatureMatchesFoundation() throws {
        let value = Everything()
        let tree = try JSONTreeEncoder.encode(value)
        let reference = try Self.foundationTree(value)
        let texts = (try ResultEncoding.json(tree), try ResultEncoding.json(reference))
        #expect(tree == reference, "\(texts.0)\n\(texts.1)")
        #expect(try JSONTreeEncoder.encode([String: Int]()) == Self.foundationTree([String: Int]()))
    }

    @Test func nonFiniteNumbersAreRefusedAsFoundationRefusesThem() {
        #expect(throws: EncodingError.self) { try JSONTreeEncoder.encode([1.0, .nan]) }
        #expect(throws: EncodingError.self) { try JSONTreeEncoder.encode(["x": Float.infinity]) }
        #expect(throws: EncodingError.self) { _ = try Self.foundationTree([1.0, .nan]) }
    }

    /// The coding path of a refused number, `[i]` for an array index: what the error names.
    static func refusedPath(_ body: () throws -> Void) -> [String]? {
        do { try body() } catch EncodingError.invalidValue(_, let context) {
            return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        } catch { return nil }
        return nil
    }

    // The tree encoder makes a coding path only when a number is refused (none per array element); the path must
    // still be Foundation's, element index included.
    @Test func aRefusedNumberIsNamedByFoundationsCodingPath() throws {
        struct Channel: Encodable {
            var name: String
            var levels: [Double]
            var peak: Float
        }
        struct Summary: Encodable { var channels: [Channel] }
        let cases = [
            Summary(channels: [
                Channel(name: "a", levels: [1], peak: 0), Channel(name: "b", levels: [2, 3, .nan], peak: 0),
            ]),
            Summary(channels: [
                Channel(name: "a", levels: [], peak: 0), Channel(name: "b", levels: [1], peak: -.infinity),
            ]),
        ]
        let expected = [["channels", "[1]", "levels", "[2]"], ["channels", "[1]", "peak"]]
        for (value, path) in zip(cases, expected) {
            #expect(Self.refusedPath { _ = try JSONTreeEncoder.encode(value) } == path)
            #expect(Self.refusedPath { _ = try Self.foundationTree(value) } == path)
        }
        #expect(Self.refusedPath { _ = try JSONTreeEncoder.encode([[0.5], [1, .infinity]]) } == ["[1]", "[1]"])
        #expect(Self.refusedPath { _ = try JSONTreeEncoder.encode(["x": Double.nan]) } == ["x"])
    }
}
