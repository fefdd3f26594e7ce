import Foundation
import StudyInputs
public import SensorSignal

/// The signal summary of a recording whose task is not walking (tremor, balance, rest): what a walking result says
/// about the signal, without steps.
///
/// Such a recording is never analysed for steps (see ``MotionTask``), so the result has no `stepCount`, cadence,
/// step times or bouts — not even `null` ones: it is a different `kind`, `motionSignal`. It reports the recording
/// (duration, samples, measured rate), the acceleration magnitude the walking analysis would have used (|a| of an
/// accelerometer log, gravity included, or |userAcceleration + gravity| of a device-motion log, in g) and the
/// quality: the timestamp hygiene report, the unit, and warnings, the first of which says why there are no steps.
/// Every key is always present in JSON (`null` when undefined), `stepIdentifier` and `source` when known.
public struct MotionSignalResult: Sendable, Hashable, Codable {
    /// Always `"motionSignal"`: identifies the kind of result.
    public var kind: String = "motionSignal"
    /// The task the recording belongs to: `"tremor"`, `"balance"`, `"rest"`, or `"other"` (a custom step of a task
    /// result whose name says no task).
    public var task: MotionTask
    /// The active step (`tremor.handInLap.right`, `walking.rest`, …) when known.
    public var stepIdentifier: String?
    /// The file the motion data came from, when known.
    public var source: String?
    /// The signal summarised: `"accelerometer"` or `"deviceMotion"`.
    public var signal: String
    /// Time of the recording's first sample in its own clock, s; nil for an empty recording.
    public var timeOrigin: Double?
    /// Samples after timestamp hygiene.
    public var samples: Int
    /// Time spanned, s: last minus first timestamp after hygiene (gaps included).
    public var duration: Double
    /// Measured sampling rate, Hz: the reciprocal of the robust median sampling interval; nil with fewer than 2
    /// distinct timestamps.
    public var samplingRate: Double?
    /// Mean acceleration magnitude, g, over the finite samples (≈ 1 for a phone that holds still); nil without any.
    public var magnitudeMean: Double?
    /// Standard deviation of the acceleration magnitude, g (n − 1 denominator): how much the phone moved; nil with
    /// fewer than 2 finite samples.
    public var magnitudeSD: Double?
    /// mhealthtools' tremor (tremor steps) or balance (balance and rest steps) features of the recording; nil
    /// (`null`) with fewer than 2 samples.
    public var features: MotionFeatures?
    /// mhealthtools' `get_kinetic_tremor_features` (`IMF = 2`) of a tremor recording, only with
    /// `--feature-set mhealthtools`; absent from JSON otherwise.
    public var imfFeatures: MotionFeatures?
    /// What was found in and done to the recording.
    public var quality: Quality

    /// The quality part of a ``MotionSignalResult``.
    public struct Quality: Sendable, Hashable, Codable {
        /// The timestamp hygiene report of the recorder log (order, duplicates, gaps, units).
        public var hygiene: QualityReport
        /// Unit the acceleration was read in after checking the label against the median |a|: `"g"` or `"m/s^2"`.
        public var accelerationUnit: String
        /// Every finding a reader should know about, one sentence each: first why there are no steps, then the
        /// hygiene warnings.
        public var warnings: [String]

        /// Creates the quality part.
        ///
        /// - Parameters:
        ///   - hygiene: The hygiene report.
        ///   - accelerationUnit: Unit used.
        ///   - warnings: Findings.
        public init(hygiene: QualityReport, accelerationUnit: String, warnings: [String]) {
            self.hygiene = hygiene
            self.accelerationUnit = accelerationUnit
            self.warnings = warnings
        }
    }

    /// Summarises one recording.
    ///
    /// - Parameters:
    ///   - task: The recording's task.
    ///   - stepIdentifier: The active step, when known.
    ///   - source: The motion file, when known.
    ///   - signal: `"accelerometer"` or `"deviceMotion"`.
    ///   - timestamps: Cleaned timestamps, s.
    ///   - magnitude: Acceleration magnitude per sample, g.
    ///   - hygiene: The hygiene report.
    ///   - accelerationUnit: Unit used.
    ///   - extraWarnings: Warnings besides the hygiene's (such as a unit relabelled).
    ///   - features: The mhealthtools features, when computed.
    public init(
        task: MotionTask, stepIdentifier: String?, source: String?, signal: String, timestamps: [Double],
        magnitude: [Double], hygiene: QualityReport, accelerationUnit: String, extraWarnings: [String] = [],
        features: MotionFeatures? = nil
    ) {
        self.features = features
        self.task = task
        self.stepIdentifier = stepIdentifier
        self.source = source
        self.signal = signal
        timeOrigin = timestamps.first
        samples = timestamps.count
        duration = hygiene.timeSpan
        samplingRate = hygiene.sampling?.medianRate
        let finite = magnitude.filter(\.isFinite)
        magnitudeMean = finite.isEmpty ? nil : Reductions.mean(finite)
        magnitudeSD = finite.count < 2 ? nil : Reductions.standardDeviation(finite)
        let name = stepIdentifier ?? source.map { ($0 as NSString).lastPathComponent } ?? "recording"
        let why =
            task == .other
            ? "a motion step whose name says no task (\(name)): it is not analysed for steps (a step identifier with "
                + "the word walk would be); only the signal is summarised"
            : "a \(task.rawValue) step (\(name)): nobody is asked to walk in it, so it is not analysed for steps; "
                + "only the signal is summarised"
        quality = Quality(
            hygiene: hygiene, accelerationUnit: accelerationUnit, warnings: [why] + hygiene.warnings + extraWarnings)
    }

