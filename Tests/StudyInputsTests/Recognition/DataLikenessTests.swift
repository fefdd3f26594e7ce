import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// What a batch skips as not data, and what it keeps as a damaged data file (an error the user must see).
@Suite struct DataLikenessTests {
    /// Writes `text` to a new file named `name` and returns `notDataReason` of it.
    static func reason(_ name: String, _ text: String) throws -> String? {
        let folder = NSTemporaryDirectory() + "taskproc-likeness-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return DataLikeness.notDataReason(path: path)
    }

    /// `rows` lines of `time,x,y,z` samples (a walking table), with a header.
    static func samples(_ rows: Int, header: String = "time,x,y,z", separator: String = ",") -> String {
        var text = header + "\n"
        for i in 0..<rows {
            let t = Double(i) / 100
            text += ["\(t)", "\(sin(t))", "\(cos(t))", "\(-1 + 0.1 * sin(3 * t))"].joined(separator: separator) + "\n"
        }
        return text
    }

    @Test func documentsAndSmallTablesAreNotData() throws {
        let license =
            String(repeating: "Permission is hereby granted, free of charge, to any person obtaining\n", count: 20)
            + "a copy of this software, to deal in the Software without restriction\n"
        let reasons = [
            try Self.reason("LICENSE.txt", "MIT License\n\n" + license),
            try Self.reason("truth.csv", "step,time_s,foot\n1,0.52,L\n2,1.03,R\n3,1.55,L\n"),
            try Self.reason("participants.csv", "subject,age,height_cm\nS01,34,172\n"),
            try Self.reason("device.csv", "property,value\ndeviceModel,Pixel 7\ndeviceBrand,google\n"),
            try Self.reason("metadata.json", #"{"name": "dataset", "version": 2, "license": "CC-BY"}"#),
            try Self.reason("LICENSE", "MIT License\n\nPermission is hereby granted\n"),
            try Self.reason("blob.bin", "\u{0}\u{1}\u{2}binary"),
        ]
        for r in reasons { #expect(r != nil) }
        #expect(
            reasons[1]?.contains("3 rows and 3 columns (step, time_s, foot), 2 numeric") == true, "\(reasons[1] ?? "")")
        #expect(reasons[4]?.contains("keys: name, version, license") == true)
        #expect(reasons[5]?.hasPrefix("a text file") == true)
        #expect(reasons[6]?.hasPrefix("a binary file") == true)
    }

    @Test func sensorTablesAndDamagedDataFilesAreData() throws {
        // Unknown column names but sensor-shaped (needs an option): data.
        #expect(try Self.reason("shimmer.tsv", Self.samples(50, header: "ms\tA\tB\tC", separator: "\t")) == nil)
        // One bad row in a sensor table: still data.
        var damaged = Self.samples(50)
        damaged += "oops,not,a,number\n"
        #expect(try Self.reason("walk.csv", damaged) == nil)
        // A header naming axes, the rows cut off: data (damaged).
        #expect(try Self.reason("tap.csv", #""t","x","y"#) == nil)
        #expect(try Self.reason("walk.csv", "time,acc_x,acc_y,acc_z\n") == nil)
        // Recognised by the header: data.
        #expect(try Self.reason("taps.csv", "t,x,y,buttonid\n") == nil)
        // ResearchKit results and recorder logs, even broken: data.
        #expect(try Self.reason("task.json", #"{"_class": "ORKTaskResult", "results": [}"#) == nil)
        #expect(try Self.reason("log.json", #"{"items": [{"x": 1"#) == nil)
        // A .json that is not JSON: a damaged data file.
        #expect(try Self.reason("result.json", "<html>502 Bad Gateway</html>") == nil)
        // A JSON document full of numbers (an unknown recording format): data.
        let numbers = (0..<200).map { "\($0).5" }.joined(separator: ",")
        #expect(try Self.reason("konectom.json", #"{"acc": ["# + numbers + "]}") == nil)
        // Named as data: never asked about the content.
        #expect(try Self.reason("rec.wav", "not a wav") == nil)
        #expect(try Self.reason("empty.csv", "") == nil)
    }

    /// A JSON file that is no format taskproc reads is labelled so, not as the format it was tried as.
    @Test func unreadableJSONIsLabelledUnrecognised() throws {
        let folder = NSTemporaryDirectory() + "taskproc-labels-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(String, String, InputDialect)] = [
            ("konectom.json", #"{"session": {"test": "U-Turn"}, "sensors": {"acc": [[0, 1, 2]]}}"#, .unrecognised),
            ("listener.json", #"[{"frequency": 1000, "threshold": 20}]"#, .unrecognised),
            ("page.json", "<html>502</html>", .unrecognised),
            ("task.json", #"{"_class": "ORKTaskResult", "results": 3}"#, .researchKitResult),
        ]
        for (name, text, dialect) in cases {
            let path = folder + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let input = try AnalysisRegistry.load(path: path)
            #expect(input.dialect == dialect, "\(name)")
            #expect(!input.errors.isEmpty, "\(name)")
        }
    }
}
