/// The steps, walking bouts and gait-signal features ``StepDetector`` found in one recording.
///
/// Times are seconds in the time base of the timestamps given to the detector (for ResearchKit logs, seconds
/// since device boot). Every `Double` is finite, so the value always encodes to strict JSON.
public struct StepDetection: Sendable, Hashable, Codable {
    /// Time of every step, s, ascending: the maximum of the band-passed acceleration magnitude at each step
    /// (refined between samples by a parabola), plus the steps interpolated across data gaps (see
    /// ``interpolatedStepIndices``).
    public var stepTimes: [Double]
    /// Positions in ``stepTimes`` of the steps interpolated across data gaps (not observed), ascending.
    public var interpolatedStepIndices: [Int]
    /// The walking bouts, in time order; together they hold every step exactly once.
    public var bouts: [WalkingBout]
    /// Intervals between consecutive observed steps of the same uninterrupted chain, s, in time order: no
    /// interval spans a data gap or touches an interpolated step.
    public var stepIntervals: [Double]
    /// Step regularity, the median normalised autocorrelation at one step period; nil when no walking was found.
    ///
    /// The median, over the walking windows, of the normalised autocorrelation of the band-passed magnitude at a
    /// lag of one step period (see ``StepDetector``); 1 means consecutive steps are identical.
    public var stepRegularity: Double?
    /// Stride regularity: as ``stepRegularity`` at a lag of two step periods (one stride, so each foot's step is
    /// compared with the same foot's next); nil when no walking was found.
    public var strideRegularity: Double?
    /// Frequency of the highest peak in the analysis band of the Welch power spectrum of the band-passed
    /// magnitude over the walking runs, Hz; normally the step frequency; nil when no walking was found.
    public var dominantFrequency: Double?
    /// Measured sampling rate, Hz: the reciprocal of the median positive interval between timestamps (or the rate
    /// given to the detector); nil with fewer than two distinct timestamps.
    public var samplingRate: Double?
    /// Rate of the decimated signal the windows were analysed at, Hz; nil when nothing was analysed.
    public var analysisRate: Double?
    /// Analysis windows evaluated.
    public var windowCount: Int
    /// Analysis windows that passed the walking tests (amplitude, step frequency, stride regularity).
    public var walkingWindowCount: Int
    /// Duration of the segments analysed, s (excluding gaps and segments too short to analyse).
    public var analysedDuration: Double
    /// What resampling found and did (order, duplicates, gaps); nil when the input was too short.
    public var resampling: ResamplingReport?
    /// Findings a reader should know about: too little data, a low rate, bridged gaps, no walking.
    public var warnings: [String]
    /// The entries of ``warnings`` that are verdicts on the detector's own steps and bouts (no walking, a short
    /// recording counted or not, steps counted per swing or interpolated across gaps, sequences not counted), not on
    /// the input: what a caller that replaces the steps (the lower-back chain) leaves out.
    public var stepVerdicts: [String]

    /// Creates a detection result (the detector fills one in).
    ///
    /// - Parameters:
    ///   - stepTimes: Step times, s.
    ///   - interpolatedStepIndices: Positions of interpolated steps.
    ///   - bouts: Walking bouts.
    ///   - stepIntervals: Observed step intervals, s.
    ///   - stepRegularity: Median step regularity.
    ///   - strideRegularity: Median stride regularity.
    ///   - dominantFrequency: Dominant walking frequency, Hz.
    ///   - samplingRate: Measured sampling rate, Hz.
    ///   - analysisRate: Window analysis rate, Hz.
    ///   - windowCount: Windows evaluated.
    ///   - walkingWindowCount: Windows labelled walking.
    ///   - analysedDuration: Time analysed, s.
    ///   - resampling: The resampling report.
    ///   - warnings: Findings.
    ///   - stepVerdicts: The entries of `warnings` that judge the detector's own steps.
    public init(
        stepTimes: [Double] = [], interpolatedStepIndices: [Int] = [], bouts: [WalkingBout] = [],
        stepIntervals: [Double] = [], stepRegularity: Double? = nil, strideRegularity: Double? = nil,
        dominantFrequency: Double? = nil, samplingRate: Double? = nil, analysisRate: Double? = nil,
        windowCount: Int = 0, walkingWindowCount: Int = 0, analysedDuration: Double = 0,
        resampling: ResamplingReport? = nil, warnings: [String] = [], stepVerdicts: [String] = []
    ) {
        self.stepTimes = stepTimes
        self.interpolatedStepIndices = interpolatedStepIndices
        self.bouts = bouts
        self.stepIntervals = stepIntervals
        self.stepRegularity = stepRegularity
        self.strideRegularity = strideRegularity
        self.dominantFrequency = dominantFrequency
        self.samplingRate = samplingRate
        self.analysisRate = analysisRate
        self.windowCount = windowCount
        self.walkingWindowCount = walkingWindowCount
        self.analysedDuration = analysedDuration
        self.resampling = resampling
        self.warnings = warnings
        self.stepVerdicts = stepVerdicts
    }

