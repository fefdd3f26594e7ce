import Foundation
import StudyInputs
public import SensorSignal

/// Steps, cadence and gait features of one walking recording (one active step of a walking task, one recorder
/// log or one CSV), produced by ``WalkingProcessor``.
///
/// Times are seconds since ``timeOrigin``, the first sample of the recording, so a result reads the same
/// whatever clock the device used. Durations are in seconds, frequencies in Hz, cadence in steps per minute.
/// Every feature key (`stepCount` … `quality`) is always present in JSON (`null` when undefined, e.g. no walking);
/// `pedometerStepCount`, `pedometerDifference` and `gaitSpeed` appear only when their input was given.
///
/// A timed-walk step that has an `ORKTimedWalkResult` but no motion data gives a result with `signal` `"none"`:
/// `gaitSpeed` is filled in, `stepCount` and every other motion feature are `null` (unknown, not zero).
public struct WalkingResult: Sendable, Hashable, Codable {
    /// Always `"walking"`: identifies the kind of result.
    public var kind: String = "walking"
    /// The active step (`walking.outbound`, `timed.walk.trial1`, `6mwt`, …) when known.
    public var stepIdentifier: String?
    /// The file the motion data came from, when known.
    public var source: String?
    /// The signal analysed: `"accelerometer"` (|a|, gravity included), `"deviceMotion"`
    /// (|userAcceleration + gravity|) or `"none"` (a timed walk recorded without motion data).
    public var signal: String
    /// Time of the recording's first sample in its own clock, s; nil for an empty recording.
    ///
    /// Seconds since boot for ResearchKit logs. Every other time in this result counts from it.
    public var timeOrigin: Double?

