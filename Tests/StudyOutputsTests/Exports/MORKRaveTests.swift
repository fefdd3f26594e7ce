import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// MORK that Rave accepts (issue 54 item 4).
///
/// `mork-readme.json` is the task behind MORK's README payload (GENDER, DOB, EXERCISE_FREQUENCY, PAIN_LEVEL and the
/// acknowledgement signature ACK_FIELD, answered on 2015-10-27), written by hand; the expected payload is the
/// README's, with its dates read as MORK's formatter writes them (`yyyy-MM-dd'T'hh:mm:ss`: the README's
/// `2015-27-10` swaps day and month).
@Suite struct MORKRaveTests {
    /// The README's `form_data` without `field_data`, as written (`log_line` a number).
    static let readmeEnvelope = """
        {"subject_name": "aabb99", "log_line": 1, "study_uuid": "a2c0da8c-4dfd-4ffd-b3d5-94c762086c2f",
         "folder_oid": "SUBJECT", "form_oid": "MYFORM", "site_oid": "Site", "version": "1.0",
         "signature_oid": "ACK_FIELD", "rave_url": "http://rave-url.example.com", "study_name": "MyStudy",
         "record_oid": "PCFORM_LOG_LINE", "subject_uuid": "bfe72729-ab34-4f97-bf03-18ea61fdc92e"}
        """

    static func configuration(_ text: String) throws -> MORKExport.Configuration {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mork-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try MORKExport.Configuration(file: path)
    }

    static func export(_ config: String, fixture: String = "mork-readme.json") throws
        -> (form: JSONObject, notes: [String])
    {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path(fixture))
        let results = AnalysisRegistry.analyze(input).flatMap(\.results)
        let records = try results.flatMap { try ExportRecord.records(of: $0.result) }
        let (document, notes) = try MORKExport.document(
            records, context: ExportContext(input: input), configuration: try configuration(config))
        return (try #require(document.objectValue?["form_data"]?.objectValue), notes)
    }

    @Test func theReadmeExampleRoundTripsWithItsEnvelopeAndSignatureDate() throws {
        for config in ["{\"envelope\": \(Self.readmeEnvelope)}", "{\"form_data\": \(Self.readmeEnvelope)}"] {
            let (form, notes) = try Self.export(config)
            #expect(form["log_line"] == .number(1), "written as given")
            #expect(form["subject_name"]?.stringValue == "aabb99" && form["form_oid"]?.stringValue == "MYFORM")
            #expect(form["signature_date_time_entered"]?.stringValue == "2015-10-27T17:04:35", "the signature's end")
            #expect(form["device_id"]?.stringValue == "DFEBA156-C012-4AD2-957C-9995829BC3A7")
            #expect(notes.isEmpty, "\(notes)")
            let items = (form["field_data"]?.arrayValue ?? []).compactMap(\.objectValue).map {
                [$0["data_value"]?.stringValue, $0["item_oid"]?.stringValue, $0["date_time_entered"]?.stringValue]
            }
            #expect(
                items == [
                    ["M", "GENDER", "2015-10-27T17:03:24"],
                    ["1990-12-04T20:10:30", "DOB", "2015-10-27T17:03:37"],
                    ["Sometimes", "EXERCISE_FREQUENCY", "2015-10-27T17:03:48"],
                    ["7", "PAIN_LEVEL", "2015-10-27T17:03:56"],
                ], "the acknowledgement is the form's signature (signature_oid), not an item")
            // The README's key order.
            #expect(
                form.keys.prefix(6) == [
                    "subject_name", "log_line", "study_uuid", "signature_date_time_entered",
                    "folder_oid", "form_oid",
                ])
        }
    }

    @Test func withoutASignatureOrDeviceIdentifierTheDefaultsAreSaid() throws {
        let envelope = Self.readmeEnvelope.replacingOccurrences(of: "\"signature_oid\": \"ACK_FIELD\",", with: "")
        let (form, notes) = try Self.export("{\"envelope\": \(envelope)}", fixture: "page-edited-boolean.json")
        #expect(form["device_id"]?.stringValue == "")
        #expect(notes.contains { $0.hasPrefix("device_id left empty") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("signature_date_time_entered is the export time") }, "\(notes)")
        // A configured date wins and is written as given.
        let dated = envelope.replacingOccurrences(
            of: "\"folder_oid\"", with: "\"signature_date_time_entered\": \"2015-27-10T17:04:35\", \"folder_oid\"")
        let (given, _) = try Self.export("{\"envelope\": \(dated)}", fixture: "page-edited-boolean.json")
        #expect(given["signature_date_time_entered"]?.stringValue == "2015-27-10T17:04:35")
    }

    @Test func perItemFormatsRoundAsConfigured() throws {
        let config = """
            {"envelope": \(Self.readmeEnvelope),
             "itemOIDs": {"PAIN_LEVEL": {"format": "3.1"}, "EXERCISE_FREQUENCY": {"oid": "EXFREQ", "format": "$9"},
                          "GENDER": {"oid": null}}}
            """
        let (form, _) = try Self.export(config)
        let items = (form["field_data"]?.arrayValue ?? []).compactMap(\.objectValue)
        let byOID = Dictionary(
            uniqueKeysWithValues: items.map { ($0["item_oid"]?.stringValue ?? "", $0["data_value"]?.stringValue ?? "") }
        )
        #expect(byOID["PAIN_LEVEL"] == "7.0")
        #expect(byOID["EXFREQ"] == "Sometimes" && byOID["GENDER"] == nil)
        // A value that does not fit is an error naming the item, never a truncation.
        let narrow = config.replacingOccurrences(of: "\"$9\"", with: "\"$8\"")
        #expect(throws: ExportError.self) { try Self.export(narrow) }
    }

    @Test(
        arguments: [
            ("3", "7.5", "8"), ("3", "-2.5", "-3"), ("2", "99.4", "99"), ("2", "99.5", nil), ("2+", "7", nil),
            ("2+", "12", "12"), ("5.2", "3.14159", "3.14"), ("5.2", "999.994", "999.99"), ("5.2", "999.995", nil),
            ("4.3", "0.0005", "0.001"), ("4.3", "-0.0004", "0.000"), ("3.1", "1e300", nil), ("3", "text", nil),
            ("$3", "abc", "abc"), ("$3", "abcd", nil),
        ] as [(String, String, String?)])
    func raveFormats(format: String, value: String, expected: String?) throws {
        let f = try #require(MORKExport.RaveFormat(format))
        #expect(f.description == format)
        #expect(f.format(value) == expected, "\(format) of \(value)")
    }

    @Test func malformedFormatsAndEnvelopesAreRefusedByName() throws {
        for bad in ["", "0", "x", "3.3", "3.0", "$0", "$", "1.", ".1", "99999", "3++"] {
            #expect(MORKExport.RaveFormat(bad) == nil, "\(bad)")
        }
        for config in [
            "{\"envelope\": {\"log_line\": 1.5}}", "{\"envelope\": {\"log_line\": true}}",
            "{\"itemOIDs\": {\"x\": {\"format\": \"n\"}}}", "{\"itemOIDs\": {\"x\": {\"oids\": \"A\"}}}",
            "{\"envelope\": {}, \"form_data\": {}}",
        ] {
            #expect(throws: ExportError.self, "\(config)") { try Self.configuration(config) }
        }
    }
}
