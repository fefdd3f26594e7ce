import Foundation
public import SensorSignal
import StudyInputs

/// Turns walking recordings (accelerometer or device-motion logs, whole ResearchKit walking tasks) into
/// ``WalkingResult``s with ``StepDetector``.
///
/// The analysed signal is orientation-free: |a| of an accelerometer log (gravity included) or
/// |userAcceleration + gravity| of a device-motion log (the same physical quantity), in g. An accelerometer
/// log's declared unit is checked against its median |a| (``UnitDetection``): when the data clearly is in the
/// other unit (≈ 9.81 instead of ≈ 1), the detected unit is used and a warning says so.
///
/// Stateless; every function is safe to call from any task.
public enum WalkingProcessor {
    /// Analyses an accelerometer log after hygiene.
    ///
    /// - Parameters:
    ///   - recording: The cleaned log and its report (``AccelerometerLog/cleaned(options:)``).
    ///   - pedometer: The pedometer log of the same recording, if any (adds `pedometerStepCount`).
    ///   - timedWalk: The timed-walk result of the same step, if any (adds `gaitSpeed`).
    ///   - stepIdentifier: The active step, if known.
    ///   - source: The file name to report, if known.
    ///   - detector: The step detector.
    ///   - gait: The sensor's placement and height (contacts, stance, stride length and speed for a lower back).
    ///   - deviceMotion: The device-motion log of the same step, if any: its rotation rate and gravity give the
    ///     turns when the accelerometer log has no gyroscope of its own (``AccelerometerLog/rotationRate``).
    /// - Returns: The result; an empty or short log gives 0 steps and a warning.
    public static func analyze(
        _ recording: CleanedLog<AccelerometerLog>, pedometer: PedometerLog? = nil,
        timedWalk: ResearchKit.TimedWalkResult? = nil, stepIdentifier: String? = nil, source: String? = nil,
        detector: StepDetector = StepDetector(), gait: GaitOptions = GaitOptions(),
        deviceMotion: DeviceMotionLog? = nil
    ) -> WalkingResult {
        let log = recording.log
        var warnings: [String] = []
        let unit = recording.analysedUnit
        if unit != log.unit {
            warnings.append(
                "acceleration is labelled \(log.unit.rawValue) but its median |a| says \(unit.rawValue): analysed as "
                    + unit.rawValue)
        }
        let a = log.acceleration
        let scale = unit.toG
        var axes =
            scale == 1 ? (a.x, a.y, a.z) : (a.x.map { $0 * scale }, a.y.map { $0 * scale }, a.z.map { $0 * scale })
        if log.gravityRemoved, let up = principalAxis(axes.0, axes.1, axes.2) {
            // |a + 1 g·û| ≈ 1 g + a·û: the magnitude a gravity-including accelerometer held along û would give.
            for i in axes.0.indices {
                axes.0[i] += up.0
                axes.1[i] += up.1
                axes.2[i] += up.2
            }
            warnings.append(
                "gravity-free acceleration: analysed with 1 g added along its main axis of motion ("
                    + [up.0, up.1, up.2].map { ResultEncoding.number($0, digits: 3) }.joined(separator: ", ") + ")")
        }
        let magnitude = StepDetector.magnitude(x: axes.0, y: axes.1, z: axes.2)
        var rotation: RotationInput?
        if let own = log.rotationRate, own.count == log.timestamp.count {
            rotation = RotationInput(
                timestamps: log.timestamp, rotationRate: (own.x, own.y, own.z), gravity: nil, signal: "gyroscope")
        } else if let deviceMotion {
            rotation = RotationInput(deviceMotion)
        }
        return result(
            timestamps: log.timestamp, magnitude: magnitude, axes: axes, hygiene: recording.report,
            signal: "accelerometer",
            unit: unit.rawValue, extraWarnings: warnings, pedometer: pedometer, timedWalk: timedWalk,
            stepIdentifier: stepIdentifier, source: source, detector: detector, gait: gait, rotation: rotation)
    }