    /// Number of steps detected, including steps interpolated across short data gaps inside a walking bout (see
    /// ``quality``).
    ///
    /// 0 when there is no walking; nil only when there was no motion data (`signal` `"none"`).
    public var stepCount: Int?
    /// Cadence, steps/min: `60 · stepCount / walkingDuration`, over walking time only (pauses excluded);
    /// null without walking.
    public var cadence: Double?
    /// Time spent walking, s: the sum of the bout durations, each from half a step period before its first step
    /// to half a step period after its last (so n steps at period T last n·T); nil without motion data.
    public var walkingDuration: Double?
    /// Mean step time, s: the mean interval between consecutive observed steps of the same uninterrupted bout
    /// (intervals spanning a gap or touching an interpolated step are excluded); null with fewer than 1 interval.
    public var stepTimeMean: Double?
    /// Standard deviation of those step times, s (n − 1 denominator); null with fewer than 2 intervals.
    public var stepTimeSD: Double?
    /// Coefficient of variation of the step times, %: `100 · stepTimeSD / stepTimeMean`; null with fewer than
    /// 2 intervals.
    public var stepTimeCV: Double?
    /// Step regularity, dimensionless (−1…1), after Moe-Nilssen & Helbostad (2004); null without walking.
    ///
    /// The median over the walking windows (6 s) of the normalised autocorrelation of the band-passed
    /// acceleration magnitude at a lag of one step period, `ρ(k) = Σ x[i]·x[i+k] / √(Σ x[i]² · Σ x[i+k]²)` with the
    /// sums over the samples the window and its shifted copy share. 1 = consecutive steps identical.
    public var stepRegularity: Double?
    /// Stride regularity, dimensionless (−1…1): as ``stepRegularity`` at a lag of two step periods (one stride:
    /// each step compared with the same foot's next step); null without walking.
    public var strideRegularity: Double?
    /// Step symmetry, dimensionless: `stepRegularity / strideRegularity` (Moe-Nilssen & Helbostad).
    ///
    /// About 1 when left and right steps look alike (phone in the hand or on the trunk), lower when they differ (phone
    /// in a trouser pocket); null when either regularity is missing or the stride regularity is ≤ 0.
    public var symmetry: Double?
    /// Dominant frequency, Hz: the highest peak in 0.5–3 Hz of the Welch power spectrum (Hann, 10 s segments) of
    /// the band-passed acceleration magnitude over the walking bouts; normally the step frequency
    /// (cadence / 60); null without walking.
    public var dominantFrequency: Double?
    /// Measured sampling rate, Hz: the reciprocal of the robust median sampling interval of the cleaned
    /// recording; null with fewer than 2 distinct timestamps.
    public var samplingRate: Double?
    /// Time of every step, s since ``timeOrigin``, ascending: the maximum of the band-passed acceleration
    /// magnitude at each step (about heel strike), plus interpolated steps (listed in the quality report).
    public var stepTimes: [Double]
    /// The walking bouts, in time order.
    public var bouts: [Bout]
    /// Data hygiene, resampling and detection findings.
    public var quality: WalkingQuality
    /// The phone's own step count for the same recording (`CMPedometer` `numberOfSteps` of the last pedometer
    /// sample); only when a pedometer log was given.
    public var pedometerStepCount: Int?
    /// `stepCount − pedometerStepCount`, steps; only when a pedometer log was given.
    public var pedometerDifference: Int?
    /// The pedometer's cumulative `distance` at its last snapshot, m: the distance walked as CoreMotion estimated
    /// it — for ResearchKit's fitness check (`fitness.walk`) the six-minute walk distance; only when the pedometer
    /// log records a distance.
    public var pedometerDistance: Double?
    /// Time the pedometer log covers, s: its last snapshot's `endDate` − `startDate`; only with a pedometer log.
    public var pedometerDuration: Double?
    /// Gait speed, m/s: the timed walk's `distanceInMeters / duration` (`ORKTimedWalkResult`); only for a timed
    /// walk step, and `null` there when the duration is not positive (see the warnings).
    public var gaitSpeed: Double?
    /// True when the step had an `ORKTimedWalkResult` (then `gaitSpeed` and the `timedWalk…` keys are always
    /// encoded, `null` if undefined).
    public var hasTimedWalk = false
    /// The timed walk's `distanceInMeters` as recorded, m; only for a timed walk step.
    public var timedWalkDistance: Double?
    /// The timed walk's `duration` as recorded, s; only for a timed walk step.
    public var timedWalkDuration: Double?
    /// The timed walk's `timeLimit` as recorded, s; `null` when the step had none; only for a timed walk step.
    public var timedWalkTimeLimit: Double?
    /// Where the sensor was worn, as given (`--placement`, `--sensor-height`, `--height`): `"unknown"` or
    /// `"lower-back"`; nil only for a timed walk without motion data.
    public var placement: String?
    /// The sensor height the stride lengths were computed with, m (`--sensor-height`, or the ratio ×
    /// `--height`); null without one.
    public var sensorHeight: Double?
    /// Stride time, s: two mean step times (`2 · stepTimeMean`), for any placement; null with no step interval.
    public var strideTime: Double?
    /// Stride length, m: the mean over every stride of the record (``Bout/strideLength``); lower-back sensor
    /// with a sensor height only, else null.
    public var strideLength: Double?
    /// Walking speed, m/s: the mean over every stride of stride length / stride time; lower back with a sensor
    /// height only, else null.
    public var walkingSpeed: Double?
    /// Stance time, s: the mean over every stride of the time its first foot is on the ground (initial contact
    /// to that foot's final contact); lower back only, else null.
    public var stanceTime: Double?
    /// Swing time, s: the mean over every stride of stride time − stance time; lower back only, else null.
    public var swingTime: Double?
    /// Double-support time, s: the mean over every stride of the time both feet are on the ground (its two
    /// initial-to-final-contact periods); lower back only, else null.
    public var doubleSupportTime: Double?
    /// Turns while walking: the number of ``turnEvents`` whose peak lies in a bout (the sum of the bouts'
    /// ``Bout/turns``); null without a gyroscope (a device-motion log, or gyroscope columns beside the
    /// acceleration), with a warning when the placement is known.
    public var turns: Int?
    /// Mean angle of the turns while walking, degrees; null without a gyroscope or with no turn while walking.
    public var meanTurnAngle: Double?
    /// Mean duration of the turns while walking, s; null without a gyroscope or with no turn while walking.
    public var meanTurnDuration: Double?
    /// Where the turns were read from: `"deviceMotion"` (CoreMotion's rotation rate and gravity, of the analysed
    /// log or of the step's device-motion log beside an accelerometer log) or `"gyroscope"` (gyroscope columns of
    /// the analysed table, gravity from its low-passed acceleration); null without either.
    public var turnSignal: String?
    /// Every turn of the recording (``TurnDetector``), while walking or not, in time order; null without a
    /// gyroscope, empty when there is none.
    public var turnEvents: [TurnEvent]?

