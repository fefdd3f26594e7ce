import Archives
import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Step counts of `taskproc analyze` on the shared real data sets (`../shared/data`), pinned where they stand.
///
/// Ground truth comes from each data set's own truth file, never from this code. Where the code is known to be poor
/// (issue 17), the test pins today's error as a bound, so a regression fails, and records the target in
/// `withKnownIssue`, so the test flags the day the target is met. Every bound carries the value measured on
/// 2026-11-25 and the command that measures it; the tests also print what they measure.
///
/// Measure with:
///
///     swift build --build-tests --scratch-path .build-acc
///     swift test --skip-build --scratch-path .build-acc --filter WalkingRealDataTests
enum RealData {
    /// Every walking result of `relative` (under `../shared/data`), loaded and analysed exactly as
    /// `taskproc analyze` does it: `AnalysisRegistry.load(path:options:)`, then `WalkingProcessor.analyze(_:)`.
    static func walkingResults(_ relative: String, options: InputLoader.Options = InputLoader.Options()) throws
        -> [WalkingResult]
    {
        let input = try AnalysisRegistry.load(path: sharedDataPath(relative), options: options)
        // Warnings (hygiene repairs such as dropped exact duplicates, gaps) are allowed; errors are not.
        #expect(!input.problems.contains { $0.severity == .error }, "\(relative): \(input.problems)")
        return WalkingProcessor.analyze(input)
    }

    /// The step count of a file that holds exactly one walking recording.
    static func steps(_ relative: String, options: InputLoader.Options = InputLoader.Options()) throws -> (
        steps: Int, result: WalkingResult
    ) {
        let results = try walkingResults(relative, options: options)
        try #require(results.count == 1, "\(relative): \(results.count) results")
        let steps = try #require(results[0].stepCount, "\(relative): no step count")
        return (steps, results[0])
    }

    /// The rows of a truth CSV (header present) as `[column name: cell text]`.
    static func truthRows(_ relative: String) throws -> [[String: String]] {
        let table = try CSVTable.read(path: sharedDataPath(relative), header: .present)
        let names = (0..<table.columnCount).map { table.columnName($0) }
        return (0..<table.rowCount).map { row in
            Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, table.string(row: row, column: $0)) })
        }
    }

    /// Signed step-count error, % of `truth`.
    static func error(_ steps: Int, truth: Int) -> Double { 100 * Double(steps - truth) / Double(truth) }
}

// MARK: - WeAllWalk

/// The WeAllWalk subset in `../shared/data/weallwalk`.
///
/// iPhone 6s, left trouser pocket, 25 Hz; heel strikes annotated by the data set's authors. Only the files listed in
/// its `truth.csv` exist there, and only those are used.
enum WeAllWalk {
    /// The loader options `taskproc analyze FILE --no-header --time-column 1 --acceleration-columns 31,32,33` builds
    /// (``AccelerometerCSVReader/Options/weAllWalkIPhone``).
    static var options: InputLoader.Options {
        var options = InputLoader.Options()
        options.accelerometerCSV = .weAllWalkIPhone
        return options
    }

    /// A mobility group, as `truth.csv` spells it.
    enum Group: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case sighted = "sighted"
        case guideDog = "blind, guide dog"
        case longCane = "blind, long cane"

        var testDescription: String { rawValue }

        /// Files of the group in `truth.csv` (18 sighted, 6 guide dog, 36 long cane).
        var fileCount: Int {
            switch self {
            case .sighted: 18
            case .guideDog: 6
            case .longCane: 36
            }
        }

        /// MAPE over the group's files, % — measured 2026-11-25 (commands in ``WalkingRealDataTests``).
        ///
        /// Per-file counts from `taskproc analyze ../shared/data/weallwalk/<file> --no-header --time-column 1
        /// --acceleration-columns 31,32,33`: sighted 0.600 %, guide dog 1.189 %, long cane 2.350 % (2026-12-05, with
        /// walking runs of 1.5 s and the irregular-chain check; 1.249 % and 2.369 % with runs of 3 s on 2026-12-04,
        /// since a step sequence that fails its regularity check leaves its peaks free; before that 1.407 % and
        /// 2.785 %; before the step-sequence pass of issue 17: 0.951 %, 1.157 %, 4.710 %).
        var measuredMAPE: Double {
            switch self {
            case .sighted: 0.600
            case .guideDog: 1.189
            case .longCane: 2.350
            }
        }

