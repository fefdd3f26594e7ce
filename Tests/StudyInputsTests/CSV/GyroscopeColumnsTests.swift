import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import StudyInputs

/// Gyroscope columns beside a CSV's acceleration: found by name, read in the unit the file states, the option
/// gives, or — with a warning — the rotation of gravity says; never guessed in silence.
@Suite(.tags(.honestInput)) struct GyroscopeColumnsTests {
    /// A table `t,acc_x,acc_y,acc_z,<gyro names>` of a sensor tilting ±20° about x at 0.8 Hz (100 Hz, 30 s), its
    /// gyroscope written `unitsPerRadian` per rad/s.
    static func table(names: [String], unitsPerRadian: Double, rows: Int = 3000) -> Data {
        var text = (["t", "acc_x", "acc_y", "acc_z"] + names).joined(separator: ",") + "\n"
        for i in 0..<rows {
            let t = Double(i) / 100
            let amplitude = 20 * Double.pi / 180
            let theta = amplitude * sin(2 * Double.pi * 0.8 * t)
            let thetaRate = amplitude * 2 * Double.pi * 0.8 * cos(2 * Double.pi * 0.8 * t)
            let cells = [
                t, 0.05 * sin(2 * Double.pi * 1.9 * t), sin(theta), cos(theta), thetaRate * unitsPerRadian, 0, 0,
            ]
            text += cells.map { String($0) }.joined(separator: ",") + "\n"
        }
        return Data(text.utf8)
    }

    @Test func namesAreRecognised() {
        let cases: [([String], (Int, Int, Int)?, RotationRateUnit?)] = [
            (["t", "acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z"], (4, 5, 6), nil),
            (["gyro_x (deg/s)", "gyro_y (deg/s)", "gyro_z (deg/s)"], (0, 1, 2), .degreesPerSecond),
            (["Gyro X [rad/s]", "Gyro Y [rad/s]", "Gyro Z [rad/s]"], (0, 1, 2), .radiansPerSecond),
            (["rotationRate.x", "rotationRate.y", "rotationRate.z"], (0, 1, 2), nil),
            (["gyr_x_dps", "gyr_y_dps", "gyr_z_dps"], (0, 1, 2), .degreesPerSecond),
            (["Shimmer_5E6A_Gyro_X_CAL", "Shimmer_5E6A_Gyro_Y_CAL", "Shimmer_5E6A_Gyro_Z_CAL"], (0, 1, 2), nil),
            (["gyr_x (deg/s)", "gyr_y (rad/s)", "gyr_z (deg/s)"], (0, 1, 2), nil),  // disagree: no stated unit
            (["gx", "gy", "gz"], nil, nil),  // gravity as often as the gyroscope: not taken
            (["mag_x", "mag_y", "mag_z"], nil, nil),
            (["gyr_x", "gyr_y"], nil, nil),
        ]
        for (names, expected, unit) in cases {
            let found = GyroscopeColumnNames.columns(in: names, excluding: [])
            if let expected {
                #expect(found.map { [$0.x, $0.y, $0.z] } == [expected.0, expected.1, expected.2], "\(names)")
                #expect(found?.unit == unit, "\(names)")
            } else {
                #expect(found == nil, "\(names)")
            }
        }
    }

    /// Unnamed units are detected from the physics (deg/s: about 57 units per rad/s; rad/s: about 1), with a
    /// warning that says so and names the option; the samples are stored in rad/s either way.
    @Test(arguments: [(1.0, RotationRateUnit.radiansPerSecond), (180 / Double.pi, .degreesPerSecond)])
    func unitIsDetectedWithAWarning(unitsPerRadian: Double, unit: RotationRateUnit) throws {
        let data = Self.table(names: ["gyr_x", "gyr_y", "gyr_z"], unitsPerRadian: unitsPerRadian)
        let output = try AccelerometerCSVReader.decode(data, file: "imu.csv")
        #expect(output.gyroscopeUnit == unit)
        #expect(output.gyroscopeUnitSource == .detected)
        #expect(output.gyroscopeColumns == ["gyr_x", "gyr_y", "gyr_z"])
        #expect(output.extraColumns.isEmpty, "\(output.extraColumns.map(\.name))")
        let note = try #require(output.notes.first { $0.hasPrefix("gyroscope columns") })
        #expect(note.contains("read as \(unit.rawValue)") && note.contains("--gyroscope-unit"), "\(note)")
        let rotation = try #require(output.log.rotationRate)
        let peak = rotation.x.map(abs).max() ?? 0
        // ±20° at 0.8 Hz peaks at 0.349 · 2π · 0.8 = 1.755 rad/s.
        #expect(abs(peak - 1.755) < 0.01, "\(peak)")
        #expect(output.reading.gyroscopeUnitSource == "detected")
    }

    /// A unit in the names is used without a warning; the option overrules it, with a note when they differ.
    @Test func statedAndGivenUnits() throws {
        let data = Self.table(
            names: ["gyr_x (deg/s)", "gyr_y (deg/s)", "gyr_z (deg/s)"], unitsPerRadian: 180 / Double.pi)
        let stated = try AccelerometerCSVReader.decode(data, file: "imu.csv")
        #expect(stated.gyroscopeUnit == .degreesPerSecond && stated.gyroscopeUnitSource == .file)
        #expect(!stated.notes.contains { $0.hasPrefix("gyroscope") })
        var options = AccelerometerCSVReader.Options()
        options.gyroscopeUnit = .radiansPerSecond
        let given = try AccelerometerCSVReader.decode(data, file: "imu.csv", options: options)
        #expect(given.gyroscopeUnit == .radiansPerSecond && given.gyroscopeUnitSource == .option)
        #expect(given.notes.contains("--gyroscope-unit rad/s used, although the file states deg/s"))
        let peak = given.log.rotationRate?.x.map(abs).max() ?? 0
        #expect(abs(peak - 1.755 * 180 / Double.pi) < 0.5)
    }

    /// A gyroscope that never turns gravity cannot tell its unit: it is not read, and the note says how to give it.
    @Test func anUndecidableUnitIsNotGuessed() throws {
        var text = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z\n"
        for i in 0..<1000 { text += "\(Double(i) / 100),0,0,1,0.01,0.02,0.03\n" }
        let output = try AccelerometerCSVReader.decode(Data(text.utf8), file: "still.csv")
        #expect(output.log.rotationRate == nil)
        #expect(output.gyroscopeColumns.isEmpty && output.gyroscopeUnit == nil)
        let note = try #require(output.notes.first { $0.hasPrefix("gyroscope columns") })
        #expect(note.contains("not read: their unit is unclear") && note.contains("--gyroscope-unit rad/s"), "\(note)")
    }

    /// Chosen columns of a header-less table; a choice of two columns is an error.
    @Test func chosenColumns() throws {
        let named = String(decoding: Self.table(names: ["a", "b", "c"], unitsPerRadian: 1), as: UTF8.self)
        let headerless = Data(named.split(separator: "\n").dropFirst().joined(separator: "\n").utf8)
        var options = AccelerometerCSVReader.Options(header: .absent)
        options.gyroscopeColumns = [.index(4), .index(5), .index(6)]
        options.x = .index(1)
        options.y = .index(2)
        options.z = .index(3)
        let output = try AccelerometerCSVReader.decode(headerless, file: "wide.csv", options: options)
        #expect(output.gyroscopeUnit == .radiansPerSecond)
        #expect(output.log.rotationRate?.count == 3000)
        options.gyroscopeColumns = [.index(4), .index(5)]
        #expect(throws: InputError.self) {
            try AccelerometerCSVReader.decode(headerless, file: "wide.csv", options: options)
        }
    }

    /// Hygiene keeps the gyroscope beside its acceleration row for row: out-of-order rows are put in order together.
    @Test func hygieneMovesTheGyroscopeWithItsRows() throws {
        var log = AccelerometerLog(
            timestamp: [0, 0.02, 0.01, 0.03],
            acceleration: Vector3Series(x: [0, 2, 1, 3], y: [0, 0, 0, 0], z: [1, 1, 1, 1]))
        log.rotationRate = Vector3Series(x: [10, 12, 11, 13], y: [0, 0, 0, 0], z: [0, 0, 0, 0])
        let cleaned = log.cleaned()
        #expect(cleaned.log.acceleration.x == [0, 1, 2, 3])
        #expect(cleaned.log.rotationRate?.x == [10, 11, 12, 13])
    }
}
