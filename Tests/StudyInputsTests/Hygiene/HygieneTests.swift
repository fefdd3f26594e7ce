import Archives
import Foundation
import RealModule
import SensorSignal
import StudyInputs
import TestSupport
import Testing

@Suite struct HygieneTests {
    // MARK: - Building logs through the public decoder

    /// One accelerometer row: times in s, acceleration in the log's unit.
    struct AccelRow {
        var t: Double
        var unix: Double
        var x: Double
        var y: Double
        var z: Double
    }

    /// `count` rows at 100 Hz (±1 ms jitter) from 5_000 s since boot; a still phone (|a| ≈ 1 g) whose `y` encodes
    /// the row number so every row is recognisable after cleaning.
    static func accelTruth(count: Int = 1_000, scale: Double = 1) -> [AccelRow] {
        var rng = SplitMix64(seed: 7)
        return (0..<count).map { k in
            let t = 5_000 + Double(k) / 100 + Double.random(in: -0.001...0.001, using: &rng)
            return AccelRow(
                t: t, unix: 1_714_637_460 + (t - 5_000), x: scale * 0.03 * Double.sin(Double(k)),
                y: scale * Double(k) * 1e-6,
                z: scale * -1.01)
        }
    }

    /// Decodes rows written as a ResearchKit accelerometer log (`{"items":[…]}`).
    static func accelerometerLog(_ rows: [AccelRow]) throws -> AccelerometerLog {
        let items = rows.map {
            #"{"timestamp":\#($0.t),"timestampSince1970":\#($0.unix),"x":\#($0.x),"y":\#($0.y),"z":\#($0.z)}"#
        }
        let decoded = try RecorderLogDecoder.decode(
            Data(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8), file: "accel.json")
        guard case .accelerometer(let log) = decoded.log else { throw InputError(.unsupported, file: "accel.json") }
        return log
    }

    // MARK: - Accelerometer

