import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs
@testable import StudyOutputs

/// The Oxford step-counter validation walks (foot-switch ground truth) and their degraded variants.
enum OxfordWalks {
    /// File stems in `../shared/data/oxford-step-counter/`.
    static let names = [
        "user1_hand_1506421989895", "user1_frontpocket_1506422223341", "user1_backpocket_1506422470497",
        "user1_neckpouch_1506422851785",
    ]

    /// How a recording is degraded before analysis.
    enum Variant: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// As recorded (about 100 Hz).
        case original = "100 Hz"
        /// Anti-aliased and resampled to 25 Hz.
        case rate25 = "25 Hz"
        /// Anti-aliased and resampled to 15 Hz.
        case rate15 = "15 Hz"
        /// 10 % of the samples dropped at random plus three 1-s gaps (seeded).
        case dropouts = "10 % dropped + 3 × 1 s gaps"

        var testDescription: String { rawValue }
    }

    /// One file analysed in one variant.
    struct Row: Sendable {
        var name: String
        var variant: Variant
        var truthSteps: Int
        var detectedSteps: Int
        var truthCadence: Double
        var cadence: Double?
        var interpolatedSteps: Int
        var bouts: Int

        /// Signed step-count error, %.
        var error: Double { 100 * Double(detectedSteps - truthSteps) / Double(truthSteps) }
        /// Cadence error, steps/min (nil without a cadence).
        var cadenceError: Double? { cadence.map { $0 - truthCadence } }
    }

    /// A recording and its ground truth.
    struct Walk: Sendable {
        var name: String
        var log: AccelerometerLog
        /// Ground-truth step event times, s (each +1 of the cumulative `steps_ground_truth` column).
        var truthTimes: [Double]

        /// Ground-truth cadence, steps/min: `60 · (n − 1) / (t_last − t_first)` over the step events.
        var truthCadence: Double {
            60 * Double(truthTimes.count - 1) / (truthTimes[truthTimes.count - 1] - truthTimes[0])
        }
    }

    static func load(_ name: String) throws -> Walk {
        let out = try AccelerometerCSVReader.read(
            path: sharedDataPath("oxford-step-counter/\(name).csv.gz"), options: .oxfordStepCounter)
        let truth = try #require(out.extraColumn(named: "steps_ground_truth"))
        var times: [Double] = []
        for i in 1..<truth.count where truth[i] == truth[i - 1] + 1 { times.append(out.log.timestamp[i]) }
        return Walk(name: name, log: out.log, truthTimes: times)
    }

    /// The log in `variant` (deterministic).
    static func degrade(_ log: AccelerometerLog, _ variant: Variant, seed: UInt64) throws -> AccelerometerLog {
        switch variant {
        case .original: return log
        case .rate25: return try resample(log, up: 1, down: 4)
        case .rate15: return try resample(log, up: 3, down: 20)
        case .dropouts: return dropSamples(log, seed: seed)
        }
    }

    /// Linear interpolation onto a 100 Hz grid (every gap bridged), then `PolyphaseResampler` (Kaiser
    /// anti-aliasing FIR) by `up/down` per axis, around each axis' mean so the edges do not dip.
    static func resample(_ log: AccelerometerLog, up: Int, down: Int) throws -> AccelerometerLog {
        let a = log.acceleration
        let grid = try UniformResampling(
            timestamps: log.timestamp, channels: [a.x, a.y, a.z], rate: 100,
            options: ResamplingOptions(gapFactor: nil, maximumInterval: nil))
        let channels = grid.contiguousChannels()
        let resampler = PolyphaseResampler(up: up, down: down)
        let axes = channels.map { channel -> [Double] in
            let mean = channel.reduce(0, +) / Double(channel.count)
            return resampler.resample(channel.map { $0 - mean }).map { $0 + mean }
        }
        let rate = 100 * Double(up) / Double(down)
        let start = grid.segments[0].startTime
        let timestamps = (0..<axes[0].count).map { start + Double($0) / rate }
        return AccelerometerLog(
            timestamp: timestamps, timestampSince1970: nil,
            acceleration: Vector3Series(x: axes[0], y: axes[1], z: axes[2]), unit: log.unit)
    }

    /// Drops each sample with probability 0.1, then removes three 1-s stretches starting at random times
    /// between 10 s after the start and 11 s before the end.
    static func dropSamples(_ log: AccelerometerLog, seed: UInt64) -> AccelerometerLog {
        var random = SplitMix64(seed: seed)
        let t0 = log.timestamp.min()!
        let t1 = log.timestamp.max()!
        let gaps = (0..<3).map { _ in t0 + 10 + random.nextUnit() * (t1 - t0 - 21) }
        var keep: [Int] = []
        for i in log.timestamp.indices {
            let dropped = random.nextUnit() < 0.1
            let inGap = gaps.contains { log.timestamp[i] >= $0 && log.timestamp[i] < $0 + 1 }
            if !dropped && !inGap { keep.append(i) }
        }
        let a = log.acceleration
        return AccelerometerLog(
            timestamp: keep.map { log.timestamp[$0] }, timestampSince1970: nil,
            acceleration: Vector3Series(x: keep.map { a.x[$0] }, y: keep.map { a.y[$0] }, z: keep.map { a.z[$0] }),
            unit: log.unit)
    }

    /// Every file in every variant, computed once for all tests.
    static let table: [Row] = {
        var rows: [Row] = []
        for (number, name) in names.enumerated() {
            guard let walk = try? load(name) else { continue }
            for variant in Variant.allCases {
                guard let log = try? degrade(walk.log, variant, seed: 0x5EED + UInt64(number)) else { continue }
                let result = WalkingProcessor.analyze(log.cleaned())
                rows.append(
                    Row(
                        name: name, variant: variant, truthSteps: walk.truthTimes.count,
                        detectedSteps: result.stepCount ?? -1,
                        truthCadence: walk.truthCadence, cadence: result.cadence,
                        interpolatedSteps: result.quality.interpolatedSteps, bouts: result.bouts.count))
            }
        }
        return rows
    }()

    /// What the analysis measured on 2026-11-25, per variant.
    ///
    /// Detected steps per file (in ``names`` order), |cadence error| per file (steps/min, to 0.1), and the MAPE (%).
    /// Ground truth (326, 327, 343, 346 steps) comes from the files' foot-switch column, not from here.
    ///
    /// Measure with `swift test --skip-build --scratch-path .build-acc --filter WalkingTests/printAccuracyTable`.
    static let measured: [Variant: (steps: [Int], cadenceError: [Double], mape: Double)] = [
        // Measured 2026-11-25 after issue 17's step-sequence pass and chain-edge trimming (before: 0.37, 0.38, 0.30,
        // 0.44 % MAPE); the neck pouch lost its spurious last step at every rate.
        .original: ([326, 325, 344, 347], [0.3, 1.2, 0.4, 0.3], 0.30),  // 0.303; worst −0.61 % (front pocket)
        .rate25: ([328, 326, 344, 346], [0.3, 1.1, 0.4, 0.4], 0.30),  // 0.303; worst +0.61 % (hand)
        .rate15: ([328, 327, 344, 346], [0.3, 1.4, 0.4, 0.4], 0.23),  // 0.226; worst +0.61 % (hand)
        .dropouts: ([326, 325, 345, 347], [0.3, 1.2, 0.7, 0.3], 0.37),  // 0.370; worst −0.61 % (front pocket)
    ]

    /// Checks `rows` (one per file, in ``names`` order) against ``measured``: per-file |error| ≤ measured + 0.3
    /// points, |cadence error| ≤ measured + 0.3 steps/min, MAPE ≤ measured + 0.2 points.
    static func checkAgainstMeasured(_ rows: [Row], variant: Variant) throws {
        let pinned = try #require(measured[variant])
        try #require(rows.map(\.name) == names, "\(rows.map(\.name))")
        try #require(pinned.steps.count == rows.count && pinned.cadenceError.count == rows.count)
        for (index, row) in rows.enumerated() {
            let measuredSteps = pinned.steps[index]
            let measuredError = abs(100 * Double(measuredSteps - row.truthSteps) / Double(row.truthSteps))
            #expect(
                abs(row.error) <= measuredError + 0.3,
                "\(variant.rawValue) \(row.name): \(row.detectedSteps) for \(row.truthSteps) (measured \(measuredSteps))"
            )
            let cadenceError = try #require(row.cadenceError, "\(variant.rawValue) \(row.name): no cadence")
            #expect(
                abs(cadenceError) <= pinned.cadenceError[index] + 0.3,
                "\(variant.rawValue) \(row.name): cadence \(row.cadence ?? 0) vs \(row.truthCadence)")
        }
        let mape = rows.map { abs($0.error) }.reduce(0, +) / Double(rows.count)
        #expect(mape <= pinned.mape + 0.2, "\(variant.rawValue): MAPE \(mape) % (measured \(pinned.mape) %)")
    }

    /// The accuracy table as Markdown, for docs/walking.md.
    static func markdown(_ rows: [Row]) -> String {
        func f(_ x: Double?, _ digits: Int = 1) -> String { x.map { String(format: "%.\(digits)f", $0) } ?? "–" }
        var lines = [
            "| file | variant | GT steps | detected | error % | GT cadence | cadence | Δ cadence | interpolated |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in rows {
            let placement = r.name.split(separator: "_")[1]
            lines.append(
                "| \(placement) | \(r.variant.rawValue) | \(r.truthSteps) | \(r.detectedSteps) | \(f(r.error, 2)) | "
                    + "\(f(r.truthCadence)) | \(f(r.cadence)) | \(f(r.cadenceError)) | \(r.interpolatedSteps) |")
        }
        for variant in Variant.allCases {
            let errors = rows.filter { $0.variant == variant }.map { abs($0.error) }
            guard !errors.isEmpty else { continue }
            lines.append(
                "| **MAPE** | \(variant.rawValue) | | | \(f(errors.reduce(0, +) / Double(errors.count), 2)) "
                    + "(worst \(f(errors.max(), 2))) | | | | |")
        }
        return lines.joined(separator: "\n")
    }
}