    /// One turn, as ``TurnDetector`` finds it (El-Gohary 2014 with Mobilise-D's parameters).
    public struct TurnEvent: Sendable, Hashable, Codable {
        /// Start, s since ``WalkingResult/timeOrigin``.
        public var start: Double
        /// End, s since ``WalkingResult/timeOrigin``.
        public var end: Double
        /// Duration, s.
        public var duration: Double
        /// Angle turned, degrees (≥ 45).
        public var angle: Double
        /// Peak of the smoothed angular velocity about the vertical, °/s.
        public var peakAngularVelocity: Double
        /// Time of that peak, s since ``WalkingResult/timeOrigin``.
        public var peak: Double
        /// The 0-based index in ``WalkingResult/bouts`` of the bout holding the turn's peak; null for a turn
        /// outside every bout (standing, or a turn the step detector did not see as walking).
        public var boutIndex: Int?
    }
    /// mhealthtools' `get_walk_features` (`IMF = 2`) of the recording, only with `--feature-set mhealthtools`
    /// (``FeatureSet/mhealthtools``); absent from JSON otherwise. See `docs/tremor-balance.md`.
    public var mhealthtoolsFeatures: MotionFeatures?

    /// One walking bout.
    public struct Bout: Sendable, Hashable, Codable {
        /// Start, s since ``WalkingResult/timeOrigin``: half a step period before the first step, but never before the
        /// recording's first sample (0).
        public var start: Double
        /// End, s since ``WalkingResult/timeOrigin``: half a step period after the last step, but never after the
        /// recording's last sample.
        public var end: Double
        /// Steps in the bout, interpolated ones included.
        public var steps: Int
        /// Steps of the bout interpolated across data gaps.
        public var interpolatedSteps: Int
        /// The bout's cadence, steps/min: 60 / its step period (the median interval between its observed steps;
        /// for a lower-back sensor, between its initial contacts when it has at least two); nil in results written
        /// before it existed.
        public var cadence: Double?
        /// The bout's stride time, s: two step periods; nil in results written before it existed.
        public var strideTime: Double?
        /// The bout's stride regularity (normalised autocorrelation of the band-passed magnitude over the bout at
        /// one stride, 1 = every stride alike); nil when the bout is shorter than two strides plus one step, and for
        /// a `"gaitSequence"` bout.
        public var strideRegularity: Double?
        /// How the bout was found: `"rhythm"` (a run of windows with a regular gait rhythm: sustained walking),
        /// `"stepSequence"` (consistent step intervals outside those runs: short bouts, turns, starts and stops,
        /// irregular gait), `"armSwing"` (a sustained run in which the device swings once per stride, a wrist or a
        /// swinging hand: two steps per swing), `"shortRecording"` (the one short walk of a recording under the 3 s
        /// a walking run needs) or `"gaitSequence"` (a lower-back sensor's gait sequence, its initial contacts the
        /// steps: the Mobilise-D chain); nil in results written before it existed.
        public var detection: String?
        /// Initial contacts (heel strikes) in the bout, s since ``WalkingResult/timeOrigin``: the maxima of the
        /// smoothed vertical jerk (lower back only; ``LowerBackGait``); null for other placements.
        public var initialContacts: [Double]?
        /// The final contact (toe off) after each initial contact but the last, s since the time origin (null
        /// where none was found); lower back only.
        public var finalContacts: [Double?]?
        /// Strides measured: consecutive pairs of accepted steps (0.4–1.54 s each) with both final contacts;
        /// lower back only, null otherwise.
        public var strides: Int?
        /// Mean stride length, m (two inverted-pendulum step lengths); lower back with a sensor height only.
        public var strideLength: Double?
        /// Mean walking speed, m/s: the mean of stride length / stride time over the bout's strides.
        public var walkingSpeed: Double?
        /// Mean stance time, s (see ``WalkingResult/stanceTime``).
        public var stanceTime: Double?
        /// Mean swing time, s.
        public var swingTime: Double?
        /// Mean double-support time, s.
        public var doubleSupportTime: Double?
        /// Turns in the bout; null without a gyroscope (not read yet).
        public var turns: Int?

