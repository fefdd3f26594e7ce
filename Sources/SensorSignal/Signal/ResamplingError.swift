/// Why irregular samples could not be put on a uniform grid by ``UniformResampling``.
///
/// Every case names the counts involved, so a batch error column is self-explanatory.
public enum ResamplingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer than 2 input samples were given; interpolation needs at least 2.
    case tooFewSamples(count: Int)
    /// After dropping exact duplicate timestamps fewer than 2 distinct times remain.
    case tooFewDistinctTimestamps(distinct: Int, inputCount: Int)
    /// The timestamp at `index` (input order) is NaN or infinite; `count` timestamps in total are non-finite.
    case nonFiniteTimestamp(index: Int, count: Int)
    /// Channel number `channel` holds `count` values but there are `timestampCount` timestamps.
    case channelLengthMismatch(channel: Int, count: Int, timestampCount: Int)
    /// The requested output rate (Hz) is not a finite positive number.
    case invalidRate(hertz: Double)
    /// A ``ResamplingOptions`` field is out of range; `reason` says which and why.
    case invalidOptions(reason: String)
    /// The timestamps span so long a time that the grid at this rate would hold `points` points (infinity when its
    /// indices would not even be exact integers), over `limit` (see ``UniformResampling/gridPointsPerSample``).
    case gridTooLarge(points: Double, limit: Int)

    /// A one-line, human-readable explanation naming the counts.
    public var description: String {
        switch self {
        case .tooFewSamples(let n):
            "cannot resample \(n) sample\(n == 1 ? "" : "s"): at least 2 are needed"
        case .tooFewDistinctTimestamps(let distinct, let input):
            "only \(distinct) distinct timestamp\(distinct == 1 ? "" : "s") among \(input) samples: at least 2 are needed"
        case .nonFiniteTimestamp(let index, let count):
            "timestamp \(index) is not finite (\(count) non-finite timestamp\(count == 1 ? "" : "s") in total)"
        case .channelLengthMismatch(let channel, let count, let timestamps):
            "channel \(channel) has \(count) values but there are \(timestamps) timestamps"
        case .invalidRate(let hertz):
            "invalid output rate \(hertz) Hz: must be finite and positive"
        case .invalidOptions(let reason):
            "invalid resampling options: \(reason)"
        case .gridTooLarge(let points, let limit):
            "the timestamps span too long a time for the rate: the grid would hold "
                + (points.isFinite ? "\(points) points" : "more points than can be counted") + " (max \(limit))"
        }
    }
}