@Suite struct WalkingTests {
    // MARK: Oxford accuracy (issue 4 targets)

    @Test func oxfordFilesAreAllAnalysed() {
        #expect(OxfordWalks.table.count == OxfordWalks.names.count * OxfordWalks.Variant.allCases.count)
    }

    /// Per file, |error| may not exceed the measured |error| + 0.3 points (about one step of these 326–346-step
    /// walks) and |cadence error| the measured one + 0.3 steps/min; the MAPE may not exceed the measured MAPE + 0.2
    /// points (``OxfordWalks/measured``).
    @Test func oxfordOriginalRecordings() throws {
        let rows = OxfordWalks.table.filter { $0.variant == .original }
        try #require(rows.count == 4)
        try OxfordWalks.checkAgainstMeasured(rows, variant: .original)
        for row in rows { #expect(row.bouts == 1, "\(row.name): one continuous walk, \(row.bouts) bouts") }
    }

    @Test(arguments: [OxfordWalks.Variant.rate25, .rate15, .dropouts])
    func oxfordDegradedRecordings(variant: OxfordWalks.Variant) throws {
        let rows = OxfordWalks.table.filter { $0.variant == variant }
        try #require(rows.count == 4)
        try OxfordWalks.checkAgainstMeasured(rows, variant: variant)
        if variant == .dropouts {
            #expect(rows.allSatisfy { $0.interpolatedSteps > 0 }, "the 1-s gaps are walked through")
        }
    }

    @Test func printAccuracyTable() {
        // The table skips a walk that fails to load or degrade; the printed table must hold every walk × variant.
        #expect(!OxfordWalks.names.isEmpty)
        #expect(OxfordWalks.table.count == OxfordWalks.names.count * OxfordWalks.Variant.allCases.count)
        let markdown = OxfordWalks.markdown(OxfordWalks.table)
        // Header and separator, one line per row, one MAPE line per variant.
        #expect(
            markdown.split(separator: "\n").count == 2 + OxfordWalks.table.count + OxfordWalks.Variant.allCases.count)
        print("Walking step-count accuracy on the Oxford validation walks:\n" + markdown)
    }