        /// Creates a bout.
        ///
        /// - Parameters:
        ///   - start: Start, s.
        ///   - end: End, s.
        ///   - steps: Step count.
        ///   - interpolatedSteps: Interpolated steps.
        ///   - cadence: Cadence, steps/min.
        ///   - strideTime: Stride time, s.
        ///   - strideRegularity: Stride regularity.
        ///   - detection: How it was found.
        public init(
            start: Double, end: Double, steps: Int, interpolatedSteps: Int, cadence: Double? = nil,
            strideTime: Double? = nil, strideRegularity: Double? = nil, detection: String? = nil
        ) {
            self.start = start
            self.end = end
            self.steps = steps
            self.interpolatedSteps = interpolatedSteps
            self.cadence = cadence
            self.strideTime = strideTime
            self.strideRegularity = strideRegularity
            self.detection = detection
        }

        enum CodingKeys: String, CodingKey {
            case start, end, steps, interpolatedSteps, cadence, strideTime, strideRegularity, detection
            case initialContacts, finalContacts, strides, strideLength, walkingSpeed, stanceTime, swingTime
            case doubleSupportTime, turns
        }

        /// Encodes the keys that predate the gait parameters when present, and every gait key (`null` when
        /// undefined).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(start, forKey: .start)
            try c.encode(end, forKey: .end)
            try c.encode(steps, forKey: .steps)
            try c.encode(interpolatedSteps, forKey: .interpolatedSteps)
            try c.encodeIfPresent(cadence, forKey: .cadence)
            try c.encodeIfPresent(strideTime, forKey: .strideTime)
            try c.encodeIfPresent(strideRegularity, forKey: .strideRegularity)
            try c.encodeIfPresent(detection, forKey: .detection)
            try c.encode(strides, forKey: .strides)
            try c.encode(strideLength, forKey: .strideLength)
            try c.encode(walkingSpeed, forKey: .walkingSpeed)
            try c.encode(stanceTime, forKey: .stanceTime)
            try c.encode(swingTime, forKey: .swingTime)
            try c.encode(doubleSupportTime, forKey: .doubleSupportTime)
            try c.encode(turns, forKey: .turns)
            try c.encode(initialContacts, forKey: .initialContacts)
            try c.encode(finalContacts, forKey: .finalContacts)
        }
    }

    /// Creates a result (``WalkingProcessor`` fills one in).
    ///
    /// - Parameters:
    ///   - stepIdentifier: The active step, when known.
    ///   - source: The motion file, when known.
    ///   - signal: `"accelerometer"` or `"deviceMotion"`.
    ///   - timeOrigin: First sample time, s.
    ///   - detection: What the step detector found, in the recording's clock.
    ///   - quality: The quality report.
    public init(
        stepIdentifier: String?, source: String?, signal: String, timeOrigin: Double?, detection: StepDetection,
        quality: WalkingQuality
    ) {
        self.stepIdentifier = stepIdentifier
        self.source = source
        self.signal = signal
        self.timeOrigin = timeOrigin
        let origin = timeOrigin ?? 0
        stepCount = detection.stepCount
        cadence = detection.cadence
        walkingDuration = detection.walkingDuration
        let intervals = detection.stepIntervals
        if intervals.isEmpty {
            stepTimeMean = nil
        } else {
            stepTimeMean = Reductions.mean(intervals)
        }
        strideTime = stepTimeMean.map { 2 * $0 }
        placement = SensorPlacement.unknown.rawValue
        if intervals.count >= 2, let mean = stepTimeMean {
            let sd = Reductions.standardDeviation(intervals)
            stepTimeSD = sd
            stepTimeCV = mean > 0 ? 100 * sd / mean : nil
        } else {
            stepTimeSD = nil
            stepTimeCV = nil
        }
        stepRegularity = detection.stepRegularity
        strideRegularity = detection.strideRegularity
        symmetry = detection.symmetry
        dominantFrequency = detection.dominantFrequency
        samplingRate = detection.samplingRate
        stepTimes = detection.stepTimes.map { $0 - origin }
        bouts = detection.bouts.map {
            Bout(
                start: $0.start - origin, end: $0.end - origin, steps: $0.stepCount,
                interpolatedSteps: $0.interpolatedStepCount, cadence: $0.cadence, strideTime: $0.strideTime,
                strideRegularity: $0.strideRegularity, detection: $0.detection.rawValue)
        }
        self.quality = quality
    }

    /// A result for a timed-walk step recorded without motion data: only the recorded distance, duration and time limit and the gait speed are known.
    ///
    /// - Parameters:
    ///   - stepIdentifier: The timed-walk step (`timed.walk.trial1`, …).
    ///   - source: The task result file.
    ///   - timedWalk: The step's `ORKTimedWalkResult`.
    public init(stepIdentifier: String, source: String?, timedWalk: ResearchKit.TimedWalkResult) {
        self.stepIdentifier = stepIdentifier
        self.source = source
        signal = "none"
        timeOrigin = nil
        stepCount = nil
        cadence = nil
        walkingDuration = nil
        stepTimeMean = nil
        stepTimeSD = nil
        stepTimeCV = nil
        stepRegularity = nil
        strideRegularity = nil
        symmetry = nil
        dominantFrequency = nil
        samplingRate = nil
        stepTimes = []
        bouts = []
        let warnings = [
            "no accelerometer or device-motion data for this step: only the timed walk's distance, duration and gait "
                + "speed are reported"
        ]
        quality = WalkingQuality(
            hygiene: nil, resampling: nil, accelerationUnit: "", windowCount: 0, walkingWindowCount: 0,
            analysedDuration: 0, interpolatedSteps: 0, interpolatedStepTimes: [], warnings: warnings)
        quality.warnings += applyTimedWalk(timedWalk)
    }

    /// Keeps a timed walk's recorded distance, duration and time limit (finite values only) and sets `gaitSpeed`
    /// (`distanceInMeters / duration`), or nil with a warning when the duration or distance cannot give a speed.
    ///
    /// - Returns: The warnings, empty when the speed was set.
    mutating func applyTimedWalk(_ timedWalk: ResearchKit.TimedWalkResult) -> [String] {
        hasTimedWalk = true
        timedWalkDistance = timedWalk.distanceInMeters.isFinite ? timedWalk.distanceInMeters : nil
        timedWalkDuration = timedWalk.duration.isFinite ? timedWalk.duration : nil
        timedWalkTimeLimit = timedWalk.timeLimit.flatMap { $0.isFinite ? $0 : nil }
        guard timedWalk.duration > 0, timedWalk.duration.isFinite else {
            gaitSpeed = nil
            return ["the timed walk's duration is \(timedWalk.duration) s: no gait speed"]
        }
        guard timedWalk.distanceInMeters > 0, timedWalk.distanceInMeters.isFinite else {
            gaitSpeed = nil
            return ["the timed walk's distanceInMeters is \(timedWalk.distanceInMeters): no gait speed"]
        }
        gaitSpeed = timedWalk.distanceInMeters / timedWalk.duration
        return []
    }

    enum CodingKeys: String, CodingKey {
        case kind, stepIdentifier, source, signal, timeOrigin, stepCount, cadence, walkingDuration, stepTimeMean
        case stepTimeSD, stepTimeCV, stepRegularity, strideRegularity, symmetry, dominantFrequency, samplingRate
        case stepTimes, bouts, quality, pedometerStepCount, pedometerDifference, pedometerDistance, pedometerDuration
        case gaitSpeed
        case timedWalkDistance, timedWalkDuration, timedWalkTimeLimit, mhealthtoolsFeatures
        case placement, sensorHeight, strideTime, strideLength, walkingSpeed, stanceTime, swingTime
        case doubleSupportTime, turns, meanTurnAngle, meanTurnDuration, turnSignal, turnEvents
    }

    /// Encodes every key of the issue, writing `null` for undefined values rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(stepIdentifier, forKey: .stepIdentifier)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encode(signal, forKey: .signal)
        try c.encode(timeOrigin, forKey: .timeOrigin)
        try c.encode(stepCount, forKey: .stepCount)
        try c.encode(cadence, forKey: .cadence)
        try c.encode(walkingDuration, forKey: .walkingDuration)
        try c.encode(stepTimeMean, forKey: .stepTimeMean)
        try c.encode(stepTimeSD, forKey: .stepTimeSD)
        try c.encode(stepTimeCV, forKey: .stepTimeCV)
        try c.encode(stepRegularity, forKey: .stepRegularity)
        try c.encode(strideRegularity, forKey: .strideRegularity)
        try c.encode(symmetry, forKey: .symmetry)
        try c.encode(dominantFrequency, forKey: .dominantFrequency)
        try c.encode(samplingRate, forKey: .samplingRate)
        try c.encode(placement, forKey: .placement)
        try c.encode(sensorHeight, forKey: .sensorHeight)
        try c.encode(strideTime, forKey: .strideTime)
        try c.encode(strideLength, forKey: .strideLength)
        try c.encode(walkingSpeed, forKey: .walkingSpeed)
        try c.encode(stanceTime, forKey: .stanceTime)
        try c.encode(swingTime, forKey: .swingTime)
        try c.encode(doubleSupportTime, forKey: .doubleSupportTime)
        try c.encode(turns, forKey: .turns)
        try c.encode(meanTurnAngle, forKey: .meanTurnAngle)
        try c.encode(meanTurnDuration, forKey: .meanTurnDuration)
        try c.encode(turnSignal, forKey: .turnSignal)
        try c.encode(turnEvents, forKey: .turnEvents)
        try c.encode(stepTimes, forKey: .stepTimes)
        try c.encode(bouts, forKey: .bouts)
        try c.encode(quality, forKey: .quality)
        try c.encodeIfPresent(pedometerStepCount, forKey: .pedometerStepCount)
        try c.encodeIfPresent(pedometerDifference, forKey: .pedometerDifference)
        try c.encodeIfPresent(pedometerDistance, forKey: .pedometerDistance)
        try c.encodeIfPresent(pedometerDuration, forKey: .pedometerDuration)
        if hasTimedWalk {
            try c.encode(gaitSpeed, forKey: .gaitSpeed)
            try c.encode(timedWalkDistance, forKey: .timedWalkDistance)
            try c.encode(timedWalkDuration, forKey: .timedWalkDuration)
            try c.encode(timedWalkTimeLimit, forKey: .timedWalkTimeLimit)
        }
        try c.encodeIfPresent(mhealthtoolsFeatures, forKey: .mhealthtoolsFeatures)
    }
}

