import Foundation
import TestSupport
import Testing

@testable import StudyBatch
@testable import StudyInputs

/// The batch's JSON string writer against `JSONEncoder` (`.withoutEscapingSlashes`), the reference.
@Suite struct JSONTextStringTests {
    @Test func everyASCIICharacterAndSomeBeyondAreWrittenAsJSONEncoderWritesThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["", "a/b\\c\"d", "Müller", "€", "\u{1F600}", "\u{2028}\u{2029}", "\u{7F}", "line\nbreak\ttab", "é\u{301}"]
        for text in samples {
            let reference = String(decoding: try encoder.encode(text), as: UTF8.self)
            #expect(JSONText.string(text) == reference, "\(Array(text.unicodeScalars.map(\.value)))")
        }
    }

    @Test func csvFieldsAreQuotedExactlyWhenRFC4180RequiresIt() {
        #expect(ResultEncoding.csvField("plain") == "plain")
        #expect(ResultEncoding.csvField("Müller €") == "Müller €")
        #expect(ResultEncoding.csvField("a,b") == "\"a,b\"")
        #expect(ResultEncoding.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ResultEncoding.csvField("two\nlines") == "\"two\nlines\"")
        #expect(ResultEncoding.csvField("cr\r") == "\"cr\r\"")
        #expect(ResultEncoding.csvField("crlf\r\n") == "\"crlf\r\n\"")
    }
}

/// The journal's hand-written tables JSON against `JSONEncoder` (sorted keys, slashes unescaped), the reference.
@Suite struct JournalTablesJSONTests {
    @Test func tablesAreWrittenAsJSONEncoderWritesThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let cases: [[BatchEntry.Table]] = [
            [],
            [.init(kind: "walking", header: [], rows: [])],
            [
                .init(kind: "walking", header: ["a/b", "c\"d"], rows: [["1", ""], ["x,y", "line\nbreak\u{1}"]]),
                .init(kind: "audio", header: ["é"], rows: [["\u{1F600}"]]),
            ],
        ]
        for tables in cases {
            let reference = String(decoding: try encoder.encode(tables), as: UTF8.self)
            #expect(BatchJournal.tablesJSON(tables) == reference)
        }
    }
}
