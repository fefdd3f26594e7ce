import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import StudyInputs

/// Paths to the shared sample data (relative to the repo root); the dialect fixtures are `fixturePath(_:)`'s.
enum DialectFixtures {
    /// `../shared/data/<relative>`: tests run from the repository root.
    static func shared(_ relative: String) -> String { "../shared/data/" + relative }
}

/// One malformed input and the exact error it must produce.
struct DialectBadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let kind: InputError.Kind
    let location: String?
    /// Text that must appear in the error's one-line description.
    let messagePart: String
    let run: @Sendable () throws -> Void

    var testDescription: String { name }

    /// Runs the case and checks kind, location and message.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try run()
            Issue.record("\(name): no error was thrown", sourceLocation: sourceLocation)
        } catch let error as InputError {
            #expect(error.kind == kind, "\(name): \(error)", sourceLocation: sourceLocation)
            #expect(error.location == location, "\(name): \(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(messagePart), "\(name): \(error)", sourceLocation: sourceLocation)
            #expect(
                error.file == "bad.csv" || error.file == "bad.json", "\(name): \(error)", sourceLocation: sourceLocation
            )
        } catch {
            Issue.record("\(name): not an InputError: \(error)", sourceLocation: sourceLocation)
        }
    }
}

@Suite struct CSVTests {
    // MARK: RFC 4180 core

