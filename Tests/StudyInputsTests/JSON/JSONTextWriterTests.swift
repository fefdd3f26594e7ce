import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// The export documents are written by ``JSONTextWriter``; Foundation's `JSONEncoder` (sorted keys, slashes
/// unescaped, pretty or compact) is the reference: the text must be the same bytes, and a NaN or ±∞ the same error.
@Suite struct JSONTextWriterTests {
    /// The reference: the generic `ResultEncoding.json(_:)` / `compactJSON(_:)`, which go through `JSONEncoder`.
    static func foundation<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        pretty ? try ResultEncoding.json(value) : try ResultEncoding.compactJSON(value)
    }

    static func writer(_ value: JSONValue, pretty: Bool) throws -> String {
        pretty ? try ResultEncoding.json(value) : try ResultEncoding.compactJSON(value)
    }

    /// Every export of every analysed kind (and the MyDataHelps survey, whose answers carry people's text), in
    /// both forms.
    @Test func everyExportIsWrittenAsFoundationWould() throws {
        let folder = TemporaryDirectory()
        let tone = folder.path("tone.wav")
        let samples = (0..<(2 * 48_000)).map { 0.3 * sin(2 * Double.pi * 1000 * Double($0) / 48_000) }
        try AudioFileWriter.write([samples, samples], sampleRate: 48_000, to: tone, format: .wav24)
        let fixtures = [
            "audiometry/dbhl-task.json", "researchkit/spl-meter.json", "researchkit/tapping-task.json",
            "researchkit/timed-walk-task.json", "audiometry/legacy-tone-audiometry.json",
            "mydatahelps-survey/SurveyResults.json",
        ]
        let inputs =
            fixtures.map(fixturePath) + [
                sharedDataPath("mpower-samples/mhealthtools_tap_data.csv"),
                sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz"), tone,
            ]
        var mork = MORKExport.Configuration()
        for field in MORKExport.requiredFields { mork.envelope[field] = "S/1 \"é\"" }
        var compared = 0
        var bytes = 0
        for path in inputs {
            let input = try AnalysisRegistry.load(path: path)
            for analysis in AnalysisRegistry.analyze(input, options: AnalysisOptions()) {
                let records = try ExportRecord.records(of: AnalysedResults(analysis.results))
                for format in OutputFormat.allCases where format.isExport {
                    let options = ExportOptions(
                        context: ExportContext(input: input, exportedAt: Date(timeIntervalSince1970: 1_800_000_000)),
                        mork: mork)
                    // A MORK form is one participant's: the survey fixture's two participants are refused.
                    guard let document = try? Export.render(records, as: format, options: options) else {
                        #expect(format == .mork && path.hasSuffix("SurveyResults.json"))
                        continue
                    }
                    for pretty in [true, false] {
                        let text = try Self.writer(document, pretty: pretty)
                        #expect(text == (try Self.foundation(document, pretty: pretty)), "\(path) \(format) \(pretty)")
                        bytes += text.utf8.count
                        compared += 1
                    }
                }
            }
        }
        #expect(compared >= 48)
        #expect(bytes > 100_000)
    }

    /// Text pieces that stress keys and strings: case, digits, escapes, control characters, `/`, DEL, U+2028, a BOM,
    /// composed and decomposed `é` (equal as Swift strings, different bytes), emoji, CR LF.
    static let pieces = [
        "a", "B", "z", "Z", "_", "0", "9", "10", "é", "e\u{301}", "ä", "\u{1F600}", "\"", "\\", "/", "\n", "\r\n",
        "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{FEFF}", " ", "stepCount", "LAeq", "ü", "Z\u{308}",
    ]

    static func text(_ r: inout SplitMix64) -> String {
        (0..<Int.random(in: 0..<4, using: &r)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &r)] }.joined()
    }

    static func number(_ r: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<8, using: &r) {
        case 0: return Double(Int64(bitPattern: r.next()) >> Int.random(in: 0..<64, using: &r))
        case 1:
            let d = Double(bitPattern: r.next())
            return d.isFinite ? d : 0.5
        case 2:
            return Double(Int.random(in: 0..<2_000_001, using: &r) - 1_000_000)
                / Double([1, 10, 100, 1000, 3, 7][Int.random(in: 0..<6, using: &r)])
        case 3:
            let edges: [Double] = [
                0, -0.0, 1e15, 1e16, 1e17, 0x1p53 + 2, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            ]
            return edges[Int.random(in: 0..<edges.count, using: &r)]
        case 4:
            return Double(Int.random(in: 0..<1000, using: &r)) * pow(10, Double(Int.random(in: 0..<60, using: &r) - 30))
        case 5: return -Double(Int.random(in: 0..<100, using: &r))
        case 6:
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: r.next()))
            return f.isFinite ? Double(f) : 0.25
        default: return Double(r.next() >> 11) / Double(1 << 53)
        }
    }

    static func tree(_ r: inout SplitMix64, depth: Int) -> JSONValue {
        switch depth > 3 ? Int.random(in: 0..<4, using: &r) : Int.random(in: 0..<6, using: &r) {
        case 0: return .null
        case 1: return .bool(Int.random(in: 0..<2, using: &r) == 0)
        case 2: return .number(number(&r))
        case 3: return .string(text(&r))
        case 4: return .array((0..<Int.random(in: 0..<4, using: &r)).map { _ in tree(&r, depth: depth + 1) })
        default:
            // Repeated keys on purpose: a small key pool, sometimes the same key twice.
            return .object(
                JSONObject((0..<Int.random(in: 0..<6, using: &r)).map { _ in (text(&r), tree(&r, depth: depth + 1)) }))
        }
    }

    @Test func randomTreesAreWrittenAsFoundationWould() throws {
        var r = SplitMix64(seed: 20_261_127)
        var objectsWithRepeats = 0
        for i in 0..<3000 {
            let value = Self.tree(&r, depth: 0)
            if case .object(let o) = value, Set(o.keys).count < o.keys.count { objectsWithRepeats += 1 }
            for pretty in [true, false] {
                let text = try Self.writer(value, pretty: pretty)
                let reference = try Self.foundation(value, pretty: pretty)
                #expect(text == reference, "tree \(i), pretty \(pretty)")
                if text != reference { return }
            }
        }
        #expect(objectsWithRepeats > 50)
    }

    /// A NaN or ±∞ anywhere gives the error `JSONEncoder`'s path gives (the generic `ResultEncoding.json(_:)`, which
    /// words `JSONEncoder`'s error), naming the same (first) field, in both forms (the generic `compactJSON(_:)`
    /// passes `JSONEncoder`'s raw error on).
    @Test func nonFiniteNumbersAreTheSameErrorAsFoundations() throws {
        func poisoned(_ value: JSONValue, _ r: inout SplitMix64) -> JSONValue {
            switch value {
            case .number:
                return Int.random(in: 0..<3, using: &r) == 0
                    ? .number([.nan, .infinity, -.infinity][Int.random(in: 0..<3, using: &r)]) : value
            case .array(let items): return .array(items.map { poisoned($0, &r) })
            case .object(let o): return .object(JSONObject(o.entries.map { ($0.key, poisoned($0.value, &r)) }))
            default: return value
            }
        }
        var r = SplitMix64(seed: 7)
        var errors = 0
        for _ in 0..<1500 {
            let value = poisoned(Self.tree(&r, depth: 0), &r)
            var reference: String?
            do { _ = try Self.foundation(value, pretty: true) } catch { reference = "\(error)" }
            for pretty in [true, false] {
                var mine: String?
                do { _ = try Self.writer(value, pretty: pretty) } catch { mine = "\(error)" }
                #expect(mine == reference)
                if mine != nil { errors += 1 }
            }
        }
        #expect(errors > 300)
        #expect(throws: ExportError("field (top level): nan is not a finite number")) {
            try ResultEncoding.json(JSONValue.number(.nan))
        }
        let inner = JSONValue.object(JSONObject([("b", .number(-.infinity))]))
        let nested = JSONValue.object(JSONObject([("a", .array([.number(1), inner]))]))
        #expect(throws: ExportError("field a[1].b: -inf is not a finite number")) { try ResultEncoding.json(nested) }
    }

    /// A repeated key is written once: its first spelling (composed or decomposed `é` are one key), its last value,
    /// at its first place; other keys keep their order.
    @Test func repeatedKeysKeepTheirFirstSpellingAndLastValue() throws {
        let object = JSONObject([
            ("é", .number(1)), ("b", .number(2)), ("e\u{301}", .number(3)), ("a", .null), ("b", .number(4)),
        ])
        let unique = object.uniqueEntries
        #expect(unique.map(\.key) == ["é", "b", "a"])
        #expect(unique.map { $0.key.unicodeScalars.count } == [1, 1, 1])
        #expect(unique.map(\.value) == [.number(3), .number(4), .null])
        #expect(unique.map(\.value) == unique.map { object[$0.key] })
        #expect(try ResultEncoding.compactJSON(.object(object)) == #"{"a":null,"b":4,"é":3}"#)
        let plain = JSONObject([("x", .number(1)), ("y", .number(2))])
        #expect(plain.uniqueEntries.map(\.key) == ["x", "y"])
        // Past 16 entries the repeats are found through a table: the same answer as the subscript's.
        let large = JSONObject(
            (0..<40).map { ("k\($0 % 25)", .number(Double($0))) } + [("e\u{301}", .null), ("é", .bool(true))])
        let largeUnique = large.uniqueEntries
        #expect(largeUnique.map(\.key) == (0..<25).map { "k\($0)" } + ["e\u{301}"])
        #expect(largeUnique.map(\.value) == largeUnique.map { large[$0.key] })
        #expect(largeUnique[0].value == .number(25))
    }
}
