import Foundation
import StudyInputs

/// The features of one two-finger tapping recording (one `tapping.left`/`tapping.right` step, one mPower
/// `TappingSamples` file, one MyDataHelps row, one `t,x,y,buttonid` table), produced by ``TappingProcessor``.
///
/// JSON holds, at the top level: the identification keys (`kind`, `stepIdentifier`, `source`, `variant`), every
/// Sage Bionetworks feature under its exact R name (``TappingFeatures/namedValues``: `meanTapInter` … `corXY`, plus
/// `dfaTapInter` for the mPower 2016 variant; null where R gives `NA`, `NaN` or `Inf`), `error` (string, or null
/// when the features were computed), and the ResearchKit-native extras below (null when the input cannot give
/// them). See `README.md, "Two-finger tapping"` for every definition.
public struct TappingResult: Sendable, Hashable {
    /// Always `"tapping"`: identifies the kind of result.
    public var kind: String = "tapping"
    /// The active step (`tapping.left`, `tapping.right`, …) when known.
    public var stepIdentifier: String?
    /// The file the taps came from, with `#` and the record key for a row of a multi-record file.
    public var source: String?
    /// The Sage Bionetworks features (and their `error`).
    public var features: TappingFeatures
    /// Extras from the raw taps that the R tools do not compute.
    public var extras: TappingExtras
    /// Summary of the accelerometer log recorded during the same step; nil when there is none.
    public var accelerometer: TappingAccelerometerSummary?
    /// What was excluded from the analysis and why (taps with non-finite or out-of-range values); empty when
    /// nothing was (the `warnings` key is then omitted).
    public var warnings: [String] = []
    /// The taps analysed, as recorded, in the recording's order (the excluded ones left out).
    ///
    /// Batch's `taps.csv` (``TappingAnalysis/detailTables(of:)``); not part of the result's JSON.
    public var taps: [TapSample] = []

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - stepIdentifier: The step, when known.
    ///   - source: The file (and record), when known.
    ///   - features: The Sage Bionetworks features.
    ///   - extras: The ResearchKit-native extras.
    ///   - accelerometer: The step's accelerometer summary, if any.
    public init(
        stepIdentifier: String?, source: String?, features: TappingFeatures, extras: TappingExtras,
        accelerometer: TappingAccelerometerSummary?
    ) {
        self.stepIdentifier = stepIdentifier
        self.source = source
        self.features = features
        self.extras = extras
        self.accelerometer = accelerometer
    }
}

/// What the raw taps of a recording show beyond the Sage Bionetworks features: counts per button, alternation,
/// touch durations, accuracy against the button frames, and timestamp order.
///
/// Computed on every tap as recorded (no cleaning, no depress-event selection), after a stable sort by timestamp
/// where order matters. Durations are in s, distances in points.
public struct TappingExtras: Sendable, Hashable {
    /// Taps recorded, all buttons.
    public var tapCount: Int
    /// Taps labelled as hitting the left button (`buttonRect1`).
    public var leftTaps: Int
    /// Taps labelled as hitting the right button (`buttonRect2`).
    public var rightTaps: Int
    /// Taps labelled `none`: outside both buttons.
    public var noneTaps: Int
    /// Taps whose location lies inside neither button frame (edges count as inside); nil without both frames.
    ///
    /// Normally equals ``noneTaps``; a difference means the labels and the geometry disagree.
    public var tapsOutsideButtons: Int?
    /// Fraction of consecutive button taps that switch button, 0…1; 1 is perfect alternation.
    ///
    /// Button taps are the left/right taps in time order (`none` taps skipped). Nil with fewer than 2 button taps.
    public var alternationRate: Double?
    /// Time from the first to the last tap, s; nil without taps.
    public var tapSpan: Double?
    /// Button taps per second over ``tapSpan``; nil with fewer than 2 taps or a zero span.
    public var buttonTapRate: Double?
    /// Mean touch-down to touch-up time of the button taps, s (ResearchKit `duration`); nil when no button tap
    /// has a recorded duration (mPower, old ResearchKit versions).
    public var tapDurationMean: Double?
    /// Median of those durations, s.
    public var tapDurationMedian: Double?
    /// Sample standard deviation of those durations (n − 1), s; nil with fewer than 2.
    public var tapDurationSD: Double?
    /// Shortest of those durations, s.
    public var tapDurationMin: Double?
    /// Longest of those durations, s.
    public var tapDurationMax: Double?
    /// Mean distance of left-button taps from the left button's centre, points; nil without the frame or taps.
    public var leftButtonDistanceMean: Double?
    /// Mean distance of right-button taps from the right button's centre, points; nil without the frame or taps.
    public var rightButtonDistanceMean: Double?
    /// Mean distance of every button tap from the centre of the button it hit, points; nil without frames.
    public var buttonDistanceMean: Double?
    /// Median of those distances, points.
    public var buttonDistanceMedian: Double?
    /// Sample standard deviation of those distances, points; nil with fewer than 2.
    public var buttonDistanceSD: Double?
    /// Largest of those distances, points.
    public var buttonDistanceMax: Double?
    /// Taps whose timestamp is earlier than the previous tap's, in recorded order.
    public var backwardsTimestamps: Int
    /// Taps whose timestamp equals the previous tap's, in recorded order.
    public var repeatedTimestamps: Int

