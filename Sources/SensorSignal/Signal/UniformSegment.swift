/// One contiguous run of uniformly resampled data between gaps (part of ``UniformResampling``).
///
/// Sample `i` lies at time `origin + (gridOffset + i) / rate` seconds: all segments of a recording share one
/// grid anchored at its first timestamp, so segments can be placed on a common time axis without rounding.
public struct UniformSegment: Sendable, Hashable {
    /// Time (s) of grid index 0: the earliest input timestamp of the recording.
    public let origin: Double
    /// Output sampling rate (Hz).
    public let rate: Double
    /// Grid index of this segment's first output sample.
    public let gridOffset: Int
    /// Resampled values, one array per input channel, each ``count`` samples long.
    public let channels: [[Double]]
    /// Number of output samples in this segment (may be 0 for a very short run of input).
    public let count: Int
    /// Timestamp (s) of the first input sample of the run.
    public let firstInputTime: Double
    /// Timestamp (s) of the last input sample of the run.
    public let lastInputTime: Double
    /// Range of the run's samples among the sorted, de-duplicated input (0-based positions).
    public let inputRange: Range<Int>

    /// Time (s) of output sample `index`: `origin + (gridOffset + index) / rate`.
    ///
    /// - Parameter index: Sample index within this segment.
    /// - Returns: The sample's time in the input's time base (s).
    public func time(at index: Int) -> Double {
        origin + Double(gridOffset + index) / rate
    }

    /// Time (s) of the first output sample (meaningful only when ``count`` > 0).
    public var startTime: Double { time(at: 0) }

    /// The output sample times (s); allocates one array of ``count`` values.
    public var times: [Double] { (0..<count).map(time(at:)) }
}
