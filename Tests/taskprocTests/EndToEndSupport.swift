import Foundation
import TestSupport
import Testing

/// The exit statuses the command line documents today, in one place.
///
/// Sources: README "Exit statuses" (0 on success, non-zero on failure), docs/batch.md "Exit status"
/// (0 / 2 / 64 / 1), the `analyze` and `inspect` behaviour for partly unreadable inputs (2, docs/inputs.md), and
/// ArgumentParser's `ValidationError` (EX_USAGE, 64). Issue 15 will give data errors their own sysexits(3) codes
/// (65 for unreadable content, 66 for a missing input): update this table, not the tests.
enum ExpectedExit {
    static let success: Int32 = 0
    /// Partial: some inputs, parts or records could not be read or analysed; the rest was written.
    static let partlyUnreadable: Int32 = 2
    /// `batch`: some records failed (the rest analysed), without `--strict`.
    static let batchPartial: Int32 = 2
    /// `batch`: every record failed, or `--strict` and at least one failed (EX_DATAERR).
    static let batchFailed: Int32 = 65
    /// Bad option or combination (ArgumentParser's usage error, EX_USAGE).
    static let usage: Int32 = 64
    /// A readable input whose content taskproc cannot analyse (empty file, unknown format), an invalid
    /// configuration file or incompatible shards (EX_DATAERR).
    static let dataError: Int32 = 65
    /// An input path that does not exist, for every command (EX_NOINPUT).
    static let missingInput: Int32 = 66
    /// The same for `report`, `audiometry simulate`, `merge` and `batch`.
    static let missingInputOfStudyCommands: Int32 = 66
    /// `--output` names an existing file and no `--force` (EX_CANTCREAT).
    static let outputExists: Int32 = 73
    /// `synth` onto an existing file without `--force` (EX_CANTCREAT).
    static let synthOutputExists: Int32 = 73
    /// Writing an output failed (disk full, closed pipe) (EX_IOERR).
    static let ioError: Int32 = 74
}

/// Helpers of the end-to-end tests that run the built `taskproc` binary.
enum E2E {
    typealias Run = CommandLineEndToEndTests.Run

    /// Runs the built binary with the shared runner of the end-to-end tests (`CommandLineEndToEndTests.run`).
    static func run(_ arguments: [String]) throws -> Run { try CommandLineEndToEndTests().run(arguments) }

    /// A fresh temporary folder; the caller removes it (`defer { E2E.remove(dir) }`).
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "taskproc-e2e-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// `Tests/Fixtures/<relative>`.
    static func fixture(_ relative: String) -> String { fixturePath(relative) }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    // MARK: Parsing outputs (independently of the code under test)

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try json(text) as? [[String: Any]], "not a JSON array of objects: \(text.prefix(200))")
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try json(text) as? [String: Any], "not a JSON object: \(text.prefix(200))")
    }

    static func jsonLines(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try object(String($0)) }
    }

    /// An RFC 4180 reader (quoted fields, doubled quotes, commas and line breaks inside quotes).
    static func csvRows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        field.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" || c == "\r\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }

    /// A CSV as its header and one dictionary per row; every row must have the header's width.
    static func csvTable(_ text: String) throws -> (header: [String], rows: [[String: String]]) {
        let rows = csvRows(text)
        let header = try #require(rows.first, "empty CSV")
        var out: [[String: String]] = []
        for (i, row) in rows.dropFirst().enumerated() {
            try #require(row.count == header.count, "CSV row \(i + 1) has \(row.count) fields, header \(header.count)")
            out.append(Dictionary(uniqueKeysWithValues: zip(header, row)))
        }
        return (header, out)
    }

    /// A JSON number as a `Double`.
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    // MARK: FHIR

    /// The Observations of a FHIR Bundle.
    static func observations(_ bundle: [String: Any]) -> [[String: Any]] {
        (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
            .filter { $0["resourceType"] as? String == "Observation" }
    }

    /// `(system, code)` pairs of an Observation's `code.coding`.
    static func codings(_ observation: [String: Any]) -> [(system: String, code: String)] {
        ((observation["code"] as? [String: Any])?["coding"] as? [[String: Any]] ?? []).map {
            ($0["system"] as? String ?? "", $0["code"] as? String ?? "")
        }
    }

    /// An Observation's `valueQuantity.value`, or its `valueInteger`.
    static func value(_ observation: [String: Any]) -> Double? {
        number((observation["valueQuantity"] as? [String: Any])?["value"]) ?? number(observation["valueInteger"])
    }

    /// Runs the independent FHIR validator (`Tools/validators/fhir_validate.py`, the `fhir.resources` models) on
    /// bundle files; one call for many files, since its first use sets up a venv.
    static func validateFHIR(_ files: [String]) throws -> (status: Int32, output: String) {
        try runPythonScript("Tools/validators/fhir_validate.py", files)
    }

    // MARK: Synthetic inputs with known answers

    /// A synthetic mPower walk with a known step count.
    ///
    /// An mPower `accel_walking_*.json` (a bare JSON array of `{timestamp, x, y, z}` in g) of a phone moving with a
    /// pure step rhythm: gravity on −y plus `0.25 g · sin(2π f t)`. One acceleration peak per period, so the
    /// walk has `f · seconds` steps at a cadence of `60 f` steps/min, by construction.
    static func mPowerWalk(frequency: Double, seconds: Double, rate: Double = 100, start: Double = 100) -> String {
        let n = Int(seconds * rate)
        let items = (0..<n).map { i -> String in
            let t = Double(i) / rate
            let y = -1 + 0.25 * sin(2 * Double.pi * frequency * t)
            return "{\"timestamp\":\(start + t),\"x\":0,\"y\":\(y),\"z\":0}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// An mhealthtools tap table (`t,x,y,buttonid`) of `count` taps alternating left (x = 80) and right (x = 240)
    /// every 0.15 s: every tap is a depress event, so the R features see `count` taps.
    static func tapTable(count: Int) -> String {
        var text = "t,x,y,buttonid\n"
        for i in 0..<count {
            let left = i % 2 == 0
            text +=
                "\(Double(i) * 0.15),\(left ? 80 : 240),\(400 + i % 3),\(left ? "TappedButtonLeft" : "TappedButtonRight")\n"
        }
        return text
    }
}