        /// |error| of the group's worst file, % — measured 2026-11-25: sighted T2_ID12 109 for 107 steps (+1.87 %),
        /// guide dog T1_ID8 107 for 111 (−3.60 %), long cane T5_ID5 310 for 329 (−5.78 %, 2026-12-05; with runs of 3 s
        /// T3_ID2 137 for 145, −5.52 %; before
        /// failed step sequences left their peaks free T1_ID2 139 for 150, −7.33 %; before issue 17's step-sequence
        /// pass 107, −28.67 %).
        var measuredWorst: Double {
            switch self {
            case .sighted: 1.869
            case .guideDog: 3.604
            case .longCane: 5.775
            }
        }
    }

    /// One file: its ground truth and what taskproc counts.
    struct Row: Sendable {
        var file: String
        var truth: Int
        var steps: Int
        var error: Double { RealData.error(steps, truth: truth) }
    }

    /// Analyses every file of `group`; checks that `truth.csv`'s `gt_steps` matches the file's own list of heel
    /// strikes (`<name>.steps.json`), so the two ground-truth files agree.
    static func rows(_ group: Group) throws -> [Row] {
        let truth = try RealData.truthRows("weallwalk/truth.csv").filter { $0["mobility"] == group.rawValue }
        try #require(truth.count == group.fileCount, "\(group.rawValue): \(truth.count) files in truth.csv")
        return try truth.map { entry in
            let file = try #require(entry["file"])
            let gt = try #require(entry["gt_steps"].flatMap { Int($0) }, "\(file): gt_steps")
            let stepsFile = "weallwalk/" + file.replacingOccurrences(of: ".csv.gz", with: ".steps.json")
            let annotation = try Data(contentsOf: URL(fileURLWithPath: sharedDataPath(stepsFile)))
            let object = try #require(try JSONSerialization.jsonObject(with: annotation) as? [String: Any])
            let heelStrikes = try #require(object["steps"] as? [Double], "\(file): steps")
            #expect(heelStrikes.count == gt, "\(file): \(heelStrikes.count) heel strikes annotated, gt_steps \(gt)")
            return Row(file: file, truth: gt, steps: try RealData.steps("weallwalk/" + file, options: options).steps)
        }
    }
}

// MARK: - Mobilise-D

/// The Mobilise-D lab trials in `../shared/data/mobilise-d-lab` (lower-back IMU, 100 Hz, m/s²; INDIP reference).
enum MobiliseD {
    /// |taskproc − ref_steps| measured 2026-11-25 with `taskproc analyze ../shared/data/mobilise-d-lab/<file>`
    /// (taskproc's count in the comment; mobgap's in `mobgap-results.csv`).
    static let measuredDifference: [String: Int] = [
        "HA_001_Test5_Trial1.csv.gz": 1,  // 10 for 9 (mobgap 11; before issue 17: 11)
        "HA_001_Test5_Trial2.csv.gz": 1,  // 10 for 9 (mobgap 12; before: 12)
        "HA_001_Test11_Trial1.csv.gz": 0,  // 63 for 63 (mobgap 59; before: 27)
        "MS_001_Test5_Trial1.csv.gz": 1,  // 10 for 9 (mobgap 10; before: 11)
        "MS_001_Test5_Trial2.csv.gz": 1,  // 10 for 9 (mobgap 10; before: 11)
    ]

    /// Slack on top of each measured difference, steps.
    static let tolerance = 1
}

// MARK: - gaitpy demo

