/// Everything ``UniformResampling`` found in and did to a recording, so no change to the data is silent.
///
/// Counts refer to samples (rows: one timestamp and one value per channel). Rates are in Hz, intervals
/// and durations in seconds. Suitable for a per-record quality column (`Codable`).
public struct ResamplingReport: Sendable, Hashable, Codable {
    /// Number of input samples (timestamps) received.
    public let inputCount: Int
    /// Number of places where a timestamp is smaller than the one before it, in input order.
    ///
    /// When non-zero the samples were stably sorted by time before anything else.
    public let backwardSteps: Int
    /// Number of samples dropped because their timestamp exactly equals an earlier one (after sorting; the
    /// first in input order is kept).
    public let duplicatesDropped: Int
    /// How many of the dropped duplicates carried different values from the kept sample in at least one channel.
    public let conflictingDuplicates: Int
    /// Number of NaN or infinite channel values among the kept samples.
    ///
    /// They are left in place and spread to the output samples interpolated from them.
    public let nonFiniteValues: Int
    /// Nominal sampling interval (s): the median of the positive intervals that lie within
    /// `[m / outlierFactor, m × outlierFactor]` of the overall median `m`.
    public let nominalInterval: Double
    /// The measured median rate (Hz): `1 / nominalInterval`.
    public let medianRate: Double
    /// The measured mean rate (Hz) over the inlier intervals, `inliers / Σ inlier intervals`.
    ///
    /// More faithful than ``medianRate`` when timestamps are quantised (e.g. whole milliseconds at 80 Hz).
    public let meanRate: Double
    /// Number of intervals excluded from the rate estimate as outliers (including gaps).
    public let intervalOutliers: Int
    /// Every gap found, in time order; none was bridged by interpolation.
    public let gaps: [TimestampGap]
    /// The requested output rate (Hz).
    public let outputRate: Double
    /// Number of output samples per channel, summed over segments.
    public let outputCount: Int
    /// Number of contiguous segments (gaps + 1), including segments too short to hold a grid point.
    public let segmentCount: Int
    /// Number of segments whose time span contains no grid point, so they produced no output.
    ///
    /// An isolated sample between two gaps is the typical case. Their input is not represented in the output.
    public let emptySegments: Int

    /// Whether the input had to be re-ordered by time.
    public var wasReordered: Bool { backwardSteps > 0 }

    /// Total time (s) spanned by gaps.
    public var totalGapDuration: Double { gaps.reduce(0) { $0 + $1.duration } }
}