    /// The results of every tremor, balance and rest recording of `input` (not its children), in input order.
    ///
    /// Within one step (same step identifier, or the same file when there is none) accelerometer logs are
    /// summarised, and device-motion logs only when the step has no accelerometer log — as the walking analysis
    /// chooses its signal.
    ///
    /// - Parameters:
    ///   - input: What ``InputLoader`` read.
    ///   - imfFeatures: Also compute mhealthtools' `get_kinetic_tremor_features` of tremor recordings.
    /// - Returns: The results; empty when no recording belongs to such a task.
    public static func results(for input: LoadedInput, imfFeatures: Bool = false) -> [MotionSignalResult] {
        let candidates = input.recordings.compactMap { recording -> (LoadedRecording, MotionTask)? in
            guard let task = recording.motionTask else { return nil }
            switch recording.data {
            case .accelerometer, .deviceMotion: return (recording, task)
            default: return nil
            }
        }
        func key(_ recording: LoadedRecording) -> String { recording.stepIdentifier ?? "file " + recording.file }
        let stepsWithAccelerometer = Set(
            candidates.compactMap { recording, _ -> String? in
                if case .accelerometer = recording.data { return key(recording) }
                return nil
            })
        var deviceMotionOfStep: [String: LoadedRecording] = [:]
        for (recording, _) in candidates {
            if case .deviceMotion = recording.data, deviceMotionOfStep[key(recording)] == nil {
                deviceMotionOfStep[key(recording)] = recording
            }
        }
        var results: [MotionSignalResult] = []
        for (recording, task) in candidates {
            switch recording.data {
            case .accelerometer(let cleaned):
                let log = cleaned.log
                let unit = cleaned.analysedUnit
                var warnings: [String] = []
                if unit != log.unit {
                    warnings.append(
                        "acceleration is labelled \(log.unit.rawValue) but its median |a| says \(unit.rawValue): "
                            + "summarised as \(unit.rawValue)")
                }
                let magnitude = StepDetector.magnitude(
                    x: log.acceleration.x, y: log.acceleration.y, z: log.acceleration.z, scale: unit.toG)
                var features: MotionFeatures?
                if let motion = deviceMotionOfStep[key(recording)], case .deviceMotion(let m) = motion.data {
                    features = MotionFeatures.deviceMotion(m.log, function: .init(task), source: motion.file)
                } else {
                    let scale = unit.toG
                    let a = log.acceleration
                    features = MotionFeatures.accelerometer(
                        timestamps: log.timestamp, x: a.x.map { $0 * scale }, y: a.y.map { $0 * scale },
                        z: a.z.map { $0 * scale }, function: .init(task), source: recording.file)
                    if features != nil {
                        warnings.append(
                            "no device-motion log in this step: the mhealthtools features are accelerometer features "
                                + "of the raw acceleration (gravity included), not of userAcceleration, and there "
                                + "are no gyroscope features")
                    }
                }
                results.append(
                    MotionSignalResult(
                        task: task, stepIdentifier: recording.stepIdentifier, source: recording.file,
                        signal: "accelerometer", timestamps: log.timestamp, magnitude: magnitude,
                        hygiene: cleaned.report, accelerationUnit: unit.rawValue, extraWarnings: warnings,
                        features: features))
            case .deviceMotion(let cleaned):
                guard !stepsWithAccelerometer.contains(key(recording)) else { continue }
                let log = cleaned.log
                let u = log.userAcceleration
                let g = log.gravity
                let magnitude = StepDetector.magnitude(x: u.x, y: u.y, z: u.z, plusX: g.x, plusY: g.y, plusZ: g.z)
                results.append(
                    MotionSignalResult(
                        task: task, stepIdentifier: recording.stepIdentifier, source: recording.file,
                        signal: "deviceMotion", timestamps: log.timestamp, magnitude: magnitude,
                        hygiene: cleaned.report, accelerationUnit: AccelerationUnit.g.rawValue,
                        features: MotionFeatures.deviceMotion(log, function: .init(task), source: recording.file)))
            default:
                continue
            }
        }
        guard imfFeatures else { return results }
        for i in results.indices where results[i].task == .tremor {
            let file = results[i].features?.source ?? results[i].source
            guard let recording = candidates.first(where: { $0.0.file == file })?.0 else { continue }
            switch recording.data {
            case .deviceMotion(let m):
                results[i].imfFeatures = MotionFeatures.deviceMotion(m.log, function: .kineticTremor, source: file)
            case .accelerometer(let a):
                let scale = a.analysedUnit.toG
                let v = a.log.acceleration
                results[i].imfFeatures = MotionFeatures.accelerometer(
                    timestamps: a.log.timestamp, x: v.x.map { $0 * scale }, y: v.y.map { $0 * scale },
                    z: v.z.map { $0 * scale }, function: .kineticTremor, source: file)
            default:
                continue
            }
        }
        return results
    }

    enum CodingKeys: String, CodingKey {
        case kind, task, stepIdentifier, source, signal, timeOrigin, samples, duration, samplingRate, magnitudeMean
        case magnitudeSD, features, imfFeatures, quality
    }

    /// Encodes every key, writing `null` for undefined values rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(task, forKey: .task)
        try c.encodeIfPresent(stepIdentifier, forKey: .stepIdentifier)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encode(signal, forKey: .signal)
        try c.encode(timeOrigin, forKey: .timeOrigin)
        try c.encode(samples, forKey: .samples)
        try c.encode(duration, forKey: .duration)
        try c.encode(samplingRate, forKey: .samplingRate)
        try c.encode(magnitudeMean, forKey: .magnitudeMean)
        try c.encode(magnitudeSD, forKey: .magnitudeSD)
        try c.encode(features, forKey: .features)
        try c.encodeIfPresent(imfFeatures, forKey: .imfFeatures)
        try c.encode(quality, forKey: .quality)
    }
}