    /// The shared pdkit mPower file: a still phone, 2023 samples at ~101.1 Hz, |a| ≈ 1.01 g, no defects.
    @Test func pdkitStationaryFileIsCleanAt101HzInG() throws {
        let path = sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json")
        try #require(
            FileManager.default.fileExists(atPath: path), "the shared reference data must sit beside the repository")
        guard case .accelerometer(let log) = try RecorderLogDecoder.decode(path: path).log else {
            Issue.record("not decoded as an accelerometer log")
            return
        }
        let cleaned = log.cleaned()
        let report = cleaned.report
        #expect(cleaned.log == log)
        #expect(report.inputCount == 2_023 && report.outputCount == 2_023)
        #expect(report.repairs.isEmpty && report.warnings.isEmpty)
        #expect(report.gaps.isEmpty && report.backwardSteps == 0 && report.duplicatesDropped == 0)
        let sampling = try #require(report.sampling)
        #expect(abs(sampling.medianRate - 101.09) < 0.05, "\(sampling.medianRate) Hz")
        #expect(abs(sampling.meanRate - 101.1) < 0.05 && abs(sampling.overallRate - 101.1) < 0.05)
        #expect(sampling.jitterMilliseconds < 0.01)
        #expect(report.timeSpan.isApproximatelyEqual(to: 20.0, absoluteTolerance: 0.05))
        let units = try #require(report.units)
        #expect(units.unit == .g && units.quantity == "|acceleration|" && units.samplesUsed == 2_023)
        #expect(try #require(units.medianMagnitude).isApproximatelyEqual(to: 1.01, absoluteTolerance: 0.005))
    }

    /// Reversed rows, a swapped pair, an exact and a conflicting duplicate, an unplaceable row: the cleaned log
    /// equals the truth in every column, `timestampSince1970` included, and every change is a repair.
    @Test func accelerometerColumnsMoveInLockstep() throws {
        let truthRows = Self.accelTruth()
        var rows = truthRows
        rows[200..<220].reverse()  // 19 backward steps
        rows.swapAt(600, 601)  // 1
        rows.insert(rows[400], at: 401)  // exact
        var conflict = rows[700]
        conflict.x = 0.5
        conflict.unix += 0.004  // the second clock does not decide duplicates: still x that conflicts
        rows.insert(conflict, at: 701)
        var twin = rows[800]
        twin.unix += 0.002  // same timestamp and values, different Unix time: still an exact duplicate
        rows.insert(twin, at: 801)
        var log = try Self.accelerometerLog(rows)
        log.timestamp[50] = .nan  // a row that cannot be placed (decoders never produce this; hand-built logs can)
        let truth = try Self.accelerometerLog(truthRows.enumerated().filter { $0.offset != 50 }.map(\.element))

        let cleaned = log.cleaned()
        #expect(cleaned.log == truth)
        let report = cleaned.report
        #expect(report.inputCount == 1_003 && report.outputCount == 999)
        #expect(report.backwardSteps == 20 && report.backwardStepRows.first == 201)
        #expect(report.duplicatesDropped == 2 && report.duplicateRows == [401, 801])
        #expect(report.conflictingDuplicates == 1 && report.conflictingDuplicateRows == [701])
        #expect(report.nonFiniteTimestamps == 1 && report.nonFiniteTimestampRows == [50])
        #expect(report.repairs.count == 4)
        #expect(report.units?.unit == .g)
        // True disorder (a reversed block, a swapped pair): sorted, and said so (issue 17: warn either way).
        #expect(report.orderRepair == .sorted && report.samplesReordered > 0 && report.samplesRestamped == 0)
        #expect(report.warnings.count == 1 && report.warnings[0].contains("sorted by time"), "\(report.warnings)")
        let sampling = try #require(report.sampling)
        #expect(sampling.medianRate.isApproximatelyEqual(to: 100, relativeTolerance: 0.005))
    }

    @Test func accelerometerUnitsAreCheckedAgainstTheLabelButNeverChanged() throws {
        var metres = try Self.accelerometerLog(Self.accelTruth(count: 200, scale: UnitDetection.standardGravity))
        let mislabelled = metres.cleaned()
        #expect(mislabelled.report.units?.unit == .metersPerSecondSquared)
        #expect(mislabelled.log.acceleration == metres.acceleration)
        #expect(mislabelled.report.repairs.isEmpty)
        let warning = try #require(mislabelled.report.warnings.first)
        #expect(
            warning.hasPrefix("acceleration is labelled g but median |acceleration| = 9.90")
                && warning.contains("→ m/s^2"))

        metres.unit = .metersPerSecondSquared
        #expect(metres.cleaned().report.warnings.isEmpty)

        var still = try Self.accelerometerLog(Self.accelTruth(count: 200, scale: 0.05))
        still.unit = .g
        let unknown = still.cleaned().report
        #expect(unknown.units?.unit == .unknown)
        #expect(
            unknown.warnings.first?.hasPrefix(
                "acceleration could not be confirmed as g: median |acceleration| = 0.0505") == true)
    }

    @Test func accelerometerReportEncodesForInspect() throws {
        var rows = Self.accelTruth(count: 300)
        rows.removeSubrange(100..<130)
        let report = try Self.accelerometerLog(rows).cleaned().report
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(report), encoding: .utf8))
        #expect(json.contains(#""unit":"g""#) && json.contains(#""quantity":"|acceleration|""#))
        #expect(json.contains(#""gaps":[{"duration":0.3"#))
        #expect(try JSONDecoder().decode(QualityReport.self, from: Data(json.utf8)) == report)
    }

    // MARK: - Device motion

    /// Writes a device-motion log; every column encodes the row number with its own offset, so a column that
    /// fell out of step would show.
    static func deviceMotionJSON(rows: [(t: Double, k: Double)], magnetic: Bool) -> Data {
        func v(_ base: Double, _ k: Double) -> String {
            #"{"x":\#(base + k * 1e-3),"y":\#(base + 0.1 + k * 1e-3),"z":\#(base + 0.2 + k * 1e-3)}"#
        }
        let items = rows.map { r in
            let gravity = #"{"x":0,"y":\#(-0.6 - r.k * 1e-6),"z":-0.8}"#
            let magneticField =
                magnetic
                ? #","magneticField":{"x":\#(30 + r.k),"y":\#(-5 - r.k),"z":\#(12 + r.k),"accuracy":\#(Int(r.k) % 3)}"#
                : ""
            return
                #"{"timestamp":\#(r.t),"timestampSince1970":\#(1_700_000_000 + r.t),"userAcceleration":\#(v(1, r.k)),"gravity":\#(gravity),"rotationRate":\#(v(3, r.k)),"attitude":{"x":\#(0.1 + r.k * 1e-4),"y":0.2,"z":0.3,"w":\#(0.9 - r.k * 1e-4)}\#(magneticField)}"#
        }
        return Data(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8)
    }

    static func deviceMotionLog(_ rows: [(t: Double, k: Double)], magnetic: Bool) throws -> DeviceMotionLog {
        let decoded = try RecorderLogDecoder.decode(
            deviceMotionJSON(rows: rows, magnetic: magnetic), file: "deviceMotion.json")
        guard case .deviceMotion(let log) = decoded.log else {
            throw InputError(.unsupported, file: "deviceMotion.json")
        }
        return log
    }

    /// Fuzz finding (FuzzRecorderLog, 2026-11-26): a device-motion log whose magneticField lacks one axis in every
    /// item (here z) reached hygiene with an empty magneticField.z column and trapped on its length check. It is a
    /// schema error naming the field, whichever axis is missing and however many items there are.
    @Test(arguments: ["x", "y", "z"], [1, 3])
    func aMagneticFieldWithoutAnAxisIsASchemaError(missing: String, count: Int) throws {
        let axes = ["x", "y", "z"].filter { $0 != missing }.map { #""\#($0)":30"# }.joined(separator: ",")
        let item = #"{"timestamp":0,"userAcceleration":{"x":0,"y":0,"z":0},"gravity":{"x":0,"y":-1,"z":0},"#
            + #""rotationRate":{"x":0,"y":0,"z":0},"attitude":{"x":0,"y":0,"z":0,"w":1},"#
            + #""magneticField":{\#(axes),"accuracy":-1}}"#
        let items = (0..<count).map { item.replacingOccurrences(of: #""timestamp":0"#, with: #""timestamp":\#($0)"#) }
        let json = "[" + items.joined(separator: ",") + "]"
        do {
            _ = try RecorderLogDecoder.decode(Data(json.utf8), file: "deviceMotion.json")
            Issue.record("decoded a magneticField without \(missing)")
        } catch {
            #expect(error.description.contains("magneticField.\(missing)"), "\(error)")
            #expect(error.description.contains("deviceMotion.json"), "\(error)")
        }
    }

    @Test(arguments: [true, false])
    func deviceMotionColumnsMoveInLockstep(magnetic: Bool) throws {
        let truthRows = (0..<500).map { (t: 300 + Double($0) / 50, k: Double($0)) }
        var rows = truthRows
        rows[100..<105].reverse()  // 4 backward steps
        rows.insert(rows[300], at: 301)  // exact duplicate
        rows.insert((t: rows[400].t, k: 9_999), at: 401)  // conflicting duplicate
        let log = try Self.deviceMotionLog(rows, magnetic: magnetic)
        let truth = try Self.deviceMotionLog(truthRows, magnetic: magnetic)
        #expect((log.magneticField != nil) == magnetic && (log.magneticFieldAccuracy != nil) == magnetic)

        let cleaned = log.cleaned()
        #expect(cleaned.log == truth)
        let report = cleaned.report
        #expect(report.backwardSteps == 4 && report.duplicatesDropped == 1 && report.conflictingDuplicates == 1)
        #expect(report.duplicateRows == [301] && report.conflictingDuplicateRows == [401])
        #expect(report.outputCount == 500 && report.repairs.count == 3)
        #expect(try #require(report.sampling).medianRate.isApproximatelyEqual(to: 50, relativeTolerance: 1e-6))
        #expect(report.units?.unit == .g && report.units?.quantity == "|gravity|")
        #expect(report.orderRepair == .sorted && report.warnings.count == 1, "\(report.warnings)")
    }

    @Test func deviceMotionNonFiniteValuesAreNamedByColumn() throws {
        var log = try Self.deviceMotionLog((0..<100).map { (t: Double($0) / 100, k: Double($0)) }, magnetic: true)
        log.rotationRate.y[10] = .nan
        log.magneticFieldAccuracy?[20] = .infinity
        let report = log.cleaned().report
        #expect(report.nonFiniteValues == 2 && report.repairs.isEmpty)
        #expect(report.nonFiniteValuesByChannel.map(\.channel) == ["rotationRate.y", "magneticField.accuracy"])
    }

    @Test func deviceMotionGravityOutOfUnitIsWarnedAbout() throws {
        var log = try Self.deviceMotionLog((0..<100).map { (t: Double($0) / 100, k: Double($0)) }, magnetic: false)
        log.gravity = Vector3Series(
            x: log.gravity.x.map { $0 * 9.80665 }, y: log.gravity.y.map { $0 * 9.80665 },
            z: log.gravity.z.map { $0 * 9.80665 })
        let cleaned = log.cleaned()
        #expect(cleaned.report.units?.unit == .metersPerSecondSquared)
        #expect(cleaned.report.warnings.first?.hasPrefix("gravity is labelled g but median |gravity| = 9.8") == true)
        #expect(cleaned.log == log)
    }

    /// The shared mhealthtools mPower walk (device motion, 2991 rows, dt median 10.009 ms): clean, 99.9 Hz, |g| = 1.
    @Test func mhealthtoolsDeviceMotionWalkIsCleanAt99Point9Hz() throws {
        let path = sharedDataPath("mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz")
        try #require(
            FileManager.default.fileExists(atPath: path), "the shared reference data must sit beside the repository")
        let text = try #require(String(data: try FileBytes.read(path: path), encoding: .utf8))
        let lines = text.split(separator: "\n").dropFirst()
        var rows: [[Double]] = []
        for line in lines { rows.append(try line.split(separator: ",").map { try #require(Double($0)) }) }
        #expect(rows.count == 2_991)
        // Columns: timestamp, ua xyz, g xyz, rr xyz, att xyzw → a ResearchKit deviceMotion log.
        let items = rows.map { r in
            #"{"timestamp":\#(r[0]),"userAcceleration":{"x":\#(r[1]),"y":\#(r[2]),"z":\#(r[3])},"gravity":{"x":\#(r[4]),"y":\#(r[5]),"z":\#(r[6])},"rotationRate":{"x":\#(r[7]),"y":\#(r[8]),"z":\#(r[9])},"attitude":{"x":\#(r[10]),"y":\#(r[11]),"z":\#(r[12]),"w":\#(r[13])}}"#
        }
        guard
            case .deviceMotion(let log) = try RecorderLogDecoder.decode(
                Data("[\(items.joined(separator: ","))]".utf8), file: path
            ).log
        else {
            Issue.record("not decoded as device motion")
            return
        }
        let cleaned = log.cleaned()
        let report = cleaned.report
        #expect(cleaned.log == log && report.repairs.isEmpty && report.gaps.isEmpty && report.warnings.isEmpty)
        let sampling = try #require(report.sampling)
        #expect(abs(sampling.medianRate - 99.91) < 0.01, "\(sampling.medianRate) Hz")
        #expect(report.timeSpan.isApproximatelyEqual(to: 29.9, absoluteTolerance: 0.05))
        #expect(try #require(report.units?.medianMagnitude).isApproximatelyEqual(to: 1, absoluteTolerance: 1e-6))
        #expect(report.units?.unit == .g)
    }
}
