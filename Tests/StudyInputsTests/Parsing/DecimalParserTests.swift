import Foundation
import SensorSignal
import Testing

@testable import StudyInputs

/// The fast decimal parser must agree bit for bit with the C library's correctly rounded `strtod`.
@Suite struct DecimalParserTests {
    func parse(_ s: String) -> Double? {
        var bytes = Array(s.utf8)
        return bytes.withUnsafeMutableBufferPointer { DecimalParser.parse(UnsafeBufferPointer($0)) }
    }

    func reference(_ s: String) -> Double { strtod(s, nil) }

    func expectSame(_ s: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let got = parse(s)
        let want = reference(s)
        #expect(got?.bitPattern == want.bitPattern, "\(s): got \(String(describing: got)), strtod \(want)", sourceLocation: sourceLocation)
    }

    @Test func shortestRepresentationsRoundTrip() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300_000 {
            // Random bit patterns cover every exponent, subnormals included.
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let s = "\(d)"
            #expect(parse(s)?.bitPattern == d.bitPattern, "\(s)")
        }
    }

    @Test func longDecimalsMatchStrtod() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300_000 {
            // 15–25 significant digits with a random decimal exponent: exercises the 128-bit path,
            // truncation beyond 19 digits, and the fallback.
            let digits = 15 + Int(rng.next() % 11)
            var s = rng.next() % 2 == 0 ? "-" : ""
            s += String(1 + rng.next() % 9)
            for _ in 1..<digits { s += String(rng.next() % 10) }
            let point = Int(rng.next() % UInt64(digits))
            if point > 0 { s.insert(".", at: s.index(s.startIndex, offsetBy: point + (s.hasPrefix("-") ? 1 : 0))) }
            let e = Int(rng.next() % 660) - 340
            if rng.next() % 3 != 0 { s += "e\(e)" }
            expectSame(s)
        }
    }

    @Test func sensorLikeValuesMatchStrtod() {
        // The shapes real CoreMotion logs carry: 16–17 significant digits, magnitudes 1e-5…1e4.
        var rng = SplitMix64(seed: 3)
        for _ in 0..<200_000 {
            let v = (Double(rng.next() % 1_000_000_000) / 1e9 - 0.5) * pow(10, Double(rng.next() % 10) - 5)
            expectSame(String(format: "%.17g", v))
            expectSame(String(format: "%.16g", v))
            expectSame("\(v)")
        }
    }

    @Test(arguments: [
        "0", "-0", "0.0", "1", "-1", "0.1", "1e0", "1E+2", "1e-2", "123456789012345678901234567890",
        "9007199254740993", "9007199254740992.5", "9007199254740994.0000000000001", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "1.7976931348623157e308", "1.7976931348623158e308", "8.087158203125E-4", "8844.375467791668",
        "0.0016632080078125", "-1.013534545898438", "1714637485.123456789", "0.30000000000000004",
        "1e23", "8.98846567431158e307", "7.2057594037927933e16", "1.00000000000000011102230246251565404236316680908203125",
        "0.000000000000000000000000000000000000000000001", "1e-400", "1e400", "00012", "1.5e0000000000000000002",
    ])
    func edgeCasesMatchStrtod(_ s: String) {
        expectSame(s)
    }

    @Test(arguments: ["", "-", "+", ".", "1e", "1e+", "1.", "abc", "1.2.3", "1e5.5", "--1", "1-", "0x10", " 1", "1 "])
    func malformedNumbersAreRejected(_ s: String) {
        #expect(parse(s) == nil, "\(s) should not parse")
    }
}

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(InputError) -> JSONValue {
        try JSONParser.parse(Data(text.utf8), file: "doc.json")
    }

    func failure(_ text: String) -> InputError? {
        do {
            _ = try parse(text)
            return nil
        } catch { return error }
    }

    @Test func parsesEveryValueKind() throws {
        let v = try parse(#"{"a":[1,-2.5e3,true,false,null],"b":{"c":"x\"y\\z\u00e9\ud83d\ude00"},"a":7}"#)
        let o = try #require(v.objectValue)
        #expect(o.keys == ["a", "b", "a"])
        #expect(o["a"] == .number(7))  // a repeated key: the last value wins, as in JSONSerialization
        #expect(o.entries[0].value == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(o["b"]?.objectValue?["c"] == .string("x\"y\\zé😀"))
    }

    @Test func acceptsBOMAndWhitespace() throws {
        #expect(try JSONParser.parse(Data([0xEF, 0xBB, 0xBF] + Array(" \n\t[ 1 ]\r\n".utf8)), file: "f") == .array([.number(1)]))
    }

    @Test func errorsNameFileLineColumnAndPath() throws {
        let e = try #require(failure("{\"items\":[{\"x\":1},\n{\"x\":tru}]}"))
        #expect(e.kind == .syntax)
        #expect(e.file == "doc.json")
        #expect(e.location == "$.items[1].x (line 2, column 6)")
        #expect(e.description.hasPrefix("doc.json: at $.items[1].x (line 2, column 6): expected a value"))
    }

    @Test(arguments: [
        ("", "an empty document"), ("{\"a\":1", "',' or '}'"), ("[1,2", "',' or ']'"), ("{\"a\":NaN}", "NaN"),
        ("{\"a\":Infinity}", "Infinity"), ("{\"a\":-Infinity}", "-Infinity"), ("{\"a\":1e999}", "±1.8e308"),
        ("{\"a\":\"abc", "unterminated string"), ("{a:1}", "quoted object key"), ("[1] 2", "end of document"),
        ("{\"a\" 1}", "':'"), ("[\"\\q\"]", "valid escape"), ("[01x]", "found '01x'"), ("\u{1}", "byte 0x01"),
    ])
    func malformedDocumentsGiveSpecificErrors(text: String, mention: String) throws {
        let e = try #require(failure(text), "\(text) should fail")
        #expect(e.description.contains(mention), "\(e.description) should mention \(mention)")
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(failure(text)?.description.contains("nesting deeper") == true)
    }

    @Test func binaryGarbageIsASyntaxError() throws {
        var rng = SplitMix64(seed: 1)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        #expect(throws: InputError.self) { try JSONParser.parse(Data(bytes), file: "garbage.bin") }
    }

    @Test func everyTruncationOfADocumentFailsCleanly() throws {
        let text = #"{"_class":"ORKTaskResult","results":[{"x":1.5,"s":"a\u00e9"},[true,null]]}"#
        let bytes = Array(text.utf8)
        for cut in 0..<bytes.count {
            #expect(throws: InputError.self) { try JSONParser.parse(Data(bytes[0..<cut]), file: "cut.json") }
        }
        #expect(try JSONParser.parse(Data(bytes), file: "ok.json").objectValue != nil)
    }
}