/// The gaitpy demo recording (`../shared/data/gaitpy-demo`): a GENEActiv `.bin` export, 99 header lines (some with
/// NUL padding, so the loader refuses it as "binary data"), then `YYYY-mm-dd HH:MM:SS:fff, x, y, z (g), …` at 50 Hz.
enum GaitpyDemo {
    /// The recording as an accelerometer log: time in s from the first sample (clock time of day; the recording
    /// does not cross midnight), acceleration in g.
    static func log() throws -> AccelerometerLog {
        let data = try FileBytes.read(path: sharedDataPath("gaitpy-demo/demo_data.csv.gz"))
        var times: [Double] = []
        var x: [Double] = []
        var y: [Double] = []
        var z: [Double] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            // Data lines start with a date: "2019-08-06 10:25:50:000,-0.4264,0.7279,0.5089,0,0,31.6".
            guard line.count > 24, let first = line.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                let text = String(bytes: line, encoding: .utf8)
            else { continue }
            let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
            guard fields.count >= 4 else { continue }
            let clock = fields[0].split(separator: " ")
            guard clock.count == 2 else { continue }
            let parts = clock[1].split(separator: ":").compactMap { Double($0) }
            guard parts.count == 4, let ax = Double(fields[1]), let ay = Double(fields[2]), let az = Double(fields[3])
            else { continue }
            times.append(parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000)
            x.append(ax)
            y.append(ay)
            z.append(az)
        }
        let start = times.first ?? 0
        return AccelerometerLog(
            timestamp: times.map { $0 - start }, timestampSince1970: nil,
            acceleration: Vector3Series(x: x, y: y, z: z), unit: .g)
    }

    /// gaitpy's own count: the sum over bouts of its per-bout `steps` in `demo_gait_features.csv` (one row per gait
    /// cycle, the bout's count repeated on each).
    static func peerSteps() throws -> Int {
        let rows = try RealData.truthRows("gaitpy-demo/demo_gait_features.csv")
        var perBout: [String: Int] = [:]
        for row in rows {
            let bout = try #require(row["bout_number"])
            let steps = try #require(row["steps"].flatMap { Int($0) })
            if let seen = perBout[bout] { #expect(seen == steps, "bout \(bout) has two step counts") }
            perBout[bout] = steps
        }
        return perBout.values.reduce(0, +)
    }
}