    /// Creates extras; ``TappingProcessor`` computes them with ``init(recording:)``.
    ///
    /// - Parameter recording: The recording.
    public init(recording: TappingRecording) {
        let samples = recording.samples
        tapCount = samples.count
        leftTaps = samples.count { $0.button == .left }
        rightTaps = samples.count { $0.button == .right }
        noneTaps = samples.count { $0.button == .none }
        if let l = recording.leftButton, let r = recording.rightButton {
            tapsOutsideButtons = samples.count { !l.contains($0.location) && !r.contains($0.location) }
        } else {
            tapsOutsideButtons = nil
        }

        var backwards = 0, repeated = 0
        for i in samples.indices.dropFirst() {
            let a = samples[i - 1].timestamp, b = samples[i].timestamp
            if b < a { backwards += 1 } else if b == a { repeated += 1 }
        }
        backwardsTimestamps = backwards
        repeatedTimestamps = repeated

        // Time order, ties in recorded order.
        let ordered = samples.indices.sorted {
            samples[$0].timestamp < samples[$1].timestamp
                || (samples[$0].timestamp == samples[$1].timestamp && $0 < $1)
        }
        var switches = 0, pairs = 0
        var previous: TapButton?
        for i in ordered where samples[i].button != .none {
            if let p = previous {
                pairs += 1
                if p != samples[i].button { switches += 1 }
            }
            previous = samples[i].button
        }
        alternationRate = pairs > 0 ? Double(switches) / Double(pairs) : nil
        let times = samples.map(\.timestamp).filter(\.isFinite)
        if let first = times.min(), let last = times.max() {
            tapSpan = last - first
            let buttonTaps = leftTaps + rightTaps
            buttonTapRate = samples.count >= 2 && last > first ? Double(buttonTaps) / (last - first) : nil
        } else {
            tapSpan = nil
            buttonTapRate = nil
        }

        let durations = samples.compactMap { $0.button == .none ? nil : $0.duration }.filter(\.isFinite)
        let d = Self.describe(durations)
        tapDurationMean = d.mean
        tapDurationMedian = d.median
        tapDurationSD = d.sd
        tapDurationMin = d.min
        tapDurationMax = d.max

        var left: [Double] = [], right: [Double] = []
        for s in samples {
            if s.button == .left, let c = recording.leftButton?.center {
                left.append(Self.distance(s.location, c))
            } else if s.button == .right, let c = recording.rightButton?.center {
                right.append(Self.distance(s.location, c))
            }
        }
        let hasFrames = recording.leftButton != nil || recording.rightButton != nil
        leftButtonDistanceMean = Self.describe(left).mean
        rightButtonDistanceMean = Self.describe(right).mean
        let all = Self.describe((left + right).filter(\.isFinite))
        buttonDistanceMean = hasFrames ? all.mean : nil
        buttonDistanceMedian = hasFrames ? all.median : nil
        buttonDistanceSD = hasFrames ? all.sd : nil
        buttonDistanceMax = hasFrames ? all.max : nil
    }