    /// The unit vector along which the samples vary most (the first principal axis of their covariance, by power
    /// iteration), its sign making its largest component positive; nil for fewer than 3 samples or no variation.
    static func principalAxis(_ x: [Double], _ y: [Double], _ z: [Double]) -> (Double, Double, Double)? {
        let n = x.count
        guard n >= 3 else { return nil }
        let mean = (x.reduce(0, +) / Double(n), y.reduce(0, +) / Double(n), z.reduce(0, +) / Double(n))
        var c = [Double](repeating: 0, count: 9)
        for i in 0..<n {
            let d = [x[i] - mean.0, y[i] - mean.1, z[i] - mean.2]
            for r in 0..<3 { for k in 0..<3 { c[3 * r + k] += d[r] * d[k] } }
        }
        var v = [1.0, 1.0, 1.0]
        for _ in 0..<100 {
            let w = (0..<3).map { r in c[3 * r] * v[0] + c[3 * r + 1] * v[1] + c[3 * r + 2] * v[2] }
            let norm = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).squareRoot()
            guard norm > 0, norm.isFinite else { return nil }
            v = w.map { $0 / norm }
        }
        let largest = v.max { abs($0) < abs($1) } ?? 1
        if largest < 0 { v = v.map { -$0 } }
        return (v[0], v[1], v[2])
    }

    /// Analyses a device-motion log after hygiene, from |userAcceleration + gravity| (g).
    ///
    /// - Parameters:
    ///   - recording: The cleaned log and its report (``DeviceMotionLog/cleaned(options:)``).
    ///   - pedometer: The pedometer log of the same recording, if any.
    ///   - timedWalk: The timed-walk result of the same step, if any.
    ///   - stepIdentifier: The active step, if known.
    ///   - source: The file name to report, if known.
    ///   - detector: The step detector.
    ///   - gait: The sensor's placement and height (contacts, stance, stride length and speed for a lower back).
    /// - Returns: The result; an empty or short log gives 0 steps and a warning.
    public static func analyze(
        _ recording: CleanedLog<DeviceMotionLog>, pedometer: PedometerLog? = nil,
        timedWalk: ResearchKit.TimedWalkResult? = nil, stepIdentifier: String? = nil, source: String? = nil,
        detector: StepDetector = StepDetector(), gait: GaitOptions = GaitOptions()
    ) -> WalkingResult {
        let log = recording.log
        let u = log.userAcceleration
        let g = log.gravity
        // userAcceleration + gravity per axis (the raw acceleration, g); |a| from those sums.
        let axes = (zip(u.x, g.x).map(+), zip(u.y, g.y).map(+), zip(u.z, g.z).map(+))
        let magnitude = StepDetector.magnitude(x: axes.0, y: axes.1, z: axes.2)
        return result(
            timestamps: log.timestamp, magnitude: magnitude, axes: axes, hygiene: recording.report,
            signal: "deviceMotion",
            unit: AccelerationUnit.g.rawValue, extraWarnings: [], pedometer: pedometer, timedWalk: timedWalk,
            stepIdentifier: stepIdentifier, source: source, detector: detector, gait: gait,
            rotation: RotationInput(log))
    }

    /// Analyses every walking recording of a loaded input and its children: one result per active step that has
    /// accelerometer or device-motion data, in input order.
    ///
    /// Recordings belong to the same step when they share a step identifier and either come from the same
    /// ResearchKit task result or lie in the same directory (a MyDataHelps `…/<step>/` folder). In each step every
    /// accelerometer log gives a result (device-motion logs only when the step has no accelerometer log); the
    /// step's pedometer log is attached when the step has exactly one pedometer log and one analysed log, and
    /// its `ORKTimedWalkResult` (matched by step identifier in the same task result) gives the gait speed.
    /// Recordings without a step identifier stand alone. Recordings of a tremor, balance or rest step
    /// (``LoadedRecording/motionTask``) are left out: nobody walks in them (``MotionSignalAnalysis`` summarises them).
    ///
    /// - Parameters:
    ///   - input: What ``InputLoader`` read.
    ///   - detector: The step detector.
    ///   - gait: The sensor's placement and height.
    /// - Returns: The results; empty when the input has no motion data.
    public static func analyze(
        _ input: LoadedInput, detector: StepDetector = StepDetector(), gait: GaitOptions = GaitOptions()
    ) -> [WalkingResult] {
        struct Group {
            var key: String?
            var step: String?
            var recordings: [LoadedRecording] = []
            var timedWalks: [ResearchKit.StepItem<ResearchKit.TimedWalkResult>] = []
        }
        var groups: [Group] = []
        func collect(_ node: LoadedInput) {
            let nodeStart = groups.count
            let timedWalks = node.researchKit?.result?.timedWalkResults ?? []
            // Tremor, balance and rest recordings are never analysed for steps (MotionSignalAnalysis summarises them).
            for recording in node.recordings where recording.motionTask == nil {
                guard let step = recording.stepIdentifier else {
                    groups.append(Group(key: nil, step: nil, recordings: [recording]))
                    continue
                }
                let scope =
                    node.researchKit != nil
                    ? "task " + node.path : "directory " + (recording.file as NSString).deletingLastPathComponent
                let key = scope + "\u{0}" + step
                if let g = groups.firstIndex(where: { $0.key == key }) {
                    groups[g].recordings.append(recording)
                } else {
                    groups.append(Group(key: key, step: step, recordings: [recording], timedWalks: timedWalks))
                }
            }
            // Timed-walk steps without any recording still have a gait speed: placed before the node's first group
            // of a later step, so results follow the task's step order.
            let stepOrder = (node.researchKit?.result?.stepItems ?? []).map(\.stepIdentifier)
            func rank(_ step: String?) -> Int { step.flatMap { stepOrder.firstIndex(of: $0) } ?? Int.max }
            for item in timedWalks
            where !node.recordings.contains(where: { $0.stepIdentifier == item.stepIdentifier }) {
                let later = groups[nodeStart...].firstIndex { rank($0.step) > rank(item.stepIdentifier) }
                orphanTimedWalks.append((later ?? groups.count, item, node.path))
            }
            for child in node.children { collect(child) }
        }
        var orphanTimedWalks: [(position: Int, item: ResearchKit.StepItem<ResearchKit.TimedWalkResult>, file: String)] =
            []
        collect(input)

        var results: [WalkingResult] = []
        var orphans = orphanTimedWalks[...]
        func emitOrphans(upTo position: Int) {
            while let first = orphans.first, first.position <= position {
                results.append(
                    WalkingResult(
                        stepIdentifier: first.item.stepIdentifier, source: first.file, timedWalk: first.item.result))
                orphans.removeFirst()
            }
        }
        for (index, group) in groups.enumerated() {
            emitOrphans(upTo: index)
            var pedometers: [PedometerLog] = []
            var accelerometers: [(file: String, log: CleanedLog<AccelerometerLog>)] = []
            var deviceMotions: [(file: String, log: CleanedLog<DeviceMotionLog>)] = []
            for recording in group.recordings {
                switch recording.data {
                case .pedometer(let log): pedometers.append(log)
                case .accelerometer(let log): accelerometers.append((recording.file, log))
                case .deviceMotion(let log): deviceMotions.append((recording.file, log))
                default: break
                }
            }
            let analysedCount = accelerometers.isEmpty ? deviceMotions.count : accelerometers.count
            let pedometer = pedometers.count == 1 && analysedCount == 1 ? pedometers[0] : nil
            let timedWalk = group.step.flatMap { step in group.timedWalks.first { $0.stepIdentifier == step }?.result }
            if accelerometers.isEmpty {
                for (file, log) in deviceMotions {
                    results.append(
                        analyze(
                            log, pedometer: pedometer, timedWalk: timedWalk, stepIdentifier: group.step, source: file,
                            detector: detector, gait: gait))
                }
            } else {
                // The step's one device-motion log gives the turns of its accelerometer logs.
                let deviceMotion = deviceMotions.count == 1 ? deviceMotions[0].log.log : nil
                for (file, log) in accelerometers {
                    results.append(
                        analyze(
                            log, pedometer: pedometer, timedWalk: timedWalk, stepIdentifier: group.step, source: file,
                            detector: detector, gait: gait, deviceMotion: deviceMotion))
                }
            }
        }
        emitOrphans(upTo: Int.max)
        return results
    }

    private static func result(
        timestamps: [Double], magnitude: [Double], axes: (x: [Double], y: [Double], z: [Double]),
        hygiene: QualityReport, signal: String, unit: String,
        extraWarnings: [String], pedometer: PedometerLog?, timedWalk: ResearchKit.TimedWalkResult?,
        stepIdentifier: String?, source: String?, detector: StepDetector, gait: GaitOptions, rotation: RotationInput?
    ) -> WalkingResult {
        var detection = detector.detect(
            timestamps: timestamps, magnitude: magnitude, axes: axes, samplingRate: hygiene.sampling?.medianRate)
        var lowerBack: [LowerBackGait.BoutGait]? = nil
        if gait.placement == .lowerBack && (gait.lowerBackSteps ?? .contacts) == .contacts {
            (detection, lowerBack) = lowerBackDetection(detection, gait: gait, timestamps: timestamps, axes: axes)
        }
        let origin = timestamps.first
        let interpolatedTimes = detection.interpolatedStepIndices.map { detection.stepTimes[$0] - (origin ?? 0) }
        let quality = WalkingQuality(
            hygiene: hygiene, resampling: detection.resampling, accelerationUnit: unit,
            windowCount: detection.windowCount, walkingWindowCount: detection.walkingWindowCount,
            analysedDuration: detection.analysedDuration, interpolatedSteps: interpolatedTimes.count,
            interpolatedStepTimes: interpolatedTimes,
            warnings: hygiene.warnings + extraWarnings + detection.warnings)
        var result = WalkingResult(
            stepIdentifier: stepIdentifier, source: source, signal: signal, timeOrigin: origin, detection: detection,
            quality: quality)
        if let steps = pedometer?.finalStepCount {
            // Files with a negative count are rejected when decoded; a log built through the API may still hold one
            // (`Int.min` trapped the subtraction). Both counts ≥ 0: the difference cannot overflow.
            if steps >= 0 {
                result.pedometerStepCount = steps
                result.pedometerDifference = detection.stepCount - steps
            } else {
                result.quality.warnings.append(
                    "the pedometer log's final numberOfSteps is \(steps), not a step count: not compared")
            }
        }
        if let last = pedometer?.samples.last {
            result.pedometerDistance = last.distance.flatMap { $0.isFinite ? $0 : nil }
            let duration = last.endDate.timeIntervalSince1970 - last.startDate.timeIntervalSince1970
            result.pedometerDuration = duration.isFinite && duration >= 0 ? duration : nil
        }
        if let timedWalk { result.quality.warnings += result.applyTimedWalk(timedWalk) }
        applyGait(gait, to: &result, detection: detection, timestamps: timestamps, axes: axes, precomputed: lowerBack)
        if let rotation {
            applyTurns(rotation, to: &result, timestamps: timestamps, axes: axes)
        } else if gait.placement == .lowerBack {
            result.quality.warnings.append(
                "turns need a gyroscope (a device-motion log, or gyroscope columns beside the acceleration: "
                    + "--gyroscope-columns): turns are null")
        }
        return result
    }

    /// A gyroscope and the gravity direction to project it on, for ``applyTurns(_:to:timestamps:axes:)``.
    struct RotationInput {
        /// Sample times, s, in the analysed log's clock.
        var timestamps: [Double]
        /// Angular velocity, rad/s, device axes.
        var rotationRate: (x: [Double], y: [Double], z: [Double])
        /// Gravity per sample in the same axes; nil takes it from the analysed acceleration (low-passed).
        var gravity: (x: [Double], y: [Double], z: [Double])?
        /// `"gyroscope"` or `"deviceMotion"` (``WalkingResult/turnSignal``).
        var signal: String

        init(
            timestamps: [Double], rotationRate: (x: [Double], y: [Double], z: [Double]),
            gravity: (x: [Double], y: [Double], z: [Double])?, signal: String
        ) {
            self.timestamps = timestamps
            self.rotationRate = rotationRate
            self.gravity = gravity
            self.signal = signal
        }

        /// CoreMotion's rotation rate and gravity of a device-motion log.
        init(_ log: DeviceMotionLog) {
            self.init(
                timestamps: log.timestamp, rotationRate: (log.rotationRate.x, log.rotationRate.y, log.rotationRate.z),
                gravity: (log.gravity.x, log.gravity.y, log.gravity.z), signal: "deviceMotion")
        }
    }

    /// Adds the turns (``TurnDetector``) of `rotation` to `result`: every turn in ``WalkingResult/turnEvents``,
    /// each bout's count, and the count, mean angle and mean duration of the turns while walking.
    static func applyTurns(
        _ rotation: RotationInput, to result: inout WalkingResult, timestamps: [Double],
        axes: (x: [Double], y: [Double], z: [Double])
    ) {
        let times = rotation.timestamps
        guard let first = times.first, let last = times.last, let start = timestamps.first,
            let end = timestamps.last
        else { return }
        // A device-motion log beside the accelerometer's must cover the analysed recording.
        let overlap = min(last, end) - max(first, start)
        guard end <= start || overlap >= 0.5 * (end - start) else {
            result.quality.warnings.append(
                "the step's device-motion log (\(ResultEncoding.number(first, digits: 6))–"
                    + "\(ResultEncoding.number(last, digits: 6)) s) does not cover the accelerometer log's "
                    + "\(ResultEncoding.number(start, digits: 6))–\(ResultEncoding.number(end, digits: 6)) s: "
                    + "turns are null")
            return
        }
        let rate = TurnDetector.samplingRate(of: times)
        let gravity =
            rotation.gravity
            ?? rate.flatMap { TurnDetector.gravityDirection(x: axes.x, y: axes.y, z: axes.z, samplingRate: $0) }
        guard let gravity, let rate,
            let turns = TurnDetector().detect(
                timestamps: times,
                verticalRate: TurnDetector.verticalAngularVelocity(
                    rotationRate: rotation.rotationRate, gravity: gravity),
                samplingRate: rate)
        else {
            result.quality.warnings.append(
                "the gyroscope recording is too short or too slowly sampled to find turns (its smoothing at 0.5 Hz "
                    + "needs more than 15 samples at over 1 Hz): turns are null")
            return
        }
        let origin = result.timeOrigin ?? 0
        var events: [WalkingResult.TurnEvent] = []
        var boutTurns = [Int](repeating: 0, count: result.bouts.count)
        var walkingAngles: [Double] = []
        var walkingDurations: [Double] = []
        for turn in turns {
            let peak = turn.peak - origin
            let index = result.bouts.firstIndex { $0.start <= peak && peak <= $0.end }
            if let index {
                boutTurns[index] += 1
                walkingAngles.append(turn.angle)
                walkingDurations.append(turn.duration)
            }
            events.append(
                WalkingResult.TurnEvent(
                    start: turn.start - origin, end: turn.end - origin, duration: turn.duration, angle: turn.angle,
                    peakAngularVelocity: turn.peakAngularVelocity, peak: peak, boutIndex: index))
        }
        for index in result.bouts.indices { result.bouts[index].turns = boutTurns[index] }
        func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
        result.turns = walkingAngles.count
        result.meanTurnAngle = mean(walkingAngles)
        result.meanTurnDuration = mean(walkingDurations)
        result.turnSignal = rotation.signal
        result.turnEvents = events
    }

    /// Standard gravity, m/s² per g: the lower-back analysis works in m/s².
    static let standardGravity = 9.80665

    /// Adds the placement's gait parameters to `result`.
    ///
    /// For a lower-back sensor: each bout's initial and final
    /// contacts, strides, stance, swing and double support (``LowerBackGait``) and, with a sensor height, stride
    /// length and walking speed; bout means and record means over all strides. Other placements keep them null.
    static func applyGait(
        _ gait: GaitOptions, to result: inout WalkingResult, detection: StepDetection, timestamps: [Double],
        axes: (x: [Double], y: [Double], z: [Double]), precomputed: [LowerBackGait.BoutGait]? = nil
    ) {
        result.placement = gait.placement.rawValue
        guard gait.placement == .lowerBack else { return }
        let height = gait.effectiveSensorHeight.flatMap { GaitOptions.sensorHeightRange.contains($0) ? $0 : nil }
        result.sensorHeight = height
        if height == nil {
            result.quality.warnings.append(
                "lower-back sensor without a sensor height (--sensor-height or --height): strideLength and "
                    + "walkingSpeed are null")
        }
        guard !detection.bouts.isEmpty, let rate = detection.samplingRate else { return }
        // The axes in m/s², converted only for bouts the lower-back chain has not measured already.
        var converted: (x: [Double], y: [Double], z: [Double])?
        func metresPerSecondSquared() -> (x: [Double], y: [Double], z: [Double]) {
            if let converted { return converted }
            let g = standardGravity
            let axes = (x: axes.x.map { $0 * g }, y: axes.y.map { $0 * g }, z: axes.z.map { $0 * g })
            converted = axes
            return axes
        }
        let origin = result.timeOrigin ?? 0
        let analyser = LowerBackGait()
        var all: [LowerBackGait.Stride] = []
        var unmeasured = 0
        for (index, bout) in detection.bouts.enumerated() where index < result.bouts.count {
            let measured = precomputed.flatMap { index < $0.count ? $0[index] : nil }
            guard
                let found = measured
                    ?? {
                        let a = metresPerSecondSquared()
                        return analyser.analyze(
                            timestamps: timestamps, x: a.x, y: a.y, z: a.z, start: bout.start, end: bout.end,
                            samplingRate: rate, sensorHeight: height)
                    }()
            else {
                unmeasured += 1
                continue
            }
            result.bouts[index].initialContacts = found.initialContacts.map { $0 - origin }
            // Cadence from the initial contacts, as the Mobilise-D chain takes it (ICDA, then cadence): the step
            // detector's peaks of |a| can fall on every other step of a slow, irregular daily bout.
            let contacts = found.initialContacts
            var intervals: [Double] = []
            for k in contacts.indices.dropFirst() {
                let step = contacts[k] - contacts[k - 1]
                if analyser.configuration.stepTimeRange.contains(step) { intervals.append(step) }
            }
            if intervals.count >= 2 {
                let median = RStatistics.median(intervals)
                result.bouts[index].cadence = 60 / median
                result.bouts[index].strideTime = 2 * median
            }
            result.bouts[index].finalContacts = found.finalContacts.map { $0.map { $0 - origin } }
            result.bouts[index].strides = found.strides.count
            let means = StrideMeans(found.strides)
            result.bouts[index].strideLength = means.length
            result.bouts[index].walkingSpeed = means.speed
            result.bouts[index].stanceTime = means.stance
            result.bouts[index].swingTime = means.swing
            result.bouts[index].doubleSupportTime = means.doubleSupport
            if found.strides.isEmpty { unmeasured += 1 }
            all += found.strides
        }
        let means = StrideMeans(all)
        result.strideLength = means.length
        result.walkingSpeed = means.speed
        result.stanceTime = means.stance
        result.swingTime = means.swing
        result.doubleSupportTime = means.doubleSupport
        if unmeasured > 0 {
            result.quality.warnings.append(
                "lower-back gait: \(unmeasured) of \(detection.bouts.count) bouts had no measurable stride (two "
                    + "consecutive steps of 0.4–1.54 s with their final contacts): their gait parameters are null")
        }
    }

    /// Means over strides of each gait parameter; nil for none (length and speed: nil when no stride has one).
    struct StrideMeans {
        var length: Double?
        var speed: Double?
        var stance: Double?
        var swing: Double?
        var doubleSupport: Double?

        init(_ strides: [LowerBackGait.Stride]) {
            func mean(_ values: [Double]) -> Double? {
                values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
            }
            length = mean(strides.compactMap(\.length))
            speed = mean(strides.compactMap(\.speed))
            stance = mean(strides.map(\.stance))
            swing = mean(strides.map(\.swing))
            doubleSupport = mean(strides.map(\.doubleSupport))
        }
    }
}