    /// The top of the 15–200 Hz range issue 17 asks for: each walk upsampled to 200 Hz (Kaiser polyphase, ×2) is
    /// counted as at 100 Hz, within one step (measured 2026-11-25: 326, 325, 344, 346; at 100 Hz 326, 325, 344, 347).
    @Test func oxfordAt200Hz() throws {
        let measured = [326, 325, 344, 346]
        for (index, name) in OxfordWalks.names.enumerated() {
            let walk = try OxfordWalks.load(name)
            let log = try OxfordWalks.resample(walk.log, up: 2, down: 1)
            let result = WalkingProcessor.analyze(log.cleaned())
            let rate = try #require(result.samplingRate)
            #expect(abs(rate - 200) < 0.01, "\(name): \(rate) Hz")
            let steps = try #require(result.stepCount)
            print("Oxford \(name) at 200 Hz: \(steps) steps for \(walk.truthTimes.count)")
            #expect(
                abs(steps - measured[index]) <= 1, "\(name): \(steps) steps at 200 Hz (measured \(measured[index]))")
            // And against the foot-switch truth: no worse than the 100 Hz recordings' worst error (2 steps, −0.61 %).
            let truth = walk.truthTimes.count
            #expect(abs(steps - truth) <= 2, "\(name): \(steps) for \(truth)")
        }
    }

    // MARK: Negative control and other real data

    @Test func stationaryPhoneHasNoSteps() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("mpower-samples/pdkit_mpower_gait_stationary.json"))
        let results = WalkingProcessor.analyze(input)
        let result = try #require(results.first)
        #expect(results.count == 1)
        #expect(result.stepCount == 0)
        #expect(result.stepTimes.isEmpty && result.bouts.isEmpty)
        #expect(result.walkingDuration == 0 && result.cadence == nil)
        #expect(result.signal == "accelerometer")
        let rate = try #require(result.samplingRate)
        #expect(abs(rate - 101.1) < 0.2)
        #expect(result.quality.warnings.contains { $0.hasPrefix("no walking detected") })
    }

    // The mhealthtools device-motion walk is `WalkingRealDataTests.deviceMotionWalk`.

    // MARK: Synthetic signals

    @Test(arguments: [
        (1.8, AccelerationUnit.g), (1.8, .metersPerSecondSquared), (1.2, .g), (2.2, .metersPerSecondSquared),
    ])
    func syntheticWalkInAnyOrientationAndUnit(frequency: Double, unit: AccelerationUnit) throws {
        let log = SyntheticWalk.accelerometer(stepFrequency: frequency, duration: 60, rate: 50, unit: unit, seed: 7)
        let result = WalkingProcessor.analyze(log.cleaned())
        let expected = frequency * 60
        #expect(abs(Double(result.stepCount ?? -1) - expected) <= 3, "\(result.stepCount) steps for \(expected)")
        let cadence = try #require(result.cadence)
        #expect(abs(cadence - expected) < 1, "cadence \(cadence)")
        let dominant = try #require(result.dominantFrequency)
        #expect(abs(dominant - frequency) < 0.05)
        let mean = try #require(result.stepTimeMean)
        #expect(abs(mean - 1 / frequency) < 0.01)
        #expect(try #require(result.stepTimeCV) < 5)
        #expect(try #require(result.strideRegularity) > 0.8)
        #expect(result.quality.accelerationUnit == unit.rawValue)
    }

    @Test func mislabelledUnitIsDetected() throws {
        var log = SyntheticWalk.accelerometer(
            stepFrequency: 1.8, duration: 40, rate: 50, unit: .metersPerSecondSquared, seed: 3)
        log.unit = .g  // wrong label: values are ≈ 9.81
        let result = WalkingProcessor.analyze(log.cleaned())
        #expect(result.quality.accelerationUnit == "m/s^2")
        #expect(result.quality.warnings.contains { $0.contains("analysed as m/s^2") })
        #expect(abs(Double(result.stepCount ?? -1) - 72) <= 3)
    }

    @Test func syntheticDeviceMotionWalk() throws {
        let log = SyntheticWalk.deviceMotion(stepFrequency: 1.7, duration: 30, rate: 100, seed: 11)
        let result = WalkingProcessor.analyze(log.cleaned(), stepIdentifier: "walking.outbound")
        #expect(abs(Double(result.stepCount ?? -1) - 51) <= 3, "\(result.stepCount)")
        #expect(result.signal == "deviceMotion")
    }

    @Test func pedometerAndTimedWalkAreAttached() throws {
        let log = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 5)
        let sampleDate = ResultDate(date: Date(timeIntervalSince1970: 0), utcOffset: 0)
        let pedometer = PedometerLog(samples: [
            PedometerSample(startDate: sampleDate, endDate: sampleDate, numberOfSteps: 30)
        ])
        let timed = ResearchKit.TimedWalkResult(
            header: ResearchKit.ResultHeader(className: "ORKTimedWalkResult", identifier: "timed.walk.trial1"),
            distanceInMeters: 7.62, timeLimit: 180,
            duration: 6.1)
        let result = WalkingProcessor.analyze(
            log.cleaned(), pedometer: pedometer, timedWalk: timed, stepIdentifier: "timed.walk.trial1")
        #expect(result.pedometerStepCount == 30)
        #expect(result.pedometerDifference == result.stepCount.map { $0 - 30 })
        let speed = try #require(result.gaitSpeed)
        #expect(abs(speed - 7.62 / 6.1) < 1e-12)
        #expect(result.pedometerDistance == nil, "this pedometer log records no distance")
        #expect(result.pedometerDuration == 0)
    }

    /// ResearchKit's fitness check (the six-minute walk): the pedometer's last cumulative distance is the
    /// six-minute walk distance, and its time span the walk's duration — as recorded, in m and s.
    @Test func sixMinuteWalkDistanceIsThePedometersLastDistance() throws {
        let log = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 5)
        let start = ResultDate(date: Date(timeIntervalSince1970: 1_700_000_000), utcOffset: 0)
        func at(_ s: Double) -> ResultDate {
            ResultDate(date: Date(timeIntervalSince1970: 1_700_000_000 + s), utcOffset: 0)
        }
        let pedometer = PedometerLog(samples: [
            PedometerSample(startDate: start, endDate: at(120), numberOfSteps: 210, distance: 161.5),
            PedometerSample(startDate: start, endDate: at(360), numberOfSteps: 640, distance: 482.25),
        ])
        let result = WalkingProcessor.analyze(
            log.cleaned(), pedometer: pedometer, timedWalk: nil, stepIdentifier: "fitness.walk")
        #expect(result.pedometerStepCount == 640)
        #expect(result.pedometerDistance == 482.25)
        #expect(result.pedometerDuration == 360)
        let json = try ResultEncoding.json(result)
        #expect(json.contains("\"pedometerDistance\" : 482.25") && json.contains("\"pedometerDuration\" : 360"))
        let csv = result.csvTable
        let column = try #require(csv.header.firstIndex(of: "pedometerDistance"))
        #expect(csv.rows[0][column] == "482.25")
        // Its FHIR code is LOINC's six-minute walk test (64098-7), in m; another step's pedometer distance is local.
        var skipped: [String] = []
        let measures = WalkingAnalysis.exportMeasures(of: result, skipped: &skipped)
        let walk = try #require(measures.first { $0.code == "64098-7" })
        #expect(walk.system == "http://loinc.org" && walk.value == 482.25 && walk.unitCode == "m")
        var other = result
        other.stepIdentifier = "walking.outbound"
        let local = WalkingAnalysis.exportMeasures(of: other, skipped: &skipped)
        #expect(!local.contains { $0.code == "64098-7" })
        #expect(local.contains { $0.code == "walking.pedometerDistance" && $0.system == ScoredTasks.codeSystem })
    }

    // MARK: Whole tasks

    /// A ResearchKit task folder: a timed walk with accelerometer, pedometer and `ORKTimedWalkResult`, and a rest
    /// step with a still phone; one result per step, each with its own attachments.
    @Test func researchKitTaskFolderGivesOneResultPerStep() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("walking-task-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func recorderJSON(_ log: AccelerometerLog) -> String {
            let a = log.acceleration
            let items = log.timestamp.indices.map { i in
                "{\"timestamp\":\(log.timestamp[i]),\"x\":\(a.x[i]),\"y\":\(a.y[i]),\"z\":\(a.z[i])}"
            }
            return "{\"items\":[" + items.joined(separator: ",") + "]}"
        }
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.9, duration: 25, rate: 100, unit: .g, seed: 21)
        let rest = SyntheticWalk.accelerometer(
            stepFrequency: 1.9, duration: 20, rate: 100, unit: .g, seed: 22, amplitude: 0)
        try recorderJSON(walk).write(
            to: folder.appendingPathComponent("accel_walk.json"), atomically: true, encoding: .utf8)
        try recorderJSON(rest).write(
            to: folder.appendingPathComponent("accel_rest.json"), atomically: true, encoding: .utf8)
        let pedometer = """
            {"items":[{"startDate":"2024-05-03T09:01:00-0400","endDate":"2024-05-03T09:01:25-0400","numberOfSteps":44}]}
            """
        try pedometer.write(to: folder.appendingPathComponent("pedometer_walk.json"), atomically: true, encoding: .utf8)
        func file(_ identifier: String, _ name: String) -> String {
            """
            {"_class":"ORKFileResult","identifier":"\(identifier)","contentType":"application/json","fileName":"\(name)"}
            """
        }
        let task = """
            {"_class":"ORKTaskResult","identifier":"timedWalk","taskRunUUID":"0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F30",
             "results":[
              {"_class":"ORKStepResult","identifier":"timed.walk.trial1","results":[
                \(file("accelerometer", "accel_walk.json")), \(file("pedometer", "pedometer_walk.json")),
                {"_class":"ORKTimedWalkResult","identifier":"timed.walk.trial1","distanceInMeters":25,"timeLimit":180,
                 "duration":20.5}]},
              {"_class":"ORKStepResult","identifier":"timed.walk.trial2","results":[
                {"_class":"ORKTimedWalkResult","identifier":"timed.walk.trial2","distanceInMeters":25,"timeLimit":180,
                 "duration":19.75}]},
              {"_class":"ORKStepResult","identifier":"walking.rest","results":[\(file("accelerometer", "accel_rest.json"))]}
             ]}
            """
        try task.write(to: folder.appendingPathComponent("taskResult.json"), atomically: true, encoding: .utf8)

        let input = try AnalysisRegistry.load(path: folder.path)
        #expect(input.dialect == .researchKitTaskFolder)
        let results = WalkingProcessor.analyze(input)
        try #require(results.count == 2)  // the rest step is not walking (issue 17): summarised, never counted
        let trial = results[0]
        #expect(trial.stepIdentifier == "timed.walk.trial1")
        #expect(abs(Double(trial.stepCount ?? -1) - 1.9 * 25) <= 3, "\(trial.stepCount)")
        #expect(trial.pedometerStepCount == 44)
        #expect(trial.pedometerDifference == trial.stepCount.map { $0 - 44 })
        #expect(try #require(trial.gaitSpeed) == 25 / 20.5)
        #expect(trial.source?.hasSuffix("accel_walk.json") == true)
        // The second trial was recorded without motion data: its gait speed only, the step count unknown.
        let second = results[1]
        #expect(second.stepIdentifier == "timed.walk.trial2")
        #expect(second.signal == "none" && second.stepCount == nil && second.cadence == nil)
        #expect(try #require(second.gaitSpeed) == 25 / 19.75)
        #expect(input.kinds == [.walking, .balance])
        let resting = MotionSignalResult.results(for: input)
        try #require(resting.count == 1)
        #expect(resting[0].stepIdentifier == "walking.rest" && resting[0].task == .rest)
        // JSON: a trial's gait speed is always a key; the rest step has no step count at all.
        let json = try ResultEncoding.json(ResultList(results))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(decoded[1]["stepCount"] is NSNull && decoded[1]["gaitSpeed"] as? Double == 25 / 19.75)
        let restJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(ResultEncoding.json(resting[0]).utf8)) as? [String: Any])
        #expect(
            restJSON["kind"] as? String == "motionSignal" && restJSON["stepCount"] == nil
                && restJSON["gaitSpeed"] == nil)
    }

    /// The shared `ORKTimedWalkResult` sample on its own (duration 0): a result with a null gait speed and a
    /// warning saying why, not an error.
    @Test func timedWalkResultAloneGivesGaitSpeedOrReason() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("researchkit-samples/ORKTimedWalkResult.json"))
        let results = WalkingProcessor.analyze(input)
        try #require(results.count == 1)
        #expect(results[0].signal == "none" && results[0].hasTimedWalk && results[0].gaitSpeed == nil)
        #expect(results[0].quality.warnings.contains { $0.contains("duration is 0.0 s") })
    }

    /// A MyDataHelps step folder (`SurveyData/<participant>/<survey>/walking.outbound/`) loaded file by file: the
    /// fixture holds 10 samples, too few to analyse, so the result is 0 steps with a warning, not a failure.
    @Test func myDataHelpsWalkingFolder() throws {
        let input = try AnalysisRegistry.load(
            path: fixturePath("mydatahelps/SurveyData/P-0001/SR-77/walking.outbound"))
        let results = WalkingProcessor.analyze(input)
        try #require(!results.isEmpty)
        for result in results {
            #expect(result.stepCount == 0)
            #expect(!result.quality.warnings.isEmpty)
        }
    }

    /// Recordings of one step are grouped by step identifier within one directory: the pedometer beside an
    /// accelerometer log is attached to it, not to the same step's log in another directory.
    @Test func recordingsAreGroupedByStepAndDirectory() throws {
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 50, unit: .g, seed: 31)
        let date = ResultDate(date: Date(timeIntervalSince1970: 0), utcOffset: 0)
        let pedometer = PedometerLog(samples: [PedometerSample(startDate: date, endDate: date, numberOfSteps: 35)])
        let child = { (file: String, data: RecordingData) in WalkingStepFolder.child(file, data, kind: .walking) }
        let folder = WalkingStepFolder.folder(
            [
                child("/data/a/walking.outbound/Accelerometer.json", .accelerometer(walk.cleaned())),
                child("/data/a/walking.outbound/Pedometer.json", .pedometer(pedometer)),
                child("/data/b/walking.outbound/Accelerometer.json", .accelerometer(walk.cleaned())),
            ], kind: .walking)
        let results = WalkingProcessor.analyze(folder)
        try #require(results.count == 2)
        #expect(results[0].source == "/data/a/walking.outbound/Accelerometer.json")
        #expect(results[0].pedometerStepCount == 35)
        #expect(results[1].pedometerStepCount == nil)
        #expect(results.allSatisfy { $0.stepIdentifier == "walking.outbound" && $0.stepCount == results[0].stepCount })
    }

    @Test func tableAndCSVForms() throws {
        let log = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 50, unit: .g, seed: 32)
        let result = WalkingProcessor.analyze(log.cleaned(), stepIdentifier: "walking.outbound")
        let table = try ResultEncoding.render(result, as: .table)
        #expect(table.contains("Walking walking.outbound"))
        #expect(table.contains("steps/min"))
        let csv = try ResultEncoding.render(result, as: .csv).split(separator: "\n")
        #expect(csv.count == 2)
        #expect(csv[0].hasPrefix("stepIdentifier,source,signal,stepCount,cadence"))
        #expect(csv[1].hasPrefix("walking.outbound,,accelerometer,\(result.stepCount ?? -1),"))
    }

    // MARK: Degenerate input

    @Test(arguments: [0, 1, 2, 50])
    func emptyAndShortInputGiveZeroStepsWithAWarning(count: Int) {
        let log = AccelerometerLog(
            timestamp: (0..<count).map { Double($0) / 100 }, timestampSince1970: nil,
            acceleration: Vector3Series(
                x: [Double](repeating: 0, count: count), y: [Double](repeating: 0, count: count),
                z: [Double](repeating: 1, count: count)), unit: .g)
        let result = WalkingProcessor.analyze(log.cleaned())
        #expect(result.stepCount == 0)
        #expect(result.cadence == nil && result.stepTimeMean == nil)
        #expect(!result.quality.warnings.isEmpty)
    }

    /// Fuzz finding (FuzzRecorderLog, minimised): a far timestamp is a warning, not a trap.
    ///
    /// A timestamp of 8.9e19 s among ordinary ones trapped converting the resampling grid to Int; the walk now gives
    /// 0 steps with the resampler's reason as a warning.
    @Test func aFarTimestampIsAWarningNotATrap() {
        let log = AccelerometerLog(
            timestamp: [8, 868, 8.9e19, 79], timestampSince1970: nil,
            acceleration: Vector3Series(x: [6, 5, 0, 4], y: [0, 5, 5, 6], z: [38, 1, 75, 12]), unit: .g)
        let result = WalkingProcessor.analyze(log.cleaned())
        #expect(result.stepCount == 0)
        #expect(result.quality.warnings.contains { $0.contains("span too long a time") })
    }

    /// A pedometer log built through the API with a negative final count: `Int.min` trapped `stepCount − count`
    /// (found by `FuzzWalking`, session 20). Now a warning and no comparison; `Int.max` is still compared.
    @Test func aNegativePedometerCountIsAWarningNotATrap() throws {
        let log = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 5)
        let date = ResultDate(date: Date(timeIntervalSince1970: 0), utcOffset: 0)
        func analyzed(_ count: Int) -> WalkingResult {
            let pedometer = PedometerLog(samples: [
                PedometerSample(startDate: date, endDate: date, numberOfSteps: 12),
                PedometerSample(startDate: date, endDate: date, numberOfSteps: count),
            ])
            return WalkingProcessor.analyze(log.cleaned(), pedometer: pedometer)
        }
        for count in [Int.min, -1] {
            let result = analyzed(count)
            #expect(result.pedometerStepCount == nil)
            #expect(result.pedometerDifference == nil)
            let warning = "final numberOfSteps is \(count), not a step count"
            #expect(result.quality.warnings.contains { $0.contains(warning) })
            #expect(try #require(result.stepCount) > 20, "the walk itself is still analysed")
        }
        let largest = analyzed(Int.max)
        let steps = try #require(largest.stepCount)
        #expect(largest.pedometerStepCount == Int.max)
        #expect(largest.pedometerDifference == steps - Int.max)
    }

    @Test func restingPhoneInAWalkingTaskHasNoSteps() {
        let log = SyntheticWalk.accelerometer(
            stepFrequency: 1.8, duration: 30, rate: 100, unit: .g, seed: 9, amplitude: 0)
        let result = WalkingProcessor.analyze(log.cleaned(), stepIdentifier: "walking.rest")
        #expect(result.stepCount == 0)
        #expect(result.walkingDuration == 0)
    }

    @Test func jsonHasEveryKeyOfTheIssue() throws {
        let log = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 60, unit: .g, seed: 1)
        for result in [
            WalkingProcessor.analyze(log.cleaned()),
            WalkingProcessor.analyze(AccelerometerLog(timestamp: [], acceleration: Vector3Series()).cleaned()),
        ] {
            let json = try ResultEncoding.json(result)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            for key in [
                "stepCount", "cadence", "walkingDuration", "stepTimeMean", "stepTimeSD", "stepTimeCV", "stepRegularity",
                "strideRegularity", "symmetry", "dominantFrequency", "samplingRate", "stepTimes", "bouts", "quality",
            ] {
                #expect(object.keys.contains(key), "missing \(key)")
            }
            #expect(object["pedometerStepCount"] == nil && object["gaitSpeed"] == nil)
            let decoded = try JSONDecoder().decode(WalkingResult.self, from: Data(json.utf8))
            #expect(decoded == result)
        }
    }
}