@Suite(.tags(.realData)) struct WalkingRealDataTests {
    // MARK: WeAllWalk (ground truth: annotated heel strikes)

    /// MAPE and worst file per mobility group, pinned at the value measured 2026-11-25 (``WeAllWalk/Group``) plus
    /// 0.2 points (MAPE) and 0.5 points (worst file: under one step on every file of these walks, 88–518 steps).
    ///
    /// Measured: sighted MAPE 0.951 %, worst +3.41 %; guide dog 1.157 %, worst +3.05 %; long cane 4.710 %, worst
    /// −28.67 % (the long-cane files undercount: short, shuffling steps, the hard case the data set was made for).
    @Test(arguments: WeAllWalk.Group.allCases)
    func weAllWalkGroup(group: WeAllWalk.Group) throws {
        let rows = try WeAllWalk.rows(group)
        try #require(rows.count == group.fileCount)
        let errors = rows.map { abs($0.error) }
        let mape = errors.reduce(0, +) / Double(errors.count)
        let worst = try #require(errors.max())
        print(
            "WeAllWalk \(group.rawValue): MAPE \(String(format: "%.3f", mape)) %, worst \(String(format: "%.3f", worst)) %; "
                + rows.map { "\($0.file) \($0.steps)/\($0.truth)" }.joined(separator: ", "))
        #expect(
            mape <= group.measuredMAPE + 0.2, "\(group.rawValue): MAPE \(mape) % (measured \(group.measuredMAPE) %)")
        #expect(
            worst <= group.measuredWorst + 0.5,
            "\(group.rawValue): worst file \(worst) % (measured \(group.measuredWorst) %)")
        // Issue 17's targets: MAPE ≤ 3 % in every group, no file worse than 8 %.
        #expect(mape <= 3 && worst <= 8, "\(group.rawValue): MAPE \(mape) %, worst \(worst) %")
        // Every file is a walk: no file may come out empty.
        for row in rows { #expect(row.steps > 0, "\(row.file): 0 steps for \(row.truth)") }
    }

    // MARK: Mobilise-D (ground truth: INDIP initial contacts)

    /// |taskproc − ref_steps| per trial, pinned at the value measured 2026-11-25 plus one step
    /// (``MobiliseD/measuredDifference``: 1, 1, 0, 1, 1 steps), and issue 17's targets: the daily-activity trial
    /// within 8 % of the reference and no worse than mobgap (|59 − 63| = 4), straight walks within 2 steps.
    @Test func mobiliseDTrials() throws {
        let truth = try RealData.truthRows("mobilise-d-lab/truth.csv")
        let peers = try RealData.truthRows("mobilise-d-lab/mobgap-results.csv")
        try #require(truth.count == MobiliseD.measuredDifference.count, "\(truth.count) trials in truth.csv")
        try #require(peers.count == truth.count, "\(peers.count) rows in mobgap-results.csv")
        for entry in truth {
            let file = try #require(entry["file"])
            let reference = try #require(entry["ref_steps"].flatMap { Int($0) }, "\(file): ref_steps")
            let measured = try #require(MobiliseD.measuredDifference[file], "\(file): no measured value")
            let peer = try #require(
                peers.first { $0["file"] == file }?["mobgap_steps"].flatMap { Int($0) }, "\(file): mobgap_steps")
            let steps = try RealData.steps("mobilise-d-lab/" + file).steps
            let difference = abs(steps - reference)
            print("Mobilise-D \(file): taskproc \(steps), reference \(reference), mobgap \(peer)")
            #expect(
                difference <= measured + MobiliseD.tolerance,
                "\(file): \(steps) steps for \(reference) (measured difference \(measured))")
            if file == "HA_001_Test11_Trial1.csv.gz" {
                #expect(difference <= abs(peer - reference), "\(steps) steps for \(reference); mobgap \(peer)")
                #expect(Double(difference) <= 0.08 * Double(reference), "\(steps) steps for \(reference)")
            } else {
                #expect(difference <= 2, "\(file): \(steps) steps for \(reference)")
            }
        }
    }

    /// HA 001's second straight walk starts with a small sway at 3.1 s (a peak of the band-passed magnitude a fifth
    /// the height of the steps that follow from 4.0 s): the rhythm pass trims it as the start of walking, not a
    /// step (it counted 12 for 9 before issue 17, the sway included).
    @Test func startingSwayIsNotAStep() throws {
        let (steps, result) = try RealData.steps("mobilise-d-lab/HA_001_Test5_Trial2.csv.gz")
        let first = try #require(result.stepTimes.first)
        #expect(first > 3.5, "first step at \(first) s")
        #expect(steps == 10)
    }

    // MARK: Nobody walked (goal: 0 steps)

    /// The mPower-2 tremor and balance recordings of mhealthtools: nobody walked, so the goal is 0 steps.
    ///
    /// Through `taskproc analyze` they are not walking at all (their names say tremor and balance: issue 17, item 4;
    /// `MotionSignalRoutingTests`): no walking result. The step detector itself is still held to 0 false steps on them,
    /// run on the loaded log directly. Measured 2026-11-25 that way (before task awareness, also what
    /// `taskproc analyze ../shared/data/mhealthtools-motion/<file>` gave): kinetic tremor 7 steps (one 3-window
    /// bout), rest tremor 0, balance 0.
    @Test(arguments: [
        ("kinetic_tremor_data_deviceMotion.json", 7), ("rest_tremor_data_deviceMotion.json", 0),
        ("balance_data_deviceMotion.json", 0),
    ])
    func nobodyWalked(file: String, measured: Int) throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("mhealthtools-motion/" + file))
        #expect(WalkingProcessor.analyze(input).isEmpty, "\(file) analysed as walking")
        try #require(input.recordings.count == 1)
        guard case .deviceMotion(let log) = input.recordings[0].data else {
            Issue.record("\(file): not a device-motion log")
            return
        }
        let result = WalkingProcessor.analyze(log)
        let steps = try #require(result.stepCount)
        print("mhealthtools-motion \(file): \(steps) steps (detector alone)")
        #expect(result.signal == "deviceMotion")
        #expect(steps <= measured, "\(file): \(steps) false steps (measured \(measured))")
        if measured > 0 {
            withKnownIssue("issue 17: false steps in a recording without walking") { #expect(steps == 0) }
        } else {
            #expect(steps == 0)
            #expect(result.quality.warnings.contains { $0.contains("no walking") }, "\(result.quality.warnings)")
        }
    }

    /// Rhythmic arm movement without walking: the kinetic-tremor recording (finger to nose, 9.4 s). Its axes swing
    /// once per period of |a| just as a walking wrist's do (`WristModelTests`), and read as an arm swing it gives 17
    /// "steps"; the 15 s `minimumArmSwingDuration` keeps it to the |a| reading, so the axes change nothing here
    /// (measured 2026-11-26: 6 steps with and without them, the known issue above; `analyze` never counts steps in a
    /// tremor step).
    @Test func shortArmSwingingIsNotWalking() throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath("mhealthtools-motion/kinetic_tremor_data_deviceMotion.json"))
        guard case .deviceMotion(let recording) = input.recordings.first?.data else {
            Issue.record("not a device-motion log")
            return
        }
        let log = recording.log
        let (u, g) = (log.userAcceleration, log.gravity)
        let axes = (zip(u.x, g.x).map(+), zip(u.y, g.y).map(+), zip(u.z, g.z).map(+))
        let magnitude = StepDetector.magnitude(x: axes.0, y: axes.1, z: axes.2)
        let alone = StepDetector().detect(timestamps: log.timestamp, magnitude: magnitude)
        let detection = StepDetector().detect(timestamps: log.timestamp, magnitude: magnitude, axes: axes)
        #expect(detection.stepCount == alone.stepCount, "\(detection.stepCount) with the axes, \(alone.stepCount) without")
        #expect(!detection.bouts.contains { $0.detection == .armSwing })
        var unguarded = StepDetector.Configuration()
        unguarded.minimumArmSwingDuration = 0
        let swinging = StepDetector(configuration: unguarded).detect(
            timestamps: log.timestamp, magnitude: magnitude, axes: axes)
        #expect(swinging.bouts.contains { $0.detection == .armSwing }, "\(swinging.bouts.map(\.detection))")
        // Nobody walked: the guard is what keeps the swing from adding false steps (measured 2026-11-26: 17 against 6).
        #expect(swinging.stepCount > detection.stepCount, "\(swinging.stepCount) without the guard, \(detection.stepCount) with it")
    }

    // The stationary mPower accelerometer JSON (exactly 0 steps, through the same loader) is
    // `WalkingTests.stationaryPhoneHasNoSteps`.

    // MARK: Peer agreement (no ground truth)

    /// The gaitpy demo walk: peer agreement, NOT ground truth.
    ///
    /// gaitpy 1.6.1 counts 121 steps (31 + 44 + 46 over its
    /// three bouts); taskproc counted 150 on 2026-11-25 (measured by this test; the loader cannot read the GENEActiv
    /// export, so ``GaitpyDemo/log()`` parses it and the log goes through the same hygiene and analysis), a difference
    /// of 29, pinned at 29 + 2. Before issue 17's step-sequence pass it counted 128: the 22 added steps are short
    /// sequences outside gaitpy's three bouts (gaitpy keeps only bouts of its own minimum length), e.g. 19–22 s and
    /// 29–34 s, where the lumbar signal shows a step rhythm; there is no ground truth to say who is right.
    @Test func gaitpyDemoAgreesWithGaitpy() throws {
        let peer = try GaitpyDemo.peerSteps()
        #expect(peer == 121, "gaitpy's published output sums to 121 steps")
        let log = try GaitpyDemo.log()
        try #require(log.timestamp.count == 8400, "\(log.timestamp.count) samples")
        let result = WalkingProcessor.analyze(log.cleaned())
        let steps = try #require(result.stepCount)
        print("gaitpy demo: taskproc \(steps) steps, gaitpy \(peer)")
        #expect(abs(steps - peer) <= 29 + 2, "\(steps) steps; gaitpy \(peer)")
        let rate = try #require(result.samplingRate)
        #expect(abs(rate - 50) < 0.1)
    }

    /// The forest/oak test bout (Beiwe, 10 Hz, 9.7 s): peer agreement, NOT ground truth.
    ///
    /// oak counts 16.8 steps (the
    /// sum of its per-second cadence in its own test); taskproc counted 0 on 2026-11-25
    /// (`taskproc analyze ../shared/data/forest-oak/test_data_bout.csv`): 10 Hz is below the 15 Hz the detector is
    /// validated for, and the best stride regularity (0.55) is under its 0.6 threshold. The 0 is not accepted as
    /// right: the target (within 3 steps of oak) is recorded as issue 17, and the result must say why it counted none.
    @Test func forestOakBout() throws {
        let (steps, result) = try RealData.steps("forest-oak/test_data_bout.csv")
        // oak's expected per-second cadence, Hz (the data README, from forest's tests/oak/test_find_walking.py).
        let oak = [1.65, 1.6, 1.55, 1.6, 1.55, 1.85, 1.8, 1.75, 1.75, 1.7].reduce(0, +)
        print("forest-oak bout: taskproc \(steps) steps, oak \(oak)")
        #expect(result.quality.warnings.contains { $0.contains("below the 15 Hz") }, "\(result.quality.warnings)")
        if steps == 0 {
            #expect(
                result.quality.warnings.contains { $0.contains("regular gait rhythm") }, "\(result.quality.warnings)")
        }
        withKnownIssue("issue 17: no steps counted in oak's 10 Hz walking bout") {
            #expect(abs(Double(steps) - oak) <= 3, "\(steps) steps; oak \(oak)")
        }
    }

    /// The mhealthtools device-motion walk (mPower protocol: about 20 steps; no ground truth; peers pdkit 16, skdh 17,
    /// gaitpy 40, oak 42.9 in `reference-outputs/mpower_samples_step_estimates_by_tool.jsonl`).
    ///
    /// Its timestamps are clean in file order (measured 2026-11-25 with `taskproc inspect
    /// ../shared/data/mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz`: 0 backward steps, 0 duplicates,
    /// every interval 9.93–10.01 ms), so hygiene changes nothing and the signal is analysed as recorded. taskproc
    /// counts 0 (`taskproc analyze …`: only 1 of 46 windows has a regular gait rhythm, all 46 moved). The 0 is not
    /// accepted as right: the target (the peers' range) is recorded as issue 17; the count may not exceed the peers'.
    @Test func deviceMotionWalk() throws {
        let peers = try Self.peerSteps(sample: "mhealthtools/data/walk_data.rda (userAcceleration+gravity)")
        try #require(peers.count == 4, "\(peers)")
        let low = try #require(peers.values.min())
        let high = try #require(peers.values.max())
        #expect(low == 16 && high.rounded(.up) == 43, "peer range \(low)–\(high)")

        let (steps, result) = try RealData.steps("mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz")
        print("mhealthtools device-motion walk: \(steps) steps; peers \(peers)")
        let hygiene = try #require(result.quality.hygiene)
        #expect(hygiene.backwardSteps == 0 && hygiene.duplicatesDropped == 0 && hygiene.repairs.isEmpty)
        #expect(hygiene.inputCount == 2991 && hygiene.outputCount == 2991)
        #expect(Double(steps) <= high, "\(steps) steps; the peers' highest is \(high)")
        if steps < 16 {
            #expect(
                result.quality.warnings.contains { $0.contains("regular gait rhythm") }, "\(result.quality.warnings)")
        }
        withKnownIssue("issue 17: the mhealthtools device-motion walk gives 0 steps (peers 16–43)") {
            #expect(Double(steps) >= low && Double(steps) <= high, "\(steps) steps; peers \(low)–\(high)")
        }
    }

    /// Each tool's step estimate for `sample` in `reference-outputs/mpower_samples_step_estimates_by_tool.jsonl`
    /// (one JSON object per line: `{tool: {sample: {"steps": n, …}}}`).
    static func peerSteps(sample: String) throws -> [String: Double] {
        let text = try String(
            contentsOfFile: sharedDataPath("reference-outputs/mpower_samples_step_estimates_by_tool.jsonl"),
            encoding: .utf8)
        var steps: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.isEmpty {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for (tool, samples) in object {
                let entry = try #require((samples as? [String: Any])?[sample] as? [String: Any], "\(tool): \(sample)")
                steps[tool] = try #require(entry["steps"] as? Double, "\(tool): steps")
            }
        }
        return steps
    }
}
