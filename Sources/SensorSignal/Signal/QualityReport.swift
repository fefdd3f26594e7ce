/// What ``TimeSeriesHygiene`` found in a recording and every change it made, for `taskproc inspect` and per-record
/// quality columns.
///
/// Counts are samples (rows: one timestamp and one value per channel). Times and intervals are in seconds in the
/// recording's own time base, rates in Hz, jitter in milliseconds. "Input rows" are 0-based positions in the input
/// as given; "sample indices" (``TimestampGap/sampleIndex``) are positions in the cleaned series. Every `Double`
/// is finite, so the report always encodes to strict JSON.
///
/// The contract: the data is changed only by the steps listed in ``repairs``; ``warnings`` describe findings left
/// as they are (gaps, NaN values, doubtful units).
public struct QualityReport: Sendable, Hashable, Codable {
    /// The measured sampling of the cleaned series (needs at least 2 samples).
    public struct Sampling: Sendable, Hashable, Codable {
        /// Nominal interval, s: the median of the intervals inside `[m / outlierFactor, m × outlierFactor]`, with
        /// `m` the median of all intervals (all positive once sorted and de-duplicated).
        public var nominalInterval: Double
        /// Robust rate, Hz: `1 / nominalInterval`.
        public var medianRate: Double
        /// Mean rate over the inlier intervals, Hz: `inliers / Σ inlier intervals`; more faithful than the median
        /// when timestamps are quantised (whole milliseconds at 80 Hz give 12 and 13 ms intervals).
        public var meanRate: Double
        /// Rate over the whole span, gaps included, Hz: `(outputCount − 1) / timeSpan`.
        public var overallRate: Double
        /// Intervals excluded from the rate estimate as outliers (gaps, bursts).
        public var intervalOutliers: Int
        /// Interval jitter, ms: the interquartile range (R type 7) of all intervals of the cleaned series.
        public var jitterMilliseconds: Double
        /// Shortest interval, s.
        public var minimumInterval: Double
        /// Longest interval, s.
        public var maximumInterval: Double

        /// Creates a sampling summary (see the properties for units).
        ///
        /// - Parameters:
        ///   - nominalInterval: Robust median interval, s.
        ///   - medianRate: `1 / nominalInterval`, Hz.
        ///   - meanRate: Inlier mean rate, Hz.
        ///   - overallRate: `(count − 1) / span`, Hz.
        ///   - intervalOutliers: Intervals excluded from the estimate.
        ///   - jitterMilliseconds: IQR of the intervals, ms.
        ///   - minimumInterval: Shortest interval, s.
        ///   - maximumInterval: Longest interval, s.
        public init(
            nominalInterval: Double, medianRate: Double, meanRate: Double, overallRate: Double, intervalOutliers: Int,
            jitterMilliseconds: Double, minimumInterval: Double, maximumInterval: Double
        ) {
            self.nominalInterval = nominalInterval
            self.medianRate = medianRate
            self.meanRate = meanRate
            self.overallRate = overallRate
            self.intervalOutliers = intervalOutliers
            self.jitterMilliseconds = jitterMilliseconds
            self.minimumInterval = minimumInterval
            self.maximumInterval = maximumInterval
        }
    }

    /// A count for one named channel.
    public struct ChannelCount: Sendable, Hashable, Codable {
        /// The channel's name, such as `"x"` or `"gravity.z"`.
        public var channel: String
        /// How many values.
        public var count: Int

        /// Creates a count.
        ///
        /// - Parameters:
        ///   - channel: The channel's name.
        ///   - count: How many values.
        public init(channel: String, count: Int) {
            self.channel = channel
            self.count = count
        }
    }

    /// How the order of the samples was repaired when timestamps went backwards.
    public enum OrderRepair: String, Sendable, Hashable, Codable {
        /// Nothing went backwards: the samples were kept as they were.
        case none
        /// The rows were stably sorted by time: the timestamps were taken as right and the rows as out of place
        /// (true disorder, e.g. isolated or random backward steps).
        case sorted
        /// The rows were kept in file order and re-stamped evenly within each recorder batch, from the batches'
        /// own timestamps: the backward steps recur in a regular batch pattern that sorting would interleave (see
        /// ``TimeSeriesHygiene``).
        case resequenced
    }

    /// Samples received.
    public var inputCount: Int
    /// Samples in the cleaned series.
    public var outputCount: Int
    /// First timestamp of the cleaned series, s; nil when it is empty.
    public var startTime: Double?
    /// Last timestamp of the cleaned series, s; nil when it is empty.
    public var endTime: Double?
    /// `endTime − startTime`, s (0 for fewer than 2 samples).
    public var timeSpan: Double
    /// Measured rate and jitter; nil with fewer than 2 distinct finite timestamps.
    public var sampling: Sampling?

