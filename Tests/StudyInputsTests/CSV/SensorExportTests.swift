import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 52: sensor tables in the layouts labs download them in (`Tests/Fixtures/sensor-exports`, written by its
/// `make_fixtures.py` from each format's documentation: one synthetic 14 s walk in every layout) are read with no
/// options but a sampling rate where the file states none, and count the steps their converted copy counts.
@Suite(.tags(.honestInput)) struct SensorExportTests {
    static func path(_ name: String) -> String { fixturePath("sensor-exports/" + name) }

    static func load(_ name: String, _ options: InputLoader.Options = InputLoader.Options()) throws -> LoadedInput {
        var options = options
        // The one layout that states no rate: given as a user would (--sample-rate 50).
        if name == "movella-dot.csv" { options.accelerometerCSV.sampleRate = 50 }
        return try AnalysisRegistry.load(path: path(name), options: options)
    }

    static let layouts = [
        "shimmer-consensys.csv", "shimmer-units-row.tsv", "xsens-mtmanager.txt", "xsens-gait.tsv",
        "phyphox/Raw Data.csv", "phyphox-semicolon.csv", "phyphox-linear.tsv", "sensorlog-ios.csv",
        "sensorlogger-totalacceleration.csv", "physicstoolbox.csv", "movella-dot.csv", "matlab-mobile.csv",
        "android-sensorevent.csv",
    ]

    /// Every layout gives the converted copy's step count (25 on this walk), with its 700 samples over 13.98 s.
    @Test(arguments: layouts) func countsTheStepsOfItsConvertedCopy(_ name: String) throws {
        let plain = try #require(WalkingProcessor.analyze(try Self.load("plain.csv")).first)
        let input = try Self.load(name)
        #expect(input.problems.filter { $0.severity == .error }.isEmpty, "\(input.problems)")
        let result = try #require(WalkingProcessor.analyze(input).first)
        #expect(plain.stepCount == 25)
        #expect(result.stepCount == plain.stepCount)
        guard case .accelerometer(let log)? = input.recordings.first?.data else {
            Issue.record("no accelerometer recording")
            return
        }
        #expect(log.log.timestamp.count == 700)
        let span = (log.log.timestamp.max() ?? 0) - (log.log.timestamp.min() ?? 0)
        #expect(abs(span - 13.98) < 1e-6, "\(span)")
    }

    struct Expected: Sendable, CustomStringConvertible {
        var name: String
        var delimiter: String
        var skipped: Int
        var labelRows: Int
        var time: String
        var timeUnitSource: String
        var acceleration: String
        var accelerationSource: String
        var description: String { name }
    }

    static let expected: [Expected] = [
        .init(
            name: "shimmer-consensys.csv", delimiter: "tab", skipped: 1, labelRows: 2,
            time: "column:Shimmer_5E6A_Timestamp_Unix_CAL:ms", timeUnitSource: "file", acceleration: "m/s^2",
            accelerationSource: "file"),
        .init(
            name: "shimmer-units-row.tsv", delimiter: "tab", skipped: 0, labelRows: 1,
            time: "column:S14_Timestamp_CAL:ms", timeUnitSource: "file", acceleration: "m/s^2",
            accelerationSource: "file"),
        .init(
            name: "xsens-mtmanager.txt", delimiter: "tab", skipped: 13, labelRows: 0,
            time: "sampleCounter:PacketCounter:s", timeUnitSource: "file", acceleration: "m/s^2",
            accelerationSource: "detected"),
        .init(
            name: "xsens-gait.tsv", delimiter: "tab", skipped: 2, labelRows: 0, time: "sampleCounter:PacketCounter:s",
            timeUnitSource: "file", acceleration: "m/s^2", accelerationSource: "detected"),
        .init(
            name: "phyphox/Raw Data.csv", delimiter: "comma", skipped: 0, labelRows: 0, time: "column:Time (s):s",
            timeUnitSource: "file", acceleration: "m/s^2", accelerationSource: "file"),
        .init(
            name: "phyphox-semicolon.csv", delimiter: "semicolon", skipped: 0, labelRows: 0,
            time: "column:Time (s):s", timeUnitSource: "file", acceleration: "m/s^2", accelerationSource: "file"),
        .init(
            name: "sensorlog-ios.csv", delimiter: "comma", skipped: 0, labelRows: 0,
            time: "column:accelerometerTimestamp_sinceReboot(s):s", timeUnitSource: "file", acceleration: "g",
            accelerationSource: "file"),
        .init(
            name: "sensorlogger-totalacceleration.csv", delimiter: "comma", skipped: 0, labelRows: 0,
            time: "column:time:ns", timeUnitSource: "detected", acceleration: "m/s^2", accelerationSource: "detected"),
        .init(
            name: "physicstoolbox.csv", delimiter: "comma", skipped: 0, labelRows: 0, time: "column:time:s",
            timeUnitSource: "detected", acceleration: "g", accelerationSource: "detected"),
        // FreeAcc is m/s² by definition (XSens, Movella): stated by the format, not guessed from a gravity-free
        // magnitude.
        .init(
            name: "movella-dot.csv", delimiter: "comma", skipped: 5, labelRows: 0,
            time: "sampleCounter:PacketCounter:s", timeUnitSource: "option", acceleration: "m/s^2",
            accelerationSource: "file"),
        .init(
            name: "matlab-mobile.csv", delimiter: "comma", skipped: 0, labelRows: 0, time: "dateTime:Timestamp:s",
            timeUnitSource: "file", acceleration: "m/s^2", accelerationSource: "detected"),
        .init(
            name: "android-sensorevent.csv", delimiter: "comma", skipped: 0, labelRows: 0,
            time: "column:timestamp:ns", timeUnitSource: "detected", acceleration: "m/s^2",
            accelerationSource: "detected"),
    ]

    /// Date-time text: ISO 8601 with and without an offset, MATLAB's default; anything else is not one.
    @Test func dateTimeTextIsReadAsUnixSeconds() throws {
        let utc = try #require(DateTimeText.seconds("2025-12-02T10:00:00.020Z"))
        #expect(abs(utc.seconds - 1_764_669_600.02) < 1e-6 && utc.hasOffset)
        #expect(try #require(DateTimeText.seconds("2025-12-02 11:00:00.020+01:00")).seconds == utc.seconds)
        let matlab = try #require(DateTimeText.seconds("02-Dec-2025 10:00:00.020"))
        #expect(matlab.seconds == utc.seconds && !matlab.hasOffset)
        #expect(try #require(DateTimeText.seconds("2025-12-02T10:00:00.020")).seconds == utc.seconds)
        for text in ["02-Foo-2025 10:00:00.020", "1764669600.02", "yesterday", "2025-13-02T10:00:00Z", ""] {
            #expect(DateTimeText.seconds(text) == nil, "\(text)")
        }
        // The MATLAB table says its times state no offset.
        let input = try Self.load("matlab-mobile.csv")
        #expect(input.problems.contains { $0.message.contains("state no UTC offset: read as UTC") })
    }

    /// A spreadsheet-padded preamble (the Movella export saved again by Excel: `DeviceTag:,1,,,,,,,,`) is still a
    /// preamble; sparse data rows (missing values) are never taken for one.
    @Test func paddedPreamblesAreSkippedAndSparseRowsKept() throws {
        let text = try String(contentsOfFile: Self.path("movella-dot.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for i in 0..<5 { lines[i] += ",,,,,,,," }
        var options = AccelerometerCSVReader.Options()
        options.sampleRate = 50
        let padded = try AccelerometerCSVReader.decode(
            Data(lines.joined(separator: "\n").utf8), file: "dot.csv", options: options)
        #expect(padded.dialect.skipLines == 5)
        #expect(padded.log.timestamp.count == 700)
        // Header-less rows whose first values are missing: every row is data.
        var rows = ["0.00,,,", "0.02,,,"]
        for i in 2..<60 { rows.append("\(Double(i) / 50),0.01,-1,0.02") }
        let (dialect, _) = CSVDialect.detect(Data(rows.joined(separator: "\n").utf8))
        #expect(dialect.skipLines == 0)
    }

    /// `values[0..2]` are acceleration only when the dump's sensor column says every row is an accelerometer's.
    @Test func androidValuesNeedTheirSensorColumn() throws {
        let text = try String(contentsOfFile: Self.path("android-sensorevent.csv"), encoding: .utf8)
        let gyro = text.replacingOccurrences(of: "android.sensor.accelerometer", with: "android.sensor.gyroscope")
        #expect(throws: InputError.self) { try AccelerometerCSVReader.decode(Data(gyro.utf8), file: "gyro.csv") }
        let lines = text.split(separator: "\n")
        let mixed = ([lines[0]] + lines.dropFirst().prefix(100) + ["android.sensor.gyroscope,9,3,0.1,0.2,0.3"])
            .joined(separator: "\n")
        #expect(throws: InputError.self) { try AccelerometerCSVReader.decode(Data(mixed.utf8), file: "mixed.csv") }
    }

    /// `inspect` names the layout, the time source and where each unit came from.
    @Test(arguments: expected) func saysHowItReadTheTable(_ want: Expected) throws {
        let table = try #require(try Self.load(want.name).table)
        #expect(table.delimiter == want.delimiter)
        #expect(table.skippedLines == want.skipped)
        #expect(table.labelRows == want.labelRows)
        #expect([table.timeSource, table.timeColumn ?? "-", table.timeUnit].joined(separator: ":") == want.time)
        #expect(table.timeUnitSource == want.timeUnitSource)
        #expect(table.accelerationUnit == want.acceleration)
        #expect(table.accelerationUnitSource == want.accelerationSource)
    }

    @Test func preamblesStateTheirRateAndSepLinesTheirDelimiter() throws {
        let xsens = try #require(try Self.load("xsens-mtmanager.txt").table)
        #expect(xsens.statedRate == 50)
        #expect(xsens.sampleRate == 50)
        #expect(xsens.preamble.first == "// General information:")
        #expect(xsens.layout == "tab-delimited, 13 preamble lines skipped, stated rate 50 Hz")
        #expect(try Self.load("xsens-gait.tsv").table?.statedRate == 50)
        let shimmer = try #require(try Self.load("shimmer-consensys.csv").table)
        #expect(shimmer.layout == "tab-delimited, sep= line, 2 label rows under the header")
        #expect(shimmer.statedAccelerationUnit == "m/(s^2)")
    }

    /// The decimal-comma export holds the same numbers as the decimal-point one.
    @Test func decimalCommasReadAsTheSameNumbers() throws {
        func log(_ name: String) throws -> AccelerometerLog {
            try AccelerometerCSVReader.read(path: Self.path(name)).log
        }
        let point = try log("phyphox/Raw Data.csv")
        let comma = try log("phyphox-semicolon.csv")
        #expect(comma.timestamp == point.timestamp)
        #expect(comma.acceleration == point.acceleration)
        #expect(try AccelerometerCSVReader.read(path: Self.path("phyphox-semicolon.csv")).dialect.decimalComma)
    }

    /// Linear acceleration is recognised and said to be so; walking adds gravity along the main axis.
    @Test func gravityFreeAccelerationIsSaidAndWalkedWithGravityAddedBack() throws {
        let input = try Self.load("phyphox-linear.tsv")
        #expect(input.problems.contains { $0.severity == .warning && $0.message.contains("looks gravity-free") })
        let result = try #require(WalkingProcessor.analyze(input).first)
        #expect(result.quality.warnings.contains { $0.hasPrefix("gravity-free acceleration: analysed with 1 g added") })
    }

    /// A counter without a stated rate is an error naming the flag; with `--sample-rate` it is read.
    @Test func aCounterWithoutARateAsksForTheFlag() throws {
        let text = try String(contentsOfFile: Self.path("xsens-gait.tsv"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
        let data = Data(text.utf8)
        #expect {
            try AccelerometerCSVReader.decode(data, file: "gait.tsv")
        } throws: { error in
            "\(error)".contains("column \"PacketCounter\" counts samples") && "\(error)".contains("--sample-rate HZ")
        }
        var options = AccelerometerCSVReader.Options()
        options.sampleRate = 100
        let output = try AccelerometerCSVReader.decode(data, file: "gait.tsv", options: options)
        #expect(output.timeSource == .sampleCounter)
        #expect(output.log.timestamp.last == 6.99)
        // A table of x, y and z alone takes its times from the rate.
        let bare = Data(("x,y,z\n" + String(repeating: "0.01,-1,0.02\n0.02,-0.9,0.01\n", count: 20)).utf8)
        let timed = try AccelerometerCSVReader.decode(bare, file: "bare.csv", options: options)
        #expect(timed.timeSource == .sampleRate)
        #expect(timed.log.timestamp.prefix(3) == [0, 0.01, 0.02])
    }

    /// An explicit unit is never overruled: a disagreeing magnitude is only a warning, and walking reads it as given.
    @Test func anExplicitUnitIsNeverOverruled() throws {
        var options = InputLoader.Options()
        options.accelerometerCSV.accelerationUnit = .metersPerSecondSquared
        let input = try Self.load("plain.csv", options)
        #expect(input.problems.contains { $0.message.contains("given as m/s^2, but its median |a|") })
        let result = try #require(WalkingProcessor.analyze(input).first)
        #expect(result.quality.warnings.allSatisfy { !$0.contains("analysed as g") })
        guard case .accelerometer(let log)? = input.recordings.first?.data else {
            Issue.record("no accelerometer recording")
            return
        }
        #expect(log.analysedUnit == .metersPerSecondSquared)
    }

    /// Delimiters by detection and by option; a preamble by option.
    @Test func delimitersAndPreamblesGivenOrDetected() throws {
        let rows = (0..<40).map { i in ["\(Double(i) / 50)", "0.01", "-1", "0.02"] }
        func table(_ separator: String) -> String {
            rows.map { $0.joined(separator: separator) }.joined(separator: "\n")
        }
        for (separator, name) in [(" ", "spaces/tabs"), ("   ", "spaces/tabs"), ("|", "pipe (|)"), ("\t", "tab")] {
            let data = Data(("t" + separator + "x" + separator + "y" + separator + "z\n" + table(separator)).utf8)
            let output = try AccelerometerCSVReader.decode(data, file: "w.txt")
            #expect(output.dialect.delimiter.label == name)
            #expect(output.log.timestamp.count == 40)
        }
        // Two preamble lines that look like a table of their own are skipped when told.
        let text = "a,b,c,d\n1,2,3,4\nt,x,y,z\n" + table(",")
        var options = AccelerometerCSVReader.Options()
        options.skipLines = 2
        let output = try AccelerometerCSVReader.decode(Data(text.utf8), file: "p.csv", options: options)
        #expect(output.log.timestamp.count == 40)
        #expect(output.dialect.skipLinesGiven)
        options.skipLines = nil
        options.delimiter = .semicolon
        #expect {
            try AccelerometerCSVReader.decode(Data(table(",").utf8), file: "c.csv", options: options)
        } throws: { error in
            "\(error)".contains("read as semicolon-delimited (given)") && "\(error)".contains("--delimiter")
        }
    }

    /// A run described by an earlier version (its `run.json` has none of the layout options) still decodes, so
    /// `batch --resume` reads it; the new options take their defaults.
    @Test func optionsSavedBeforeTheLayoutOptionsStillDecode() throws {
        var options = AccelerometerCSVReader.Options(time: "t", timeUnit: .milliseconds)
        options.sampleRate = 50
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(options)) as? [String: Any])
        #expect(object["sampleRate"] as? Double == 50)
        for key in ["delimiter", "skipLines", "sampleRate", "detectsDialect"] { object.removeValue(forKey: key) }
        let old = try JSONDecoder().decode(
            AccelerometerCSVReader.Options.self, from: JSONSerialization.data(withJSONObject: object))
        options.sampleRate = nil
        #expect(old == options)
        #expect(old.timeColumnChosen && old.detectsDialect)
    }

    /// Device names map to axes; other quantities of the same device never do.
    @Test func deviceNamesMapToAxes() {
        let names = [
            "Shimmer_5E6A_Gyro_X_CAL", "Shimmer_5E6A_Gyro_Y_CAL", "Shimmer_5E6A_Gyro_Z_CAL",
            "Shimmer_5E6A_Accel_LN_X_CAL", "Shimmer_5E6A_Accel_LN_Y_CAL", "Shimmer_5E6A_Accel_LN_Z_CAL",
            "Shimmer_5E6A_Accel_WR_X_CAL", "Shimmer_5E6A_Accel_WR_Y_CAL", "Shimmer_5E6A_Accel_WR_Z_CAL",
        ]
        #expect(AccelerationColumnNames.accelerationColumns(in: names)! == (3, 4, 5))
        #expect(AccelerationColumnNames.accelerationColumns(in: ["FreeAcc_X", "FreeAcc_Y", "FreeAcc_Z"])! == (0, 1, 2))
        let gyroAndMagnetometer = ["Gyr_X", "Gyr_Y", "Gyr_Z", "Mag_X", "Mag_Y", "Mag_Z"]
        #expect(AccelerationColumnNames.accelerationColumns(in: gyroAndMagnetometer) == nil)
        #expect(AccelerationColumnNames.accelerationColumns(in: ["Euler_X", "Euler_Y", "Euler_Z"]) == nil)
        #expect(AccelerationColumnNames.statedUnit("Acc X (m/(s^2))") == "m/(s^2)")
        #expect(AccelerationColumnNames.accelerationUnit(named: "m/(sec^2)") == .metersPerSecondSquared)
        #expect(AccelerationColumnNames.accelerationUnit(named: "G") == .g)
        #expect(AccelerationColumnNames.timeUnit(named: "msecs") == .milliseconds)
    }
}