    @Test func rfc4180FixtureQuotingBOMAndCRLF() throws {
        let table = try CSVTable.read(path: fixturePath("csv/rfc4180.csv"))
        #expect(table.header == ["id", "name", "note", "value"])  // BOM not part of the first name
        #expect(table.headerLine == 1)
        #expect(table.rowCount == 4)
        #expect(table.columnCount == 4)
        #expect(table.string(row: 1, column: 1) == "with, comma")
        #expect(table.string(row: 1, column: 2) == "say \"hi\"")
        #expect(table.string(row: 2, column: 1) == "two\r\nlines")
        #expect(table.string(row: 3, column: 1) == "")
        #expect(table.isBlank(row: 0, column: 2))
        // The quoted line break moves the next record to line 6.
        #expect((0..<4).map { table.line(ofRow: $0) } == [2, 3, 4, 6])
        #expect(try table.numbers(column: 3) == [0.5, -1.25e-3, 42, 7])
        #expect(table.columnIndex(named: " NAME ") == 1)
        #expect(table.location(row: 3, column: 0) == "line 6, column 1")
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEndingsAreEquivalent(newline: String) throws {
        let text = ["a,b", "1,\"x\(newline)y\"", "", "2,z"].joined(separator: newline) + newline
        let table = try CSVTable.parse(Data(text.utf8), file: "t.csv")
        #expect(table.rowCount == 2)  // the empty line is skipped
        #expect(table.string(row: 0, column: 1) == "x\(newline)y")
        #expect(table.line(ofRow: 1) == 5)
        #expect(try table.numbers(column: 0) == [1, 2])
    }

    @Test func trailingCommaAndMissingFinalNewline() throws {
        let table = try CSVTable.parse(Data("a,b\n1,".utf8), file: "t.csv")
        #expect(table.rowCount == 1)
        #expect(table.string(row: 0, column: 1) == "")
    }

    @Test(arguments: [
        ("t,x\n0,1\n", true),  // names over numbers
        ("0,1\n0.5,2\n", false),  // numbers only
        ("1582654711262,2020-02-25T18:18:31.262,1\n1582654711363,2020-02-25T18:18:31.363,2\n", false),  // text in data
        ("time,UTC time\n1,2020-02-25\n", true),
        ("a,b\n", true),  // one record of text
    ])
    func headerDetection(text: String, hasHeader: Bool) throws {
        let table = try CSVTable.parse(Data(text.utf8), file: "t.csv", header: .detect)
        #expect((table.header != nil) == hasHeader)
    }

    @Test func jsonCellsAreParsedAndErrorsPointIntoTheCell() throws {
        let text = "k,json\n1,\"{\"\"a\"\":[1,2]}\"\n2,\"[1,\"\"x\"\" oops]\"\n"
        let table = try CSVTable.parse(Data(text.utf8), file: "t.csv")
        #expect(try table.json(row: 0, column: 1) == .object(JSONObject([("a", .array([.number(1), .number(2)]))])))
        let error = try #require(throws: InputError.self) { try table.json(row: 1, column: 1) }
        #expect(error.kind == .syntax)
        #expect(error.location == "line 3, column 2, cell $ (line 1, column 8)")
        #expect(error.description.contains("does not hold valid JSON"))
    }

    @Test func numbersMatchTheCorrectlyRoundedParser() throws {
        let values = ["0.1", "-2.5e-7", "1e21", "123456789012345678901234", "  3.25 ", "\"9.75\"", "+4", "5E+2"]
        let text = "v\n" + values.joined(separator: "\n") + "\n"
        let table = try CSVTable.parse(Data(text.utf8), file: "t.csv")
        let expected = values.map { strtod($0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")), nil) }
        #expect(try table.numbers(column: 0).map(\.bitPattern) == expected.map(\.bitPattern))
    }

    // MARK: Accelerometer CSV on real data

    /// Oxford step-counter files, their ground-truth step totals (cumulative column 6), rows and duration (s).
    static let oxford: [(String, Int, Int, Double)] = [
        ("user1_hand_1506421989895", 326, 19405, 193.98),
        ("user1_frontpocket_1506422223341", 327, 19311, 192.21),
        ("user1_backpocket_1506422470497", 343, 20698, 206.95),
        ("user1_neckpouch_1506422851785", 346, 19965, 200.01),
    ]

    @Test(arguments: oxford)
    func oxfordFilesDetectNanosecondsAndMetresPerSecondSquared(name: String, steps: Int, rows: Int, duration: Double)
        throws
    {
        let out = try AccelerometerCSVReader.read(path: DialectFixtures.shared("oxford-step-counter/\(name).csv.gz"))
        #expect(out.columnNames == nil)
        #expect(out.log.timestamp.count == rows)
        #expect(out.timeUnit == .nanoseconds && out.timeUnitDetected)
        #expect(out.recordedUnit == .metersPerSecondSquared && out.recordedUnitDetected)
        #expect(out.log.unit == .metersPerSecondSquared)  // kept as recorded
        #expect(out.timeBase == .deviceClock && out.log.timestampSince1970 == nil)
        let dt = try #require(out.medianInterval)
        #expect(dt > 0.0093 && dt < 0.0100)
        #expect(abs(out.log.timestamp.last! - out.log.timestamp.first! - duration) < 0.01)
        #expect(out.medianMagnitude > 9.5 && out.medianMagnitude < 10.5)
        // Extra columns 5–7: steps_algo, steps_ground_truth, steps_hw_counter (cumulative).
        #expect(out.extraColumns.map(\.name) == ["column 5", "column 6", "column 7"])
        let truth = try #require(out.extraColumn(named: "column 6"))
        #expect(Int(truth.last!) == steps)
        let events = zip(truth, truth.dropFirst()).filter { $1 == $0 + 1 }.count
        #expect(events == steps)
        #expect(out.extraColumn(named: "column 7")!.allSatisfy { $0 == 0 })
    }

    @Test(arguments: oxford)
    func oxfordPresetNamesTheStepColumnsAndConvertsOnlyWhenAsked(name: String, steps: Int, rows: Int, duration: Double)
        throws
    {
        var options = AccelerometerCSVReader.Options.oxfordStepCounter
        options.outputUnit = .g
        let path = DialectFixtures.shared("oxford-step-counter/\(name).csv.gz")
        let out = try AccelerometerCSVReader.read(path: path, options: options)
        let raw = try AccelerometerCSVReader.read(path: path, options: .oxfordStepCounter)
        #expect(!out.timeUnitDetected && !out.recordedUnitDetected)
        #expect(out.recordedUnit == .metersPerSecondSquared)
        #expect(out.log.unit == .g)
        #expect(raw.log.unit == .metersPerSecondSquared)
        #expect(out.log.acceleration.y[100] == raw.log.acceleration.y[100] / 9.80665)
        #expect(out.columnNames?[5] == "steps_ground_truth")
        #expect(Int(try #require(out.extraColumn(named: "steps_ground_truth")).last!) == steps)
        #expect(out.log.timestamp == raw.log.timestamp)
        #expect(out.log.timestamp.count == rows)
    }

    @Test func forestOakBeiweFile() throws {
        let path = DialectFixtures.shared("forest-oak/test_data_bout.csv")
        for options in [
            AccelerometerCSVReader.Options.beiwe,
            AccelerometerCSVReader.Options(time: "timestamp", x: "x", y: "y", z: "z"),
        ] {
            let out = try AccelerometerCSVReader.read(path: path, options: options)
            #expect(out.log.timestamp.count == 98)
            #expect(out.timeUnit == .milliseconds)
            #expect(out.recordedUnit == .g && out.log.unit == .g)
            #expect(out.timeBase == .unixEpoch)
            #expect(out.log.timestampSince1970 == out.log.timestamp)
            #expect(out.log.timestamp[0] == 1_582_654_711.262)
            #expect(abs(out.log.timestamp.last! - out.log.timestamp[0] - 9.733) < 1e-6)
            #expect(out.medianInterval == 0.1)
            #expect(out.skippedColumns == ["UTC time", "accuracy"])
            #expect(out.extraColumns.isEmpty)
            #expect(out.log.acceleration.x[0] == -0.7123260498046875)
        }
    }

    @Test func fixtureWithHeaderMillisecondsAndG() throws {
        let out = try AccelerometerCSVReader.read(path: fixturePath("csv/accel_header_ms_g.csv"))
        #expect(out.columnNames == ["time_ms", "ax", "ay", "az", "temp_c", "label"])
        #expect(out.log.timestamp.count == 25)
        #expect(out.timeUnit == .milliseconds && out.recordedUnit == .g && out.timeBase == .unixEpoch)
        #expect(out.medianInterval == 0.02)
        #expect(out.extraColumns.map(\.name) == ["temp_c"])
        #expect(out.extraColumn(named: "TEMP_C")?.prefix(3) == [21.5, 21.6, 21.7])
        #expect(out.skippedColumns == ["label"])
    }

    @Test func fixtureWithoutHeaderMicrosecondsAndMetresPerSecondSquared() throws {
        // Five header-less columns: which hold acceleration is not certain, so they must be chosen (issue 17).
        let path = fixturePath("csv/accel_noheader_us_ms2.csv")
        let refused = #expect(throws: InputError.self) { try AccelerometerCSVReader.read(path: path) }
        #expect(refused?.kind == .schema && refused?.found == "a header-less table of 5 columns")
        let columns = AccelerometerCSVReader.Options(time: 0, x: 1, y: 2, z: 3)
        let out = try AccelerometerCSVReader.read(path: path, options: columns)
        #expect(out.columnNames == nil)
        #expect(out.log.timestamp.count == 30)
        #expect(out.timeUnit == .microseconds && out.recordedUnit == .metersPerSecondSquared)
        #expect(out.timeBase == .deviceClock)
        #expect(out.log.timestamp[0] == 5000)
        #expect(abs(try #require(out.medianInterval) - 0.01) < 1e-12)
        #expect(out.extraColumn(named: "column 5")?.last == 2)
        let selected = try AccelerometerCSVReader.read(
            path: path, options: .init(x: 1, y: 2, z: 3, extraColumns: .selected([.index(4)])))
        #expect(selected.extraColumns.map(\.index) == [4])
        let none = try AccelerometerCSVReader.read(path: path, options: .init(x: 1, y: 2, z: 3, extraColumns: .none))
        #expect(none.extraColumns.isEmpty)
    }

    /// Median raw interval → detected unit (nil: ambiguous, the reader must ask for the option).
    @Test(arguments: [
        (0.01, AccelerometerCSVReader.TimeUnit?.some(.seconds)), (0.1, .seconds), (10, .milliseconds),
        (100, .milliseconds), (10_000, .microseconds), (10_000_000, .nanoseconds), (1, nil), (1000, nil),
        (1_000_000, nil), (0.0001, nil), (5e9, nil),
    ])
    func timeUnitDetection(interval: Double, expected: AccelerometerCSVReader.TimeUnit?) throws {
        let text = (0..<5).map { "\(Double($0) * interval),0,0,1" }.joined(separator: "\n")
        let result = Result { () throws(InputError) in try AccelerometerCSVReader.decode(Data(text.utf8), file: "t.csv")
        }
        switch (result, expected) {
        case (.success(let out), let unit?): #expect(out.timeUnit == unit)
        case (.failure(let error), nil):
            #expect(error.kind == .unsupported)
            #expect(error.description.contains("--time-unit s, ms, us or ns"))
        default: Issue.record("interval \(interval): got \(result), expected \(String(describing: expected))")
        }
    }

    @Test(arguments: [
        (1.0, AccelerationUnit?.some(.g)), (0.6, .g), (9.81, .metersPerSecondSquared), (3, nil), (0.1, nil), (25, nil),
    ])
    func accelerationUnitDetection(magnitude: Double, expected: AccelerationUnit?) throws {
        let text = (0..<5).map { "\(Double($0) * 0.01),0,\(magnitude),0" }.joined(separator: "\n")
        let result = Result { () throws(InputError) in try AccelerometerCSVReader.decode(Data(text.utf8), file: "t.csv")
        }
        switch (result, expected) {
        case (.success(let out), let unit?): #expect(out.recordedUnit == unit && out.log.unit == unit)
        case (.failure(let error), nil):
            #expect(error.description.contains("--acceleration-unit g or --acceleration-unit m/s^2"))
        default: Issue.record("|a| \(magnitude): got \(result)")
        }
    }

    // MARK: mhealthtools tables

    @Test func mhealthtoolsTapTableKeepsRecordedOrder() throws {
        let rec = try MHealthToolsTapTable.read(
            path: DialectFixtures.shared("mpower-samples/mhealthtools_tap_data.csv"))
        #expect(rec.samples.count == 181)
        #expect(rec.samples.filter { $0.button == .left }.count == 90)
        #expect(rec.samples.filter { $0.button == .right }.count == 75)
        #expect(rec.samples.filter { $0.button == .none }.count == 16)
        let t = rec.samples.map(\.timestamp)
        #expect(zip(t, t.dropFirst()).filter { $1 < $0 }.count == 18)
        #expect(zip(t, t.dropFirst()).filter { $1 == $0 }.count == 2)
        #expect(t.min() == 0 && abs(t.max()! - 20.1205637916646) < 1e-12)
        #expect(rec.samples[0].location == ViewPoint(x: 113.666656494141, y: 429.999984741211))
        #expect(rec.samples.allSatisfy { $0.duration == nil })
        #expect(rec.leftButton == nil && rec.viewSize == nil)
    }

    @Test func tapTableFixture() throws {
        let rec = try MHealthToolsTapTable.read(path: fixturePath("csv/tap_table.csv"))
        #expect(rec.samples.map(\.timestamp) == [0, 0.21, 0.18, 0.40, 0.40, 0.61, 0.83])
        #expect(rec.samples.map(\.button) == [.left, .right, .left, .right, .none, .left, .right])
        #expect(rec.samples[1].location == ViewPoint(x: 270, y: 410.25))
    }

    @Test func mhealthtoolsDeviceMotionTable() throws {
        let log = try MHealthToolsDeviceMotionTable.read(
            path: DialectFixtures.shared("mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz"))
        #expect(log.timestamp.count == 2991)
        #expect(log.timestamp[0] == 0 && abs(log.timestamp.last! - 29.8963671250094) < 1e-12)
        let dt = zip(log.timestamp, log.timestamp.dropFirst()).map { $1 - $0 }
        #expect(abs(RStatistics.median(dt) - 0.010009) < 1e-6)
        #expect(log.userAcceleration.x[0] == -0.109668217599392)
        #expect(log.gravity.y[1] == 0.87261563539505)
        #expect(log.rotationRate.y[0] == 1.81626677513123)
        #expect(log.attitudeW[0] == 0.692525599915805)
        #expect(log.magneticField == nil && log.magneticFieldAccuracy == nil)
        // |gravity| ≈ 1 g throughout.
        for i in stride(from: 0, to: 2991, by: 97) {
            let g =
                (log.gravity.x[i] * log.gravity.x[i] + log.gravity.y[i] * log.gravity.y[i]
                + log.gravity.z[i] * log.gravity.z[i]).squareRoot()
            #expect(abs(g - 1) < 0.01)
        }
    }

    @Test func deviceMotionTableAcceptsSpelledOutNames() throws {
        let log = try MHealthToolsDeviceMotionTable.read(path: fixturePath("csv/devicemotion_long_names.csv"))
        #expect(log.timestamp == [0, 0.01, 0.02, 0.03, 0.04])
        #expect(log.rotationRate.x == [0, 0.1, 0.2, 0.3, 0.4])
        #expect(log.attitudeW == [1, 1, 1, 1, 1])
        #expect(log.gravity.z == [-0.8, -0.8, -0.8, -0.8, -0.8])
    }

    // MARK: Bad input

    static func csv(_ text: String) -> Data { Data(text.utf8) }

    static let badInputs: [DialectBadInput] = [
        DialectBadInput(
            name: "unterminated quote", kind: .syntax, location: "line 2, column 2",
            messagePart: "unterminated quoted field"
        ) { _ = try CSVTable.parse(csv("a,b\n1,\"abc\n2,3\n"), file: "bad.csv") },
        DialectBadInput(name: "ragged row", kind: .syntax, location: "line 3, column 3", messagePart: "found 2 fields")
        {
            _ = try CSVTable.parse(csv("a,b,c\n1,2,3\n4,5\n"), file: "bad.csv")
        },
        DialectBadInput(
            name: "text after a closing quote", kind: .syntax, location: "line 1, column 1",
            messagePart: "after the closing quote"
        ) { _ = try CSVTable.parse(csv("\"ab\"c,d\n"), file: "bad.csv") },
        DialectBadInput(
            name: "non-numeric accelerometer cell", kind: .schema, location: "line 3, column 3",
            messagePart: "in column \"y\", found 'abc'"
        ) {
            _ = try AccelerometerCSVReader.decode(
                csv("t,x,y,z\n0,0,0,1\n0.01,0,abc,1\n"), file: "bad.csv",
                options: .init(timeUnit: .seconds, accelerationUnit: .g))
        },
        DialectBadInput(
            name: "NaN text", kind: .schema, location: "line 2, column 2", messagePart: "'NaN' (not a finite number)"
        ) { _ = try AccelerometerCSVReader.decode(csv("0,0,0,1\n0.01,NaN,0,1\n"), file: "bad.csv") },
        DialectBadInput(
            name: "infinity text", kind: .schema, location: "line 1, column 4",
            messagePart: "'-inf' (not a finite number)"
        ) {
            _ = try AccelerometerCSVReader.decode(csv("0,0,0,-inf\n"), file: "bad.csv", options: .init(header: .absent))
        },
        DialectBadInput(
            name: "overflowing number", kind: .schema, location: "line 2, column 1", messagePart: "beyond ±1.8e308"
        ) { _ = try AccelerometerCSVReader.decode(csv("0,0,0,1\n1e999,0,0,1\n"), file: "bad.csv") },
        DialectBadInput(
            name: "missing required column", kind: .schema, location: "line 1",
            messagePart:
                "expected a column named \"buttonid\" or \"TappedButtonId\" or \"button\", found columns \"t\", \"x\", \"y\""
        ) { _ = try MHealthToolsTapTable.decode(csv("t,x,y\n0,1,2\n"), file: "bad.csv") },
        DialectBadInput(
            name: "missing named accelerometer column", kind: .schema, location: "line 1",
            messagePart: "missing required column"
        ) { _ = try AccelerometerCSVReader.decode(csv("t,x,y,w\n0,0,0,1\n"), file: "bad.csv", options: .init(z: "z")) },
        DialectBadInput(
            name: "ambiguous acceleration unit", kind: .unsupported, location: "columns 2, 3, 4",
            messagePart: "give it: --acceleration-unit g"
        ) { _ = try AccelerometerCSVReader.decode(csv("0,0,3,0\n0.01,0,3.1,0\n0.02,0,2.9,0\n"), file: "bad.csv") },
        DialectBadInput(
            name: "ambiguous time unit", kind: .unsupported, location: "column 1",
            messagePart: "median interval 1 (fits s and ms)"
        ) { _ = try AccelerometerCSVReader.decode(csv("0,0,0,1\n1,0,0,1\n2,0,0,1\n"), file: "bad.csv") },
        DialectBadInput(name: "empty file", kind: .syntax, location: nil, messagePart: "an empty (0-byte) file") {
            _ = try AccelerometerCSVReader.decode(Data(), file: "bad.csv")
        },
        DialectBadInput(name: "only blank lines", kind: .syntax, location: nil, messagePart: "no records") {
            _ = try CSVTable.parse(csv("\n\r\n\n"), file: "bad.csv")
        },
        DialectBadInput(
            name: "single row (time unit undetectable)", kind: .unsupported, location: "column 1",
            messagePart: "found a single data row"
        ) { _ = try AccelerometerCSVReader.decode(csv("0.5,0,0,1\n"), file: "bad.csv") },
        DialectBadInput(name: "header only", kind: .unsupported, location: "line 1", messagePart: "found only a header")
        {
            _ = try AccelerometerCSVReader.decode(csv("t,x,y,z\n"), file: "bad.csv", options: .init(header: .present))
        },
        DialectBadInput(
            name: "binary garbage", kind: .syntax, location: "line 1, column 1",
            messagePart: "binary data, not a text CSV"
        ) {
            _ = try CSVTable.parse(Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x08, 0x00, 0xFF, 0xFE]), file: "bad.csv")
        },
        DialectBadInput(
            name: "invalid UTF-8", kind: .syntax, location: "line 2, column 2", messagePart: "0xFF (not UTF-8)"
        ) {
            _ = try CSVTable.parse(Data("a,b\n1,".utf8) + Data([0xFF, 0x0A]), file: "bad.csv")
        },
        DialectBadInput(
            name: "unknown button in a tap table", kind: .schema, location: "line 3, column 4",
            messagePart: "found 'TappedButtonMiddle': unknown TappedButtonId"
        ) {
            _ = try MHealthToolsTapTable.decode(
                csv("t,x,y,buttonid\n0,1,2,TappedButtonLeft\n0.1,1,2,TappedButtonMiddle\n"), file: "bad.csv")
        },
        DialectBadInput(
            name: "missing value in a tap table", kind: .schema, location: "line 2, column 2",
            messagePart: "'NA' (a missing value)"
        ) { _ = try MHealthToolsTapTable.decode(csv("t,x,y,buttonid\n0,NA,2,TappedButtonLeft\n"), file: "bad.csv") },
    ]

    @Test(arguments: badInputs)
    func badInputIsReportedPrecisely(_ badInput: DialectBadInput) { badInput.check() }

    @Test func missingFileIsUnreadable() {
        let error = #expect(throws: InputError.self) { try CSVTable.read(path: "/nonexistent/dir/x.csv") }
        #expect(error?.kind == .unreadable)
        #expect(error?.message == "no such file")
    }
}