/// The arm-swing reading end to end: a wrist walk whose |a| repeats once per stride (``WristModel``, 120 steps/min,
/// swing 0.35 rad, body 1 cm), written as a `t,x,y,z` CSV in g and analysed as `taskproc analyze` does. The processor
/// hands the detector the three axes, which show the swing: within a step of the walk's 120 (measured 2026-11-26:
/// 121); |a| alone repeats once per stride and counts the 60 strides (measured 61).
@Suite struct WristWalkingTests {
    @Test func aWristWalkIsCountedFromItsSwing() throws {
        let walk = WristModel.walk(stepFrequency: 2.0, swing: 0.35, vertical: 0.01)
        let directory = TemporaryDirectory()
        var text = "t,x,y,z\n"
        for i in walk.times.indices {
            text += "\(walk.times[i]),\(walk.axes.x[i]),\(walk.axes.y[i]),\(walk.axes.z[i])\n"
        }
        let path = directory.path("wrist.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let results = WalkingProcessor.analyze(try AnalysisRegistry.load(path: path))
        try #require(results.count == 1)
        let steps = try #require(results[0].stepCount)
        #expect(abs(steps - 120) <= 1, "\(steps) steps for 120")
        #expect(results[0].bouts.map(\.detection) == ["armSwing"], "\(results[0].bouts.map(\.detection))")
        #expect(results[0].quality.warnings.contains { $0.contains("two per swing") }, "\(results[0].quality.warnings)")
        let alone = StepDetector().detect(timestamps: walk.times, magnitude: walk.values)
        #expect(abs(alone.stepCount - 60) <= 1, "|a| alone: \(alone.stepCount) for 60 strides")
    }
}