    /// Number of steps, interpolated ones included.
    public var stepCount: Int { stepTimes.count }
    /// Total time spent walking, s: the sum of the bout durations (see ``WalkingBout/duration``).
    public var walkingDuration: Double { bouts.reduce(0) { $0 + $1.duration } }
    /// Steps per minute of walking, `60 · stepCount / walkingDuration`; nil without walking.
    ///
    /// For a bout of n evenly spaced steps at period T this is exactly `60 / T`.
    public var cadence: Double? {
        let duration = walkingDuration
        return duration > 0 ? 60 * Double(stepCount) / duration : nil
    }
    /// ``stepRegularity`` / ``strideRegularity``: about 1 when the left and right steps are alike, lower when
    /// they differ; nil when either is missing or the stride regularity is not positive.
    public var symmetry: Double? {
        guard let step = stepRegularity, let stride = strideRegularity, stride > 0 else { return nil }
        return step / stride
    }
}

/// One walking bout: an uninterrupted chain of steps (possibly joined across data gaps), inside the recording.
public struct WalkingBout: Sendable, Hashable, Codable {
    /// How a bout's steps were found (see ``StepDetector``).
    public enum Detection: String, Sendable, Hashable, Codable {
        /// In a run of analysis windows with a regular gait rhythm (sustained walking).
        case rhythm
        /// As a sequence of steps with consistent intervals outside those runs (short bouts, turns, starts and
        /// stops, irregular gait).
        case stepSequence
        /// In a run of windows where the device swings once per stride (a wrist or a swinging hand: the three axes
        /// repeat once per period of |a| and reverse half way, see
        /// ``StepDetector/Configuration/detectsArmSwing``): each |a| peak is one swing, and a step is counted at it
        /// and half way to the next (and half a swing beyond the first and last peaks, inside the run).
        case armSwing
        /// As the one short walk of a recording too short for any walking run (under
        /// ``StepDetector/Configuration/minimumRunDuration``): its peaks at consistent step intervals, with the step
        /// regularity and in-band energy of a walk (``StepDetector/Configuration/countsShortRecordings``).
        case shortRecording
        /// As a gait sequence of a lower-back sensor (``GaitSequenceDetector``), each step an initial contact of
        /// ``LowerBackGait`` inside it (the Mobilise-D chain; not from ``StepDetector``).
        case gaitSequence
    }

    /// Start, s: the first step's time minus half the bout's step period, but not before the recording starts.
    public var start: Double
    /// End, s: the last step's time plus half the bout's step period, but not after the recording ends.
    public var end: Double
    /// Steps in the bout, interpolated ones included.
    public var stepCount: Int
    /// Steps interpolated across data gaps inside the bout.
    public var interpolatedStepCount: Int
    /// The bout's step period, s: the median interval between its consecutive observed steps.
    public var stepPeriod: Double
    /// Positions of the bout's steps in ``StepDetection/stepTimes``.
    public var steps: Range<Int>
    /// How the bout's steps were found.
    public var detection: Detection
    /// Stride regularity of the bout: the normalised autocorrelation of the band-passed magnitude over the bout at
    /// a lag of two step periods (1 = every stride alike); for a bout joined across data gaps, the step-weighted mean
    /// of its parts; nil when no part is longer than two strides plus one step.
    public var strideRegularity: Double?

    /// Creates a bout.
    ///
    /// - Parameters:
    ///   - start: Start, s.
    ///   - end: End, s.
    ///   - stepCount: Steps in the bout.
    ///   - interpolatedStepCount: Interpolated steps in the bout.
    ///   - stepPeriod: Step period, s.
    ///   - steps: Positions of its steps in the step list.
    ///   - detection: How its steps were found.
    ///   - strideRegularity: Its stride regularity.
    public init(
        start: Double, end: Double, stepCount: Int, interpolatedStepCount: Int, stepPeriod: Double, steps: Range<Int>,
        detection: Detection = .rhythm, strideRegularity: Double? = nil
    ) {
        self.start = start
        self.end = end
        self.stepCount = stepCount
        self.interpolatedStepCount = interpolatedStepCount
        self.stepPeriod = stepPeriod
        self.steps = steps
        self.detection = detection
        self.strideRegularity = strideRegularity
    }

    /// `end − start`, s.
    public var duration: Double { end - start }
    /// The bout's cadence, steps/min: `60 / stepPeriod`.
    public var cadence: Double { 60 / stepPeriod }
    /// The bout's stride time, s: two step periods.
    public var strideTime: Double { 2 * stepPeriod }
}
