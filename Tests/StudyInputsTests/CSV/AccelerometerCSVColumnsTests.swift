import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 17, item 3: a CSV is read as acceleration only when its columns say so or were chosen — a wide header-less
/// table or a header naming other quantities is refused with an error that names the file and the choices, never
/// read from columns 2–4 in silence.
@Suite(.tags(.honestInput)) struct AccelerometerCSVColumnsTests {
    /// A header-less walk of `columns` columns: time (s) at 50 Hz in column 1, a 1.8 Hz walk in g in columns 2–4,
    /// and `columns − 4` more columns of other numbers (angles in rad, as WeAllWalk's attitude).
    static func headerless(columns: Int, rows: Int = 600) -> String {
        var text = ""
        for i in 0..<rows {
            let t = Double(i) / 50
            let bounce = 0.25 * cos(2 * Double.pi * 1.8 * t)
            var cells = [String(t), "0.01", "0.02", String(1 + bounce)]
            for k in 4..<max(columns, 4) { cells.append(String(0.1 * Double(k) + 0.3 * sin(t))) }
            text += cells.prefix(columns).joined(separator: ",") + "\n"
        }
        return text
    }

    // MARK: Header-less tables of more than four columns

    /// The real 41-column WeAllWalk file: refused without columns (it used to be read from the attitude angles in
    /// columns 2–4 and gave 57 steps for 149 without a warning); the error names the file, the column count and the
    /// options; with the columns chosen it is read.
    @Test func weAllWalkNeedsItsColumnsChosen() throws {
        let path = sharedDataPath("weallwalk/iPhoneSensors_T1_ID2_1L_WC.csv.gz")
        let error = try #require(throws: InputError.self) { try AccelerometerCSVReader.read(path: path) }
        #expect(error.kind == .schema)
        #expect(error.file == path)
        #expect(error.found == "a header-less table of 41 columns")
        #expect(error.description.contains("--acceleration-columns X,Y,Z"))
        #expect(error.description.contains("1 to 41"))
        // Through the loader: an error, no recording, so no step count at all.
        let input = try AnalysisRegistry.load(path: path)
        #expect(input.recordings.isEmpty)
        #expect(input.problems.contains { $0.severity == .error && $0.message.contains("41 columns") })
        #expect(WalkingProcessor.analyze(input).isEmpty)
        // Chosen: columns 31–33 are the raw accelerometer in g.
        let chosen = try AccelerometerCSVReader.read(path: path, options: .init(time: 0, x: 30, y: 31, z: 32))
        #expect(chosen.recordedUnit == .g && chosen.log.timestamp.count == 2852)
    }

    /// A synthetic wide table behaves the same; its four-column cut is still read as t, x, y, z.
    @Test(arguments: [5, 7, 13])
    func wideHeaderlessTablesAreRefusedAndFourColumnsAreNot(columns: Int) throws {
        let wide = Data(Self.headerless(columns: columns).utf8)
        let error = try #require(throws: InputError.self) {
            try AccelerometerCSVReader.decode(wide, file: "wide.csv")
        }
        #expect(error.description.hasPrefix("wide.csv: at line 1: "))
        #expect(error.found == "a header-less table of \(columns) columns")
        let narrow = try AccelerometerCSVReader.decode(Data(Self.headerless(columns: 4).utf8), file: "narrow.csv")
        #expect(narrow.recordedUnit == .g && narrow.log.timestamp.count == 600)
        #expect(abs((narrow.medianInterval ?? 0) - 0.02) < 1e-12)
        // Naming the columns, as a header would, is a choice too.
        var named = AccelerometerCSVReader.Options()
        named.columnNames = ["t", "ax", "ay", "az"] + (4..<columns).map { "angle\($0)" }
        #expect(try AccelerometerCSVReader.decode(wide, file: "wide.csv", options: named).log.timestamp.count == 600)
    }

    /// The four real Oxford files keep working without options: their layout is recognised with certainty.
    @Test(arguments: [
        "user1_hand_1506421989895", "user1_frontpocket_1506422223341", "user1_backpocket_1506422470497",
        "user1_neckpouch_1506422851785",
    ])
    func oxfordLayoutIsRecognised(name: String) throws {
        let path = sharedDataPath("oxford-step-counter/\(name).csv.gz")
        let table = try CSVTable.read(path: path, header: .absent)
        #expect(OxfordLayout.matches(table))
        let input = try AnalysisRegistry.load(path: path)
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        #expect(WalkingProcessor.analyze(input).first?.stepCount ?? 0 > 300)
    }

    /// One rule of the Oxford layout, broken.
    enum Breach: String, CaseIterable, Sendable {
        case counterGoesDown, counterNotWhole, timeNotWhole, timeGoesBack, accelerationWhole

        /// Changes the cells of row `row` of an Oxford-like table to break the rule.
        func apply(row: Int, _ cells: inout [String]) {
            switch self {
            case .counterGoesDown: if row == 12 { cells[5] = "0" }
            case .counterNotWhole: if row == 3 { cells[4] = "1.5" }
            case .timeNotWhole: cells[0] += ".5"
            case .timeGoesBack: if row == 7 { cells[0] = "1000000000" }
            case .accelerationWhole: cells[1...3] = ["0", "0", "10"]
            }
        }
    }

    /// Seven columns that break one rule of the Oxford layout are refused like any other wide table.
    @Test(arguments: Breach.allCases)
    func almostOxfordIsRefused(breach: Breach) throws {
        func table(_ breach: Breach?) -> Data {
            var text = ""
            for row in 0..<40 {
                let t = 1_000_000_000 + row * 10_000_000
                let a = 9.81 + 2 * sin(Double(row) / 3)
                var cells = ["\(t)", "0.5", "1.25", "\(a)", "\(row / 4)", "\(row / 5)", "0"]
                breach?.apply(row: row, &cells)
                text += cells.joined(separator: ",") + "\n"
            }
            return Data(text.utf8)
        }
        let oxford = try AccelerometerCSVReader.decode(table(nil), file: "oxford-like.csv")
        #expect(oxford.timeUnit == .nanoseconds && oxford.recordedUnit == .metersPerSecondSquared)
        #expect(oxford.extraColumns.map(\.name) == ["column 5", "column 6", "column 7"])
        let error = #expect(throws: InputError.self, "\(breach)") {
            try AccelerometerCSVReader.decode(table(breach), file: "almost.csv")
        }
        #expect(error?.found == "a header-less table of 7 columns", "\(breach)")
    }

    // MARK: Headers naming other quantities

    /// A camera PPG table (`t,red,green,blue`) or a gyroscope table is refused for walking; the error names the
    /// header and the accepted names; chosen explicitly, the same columns are read.
    @Test(arguments: [
        "t,red,green,blue", "time,gyro_x,gyro_y,gyro_z", "timestamp,rotationRate.x,rotationRate.y,rotationRate.z",
        "t,roll,pitch,yaw", "t,mag_x,mag_y,mag_z", "t,heart_rate,x,spo2", "timestamp,gravity_x,gravity_y,gravity_z",
    ])
    func headerNamingOtherQuantitiesIsRefused(header: String) throws {
        var text = header + "\n"
        for i in 0..<300 {
            let t = Double(i) / 50
            text += "\(t),0.1,0.2,\(1 + 0.2 * sin(2 * Double.pi * 1.8 * t))\n"
        }
        let data = Data(text.utf8)
        let error = try #require(throws: InputError.self) { try AccelerometerCSVReader.decode(data, file: "ppg.csv") }
        #expect(error.kind == .schema && error.location == "line 1")
        let quoted = header.split(separator: ",").map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(error.found == "a header " + quoted)
        #expect(error.expected?.contains("userAcceleration.x") == true)
        #expect(error.description.contains("--acceleration-columns"))
        var chosen = AccelerometerCSVReader.Options()
        chosen.x = 1
        chosen.y = 2
        chosen.z = 3
        #expect(try AccelerometerCSVReader.decode(data, file: "ppg.csv", options: chosen).log.timestamp.count == 300)
    }

    /// Acceleration names the reader accepts, wherever they stand; x, y and z come from one spelling.
    @Test(arguments: [
        ("t,x,y,z", 0, 1, 2, 3), ("timestamp,UTC time,accuracy,x,y,z", 0, 3, 4, 5),
        ("time_ms,ax,ay,az,temp_c,label", 0, 1, 2, 3), ("Time (s),Accel X (g),Accel Y (g),Accel Z (g)", 0, 1, 2, 3),
        ("timestamp,userAcceleration.x,userAcceleration.y,userAcceleration.z", 0, 1, 2, 3),
        ("gyro_x,gyro_y,gyro_z,acc_x,acc_y,acc_z,time", 6, 3, 4, 5), ("t,X-Axis,Y-Axis,Z-Axis", 0, 1, 2, 3),
        ("seconds,accelerationX,accelerationY,accelerationZ", 0, 1, 2, 3), ("t,xAcc,yAcc,zAcc", 0, 1, 2, 3),
        ("timestamp,ax,acc_y,az,ay", 0, 1, 4, 3),
    ])
    func accelerationNamesAreRecognised(header: String, t: Int, x: Int, y: Int, z: Int) throws {
        let names = header.split(separator: ",").map(String.init)
        let found = try #require(AccelerationColumnNames.accelerationColumns(in: names), "\(header)")
        #expect(found.x == x && found.y == y && found.z == z, "\(header)")
        #expect(AccelerationColumnNames.timeColumn(in: names) == t, "\(header)")
    }

    /// The loader gives the refusal as an error of the input, and the walking analysis has nothing to count.
    @Test func loaderRefusesAPPGTableForWalking() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("camera_ppg.csv")
        var text = "t,red,green,blue\n"
        for i in 0..<300 { text += "\(Double(i) / 30),0.6,0.3,0.1\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: path)
        let error = try #require(input.problems.first { $0.severity == .error })
        #expect(error.file == path && error.message.contains("\"red\""), "\(error)")
        #expect(WalkingProcessor.analyze(input).isEmpty)
    }
}