/// What was found in and done to a walking recording before and during step detection.
public struct WalkingQuality: Sendable, Hashable, Codable {
    /// The timestamp hygiene report of the recorder log (order, duplicates, gaps, units); nil when the input
    /// came without one.
    public var hygiene: QualityReport?
    /// How the magnitude was put on a uniform grid (rate, gaps split, segments); nil when too short.
    public var resampling: ResamplingReport?
    /// Unit the acceleration was analysed in after checking the label against the median |a|: `"g"` or
    /// `"m/s^2"`.
    public var accelerationUnit: String
    /// Analysis windows evaluated (6 s every 0.5 s).
    public var windowCount: Int
    /// Windows that passed the walking tests.
    public var walkingWindowCount: Int
    /// Time analysed, s (gaps and unanalysable short segments excluded).
    public var analysedDuration: Double
    /// Steps interpolated across data gaps, included in `stepCount`.
    public var interpolatedSteps: Int
    /// Times of the interpolated steps, s since the result's time origin.
    public var interpolatedStepTimes: [Double]
    /// Every finding a reader should know about, one sentence each (hygiene warnings first).
    public var warnings: [String]

    /// Creates a quality report.
    ///
    /// - Parameters:
    ///   - hygiene: The hygiene report.
    ///   - resampling: The resampling report.
    ///   - accelerationUnit: Unit analysed.
    ///   - windowCount: Windows evaluated.
    ///   - walkingWindowCount: Walking windows.
    ///   - analysedDuration: Time analysed, s.
    ///   - interpolatedSteps: Interpolated step count.
    ///   - interpolatedStepTimes: Their times, s.
    ///   - warnings: Findings.
    public init(
        hygiene: QualityReport?, resampling: ResamplingReport?, accelerationUnit: String, windowCount: Int,
        walkingWindowCount: Int, analysedDuration: Double, interpolatedSteps: Int, interpolatedStepTimes: [Double],
        warnings: [String]
    ) {
        self.hygiene = hygiene
        self.resampling = resampling
        self.accelerationUnit = accelerationUnit
        self.windowCount = windowCount
        self.walkingWindowCount = walkingWindowCount
        self.analysedDuration = analysedDuration
        self.interpolatedSteps = interpolatedSteps
        self.interpolatedStepTimes = interpolatedStepTimes
        self.warnings = warnings
    }
}