    /// Consecutive input rows whose timestamp goes backwards (`t[i] < t[i−1]`, rows with non-finite times skipped).
    public var backwardSteps: Int
    /// The first input rows (at most ``TimeSeriesHygieneOptions/exampleLimit``) whose time went backwards.
    public var backwardStepRows: [Int]
    /// Largest backward step, s (0 when none).
    public var largestBackwardStep: Double
    /// The repair used for backward timestamps: `none`, `sorted` or `resequenced`.
    public var orderRepair: OrderRepair
    /// Samples that moved to another position when sorting (0 unless ``orderRepair`` is `sorted`).
    public var samplesReordered: Int
    /// Samples given a new timestamp when re-sequencing (0 unless ``orderRepair`` is `resequenced`).
    public var samplesRestamped: Int
    /// Recorder batches found: runs of rising timestamps between backward steps (0 unless ``orderRepair`` is
    /// `resequenced`).
    public var stampingBatches: Int
    /// Median size of the batches between the first and the last, samples (0 unless ``orderRepair`` is
    /// `resequenced`).
    public var medianBatchSize: Int
    /// Rows dropped as exact duplicates: same timestamp **and** same value in every channel as the kept row
    /// (NaN counts as equal to NaN).
    public var duplicatesDropped: Int
    /// The first input rows dropped as exact duplicates.
    public var duplicateRows: [Int]
    /// Rows dropped as conflicting duplicates: same timestamp as an earlier row but a different value in some channel.
    ///
    /// The earliest row in input order is kept.
    public var conflictingDuplicates: Int
    /// The first input rows dropped as conflicting duplicates.
    public var conflictingDuplicateRows: [Int]
    /// Rows dropped because their timestamp is NaN or infinite (they cannot be placed in time).
    public var nonFiniteTimestamps: Int
    /// The first input rows dropped for a non-finite timestamp.
    public var nonFiniteTimestampRows: [Int]
    /// NaN or infinite channel values in the cleaned series (left in place).
    public var nonFiniteValues: Int
    /// ``nonFiniteValues`` per channel, only channels that have any, in channel order.
    public var nonFiniteValuesByChannel: [ChannelCount]

    /// The relative gap rule used: `Δt > gapFactor × nominalInterval` is a gap.
    public var gapFactor: Double
    /// The absolute gap rule used, s, if any.
    public var maximumInterval: Double?
    /// Every gap in the cleaned series, in time order (never bridged or filled).
    public var gaps: [TimestampGap]

    /// Unit detected from vector magnitudes, when the caller checked one (such as accelerometer |a|).
    public var units: UnitDetection?
    /// Every change made to the data, one human-readable sentence each; empty when the output equals the input.
    public var repairs: [String]
    /// Findings left unchanged that a reader should know about (gaps, non-finite values, doubtful units).
    public var warnings: [String]

    /// Creates a report; ``TimeSeriesHygiene`` fills one in for you.
    ///
    /// - Parameters:
    ///   - inputCount: Samples received.
    ///   - outputCount: Samples kept.
    ///   - startTime: First kept timestamp, s.
    ///   - endTime: Last kept timestamp, s.
    ///   - sampling: Measured rate and jitter.
    ///   - gapFactor: Relative gap rule used.
    ///   - maximumInterval: Absolute gap rule used, s.
    public init(
        inputCount: Int, outputCount: Int, startTime: Double?, endTime: Double?, sampling: Sampling?,
        gapFactor: Double, maximumInterval: Double? = nil
    ) {
        self.inputCount = inputCount
        self.outputCount = outputCount
        self.startTime = startTime
        self.endTime = endTime
        if let startTime, let endTime { timeSpan = endTime - startTime } else { timeSpan = 0 }
        self.sampling = sampling
        backwardSteps = 0
        backwardStepRows = []
        largestBackwardStep = 0
        orderRepair = .none
        samplesReordered = 0
        samplesRestamped = 0
        stampingBatches = 0
        medianBatchSize = 0
        duplicatesDropped = 0
        duplicateRows = []
        conflictingDuplicates = 0
        conflictingDuplicateRows = []
        nonFiniteTimestamps = 0
        nonFiniteTimestampRows = []
        nonFiniteValues = 0
        nonFiniteValuesByChannel = []
        self.gapFactor = gapFactor
        self.maximumInterval = maximumInterval
        gaps = []
        units = nil
        repairs = []
        warnings = []
    }

    /// Whether the cleaned series differs from the input (some repair was made).
    public var wasRepaired: Bool { !repairs.isEmpty }

    /// Total time spanned by gaps, s.
    public var totalGapDuration: Double { gaps.reduce(0) { $0 + $1.duration } }
}