    /// Every extra under its output key, in output order (counts as whole numbers; nil where undefined).
    public var namedValues: [(name: String, value: Double?)] {
        [
            ("tapCount", Double(tapCount)), ("leftTaps", Double(leftTaps)), ("rightTaps", Double(rightTaps)),
            ("noneTaps", Double(noneTaps)), ("tapsOutsideButtons", tapsOutsideButtons.map(Double.init)),
            ("alternationRate", alternationRate), ("tapSpan", tapSpan), ("buttonTapRate", buttonTapRate),
            ("tapDurationMean", tapDurationMean), ("tapDurationMedian", tapDurationMedian),
            ("tapDurationSD", tapDurationSD), ("tapDurationMin", tapDurationMin), ("tapDurationMax", tapDurationMax),
            ("leftButtonDistanceMean", leftButtonDistanceMean), ("rightButtonDistanceMean", rightButtonDistanceMean),
            ("buttonDistanceMean", buttonDistanceMean), ("buttonDistanceMedian", buttonDistanceMedian),
            ("buttonDistanceSD", buttonDistanceSD), ("buttonDistanceMax", buttonDistanceMax),
            ("backwardsTimestamps", Double(backwardsTimestamps)), ("repeatedTimestamps", Double(repeatedTimestamps)),
        ]
    }

    /// √(dx² + dy²), points.
    static func distance(_ a: ViewPoint, _ b: ViewPoint) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Mean, median, sample sd, min and max of finite values; nil where undefined.
    static func describe(_ values: [Double]) -> (
        mean: Double?, median: Double?, sd: Double?, min: Double?, max: Double?
    ) {
        let finite = values.filter(\.isFinite)
        guard !finite.isEmpty else { return (nil, nil, nil, nil, nil) }
        let sorted = finite.sorted()
        let n = sorted.count
        let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        let mean = finite.reduce(0, +) / Double(n)
        var sd: Double?
        if n >= 2 {
            var s = 0.0
            for v in finite { s += (v - mean) * (v - mean) }
            sd = (s / Double(n - 1)).squareRoot()
        }
        return (mean, median, sd, sorted[0], sorted[n - 1])
    }
}

/// Summary of the accelerometer log recorded during a tapping step (ResearchKit's `tapping.left`/`tapping.right`
/// accelerometer recorder, mPower's `accel_tapping_*.json`): how much the phone moved while being tapped.
public struct TappingAccelerometerSummary: Sendable, Hashable, Codable {
    /// The log file.
    public var file: String
    /// Samples after timestamp hygiene.
    public var samples: Int
    /// Time from the first to the last sample, s.
    public var duration: Double
    /// Measured sampling rate, Hz (the hygiene report's robust estimate); nil with fewer than 2 samples.
    public var samplingRate: Double?
    /// Mean acceleration magnitude |a| (gravity included), g; about 1 for a phone lying still.
    public var magnitudeMean: Double?
    /// Standard deviation of |a| (n − 1), g: the phone's shake during tapping.
    public var magnitudeSD: Double?
    /// Largest |a| − smallest |a|, g.
    public var magnitudeRange: Double?

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - file: The log file.
    ///   - samples: Sample count.
    ///   - duration: Span, s.
    ///   - samplingRate: Rate, Hz.
    ///   - magnitudeMean: Mean |a|, g.
    ///   - magnitudeSD: SD of |a|, g.
    ///   - magnitudeRange: Range of |a|, g.
    public init(
        file: String, samples: Int, duration: Double, samplingRate: Double?, magnitudeMean: Double?,
        magnitudeSD: Double?, magnitudeRange: Double?
    ) {
        self.file = file
        self.samples = samples
        self.duration = duration
        self.samplingRate = samplingRate
        self.magnitudeMean = magnitudeMean
        self.magnitudeSD = magnitudeSD
        self.magnitudeRange = magnitudeRange
    }

    /// Encodes every key, with null for undefined values.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(samples, forKey: .samples)
        try c.encode(duration, forKey: .duration)
        try c.encode(samplingRate, forKey: .samplingRate)
        try c.encode(magnitudeMean, forKey: .magnitudeMean)
        try c.encode(magnitudeSD, forKey: .magnitudeSD)
        try c.encode(magnitudeRange, forKey: .magnitudeRange)
    }
}
