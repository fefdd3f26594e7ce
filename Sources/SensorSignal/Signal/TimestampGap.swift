/// A stretch of a recording with no samples, longer than the gap rule allows (see ``ResamplingOptions``).
///
/// Times are the input timestamps bounding the gap, in seconds, in the recording's own time base.
/// ``UniformResampling`` never interpolates across a gap: the samples before and after it land in
/// different ``UniformSegment``s.
public struct TimestampGap: Sendable, Hashable, Codable {
    /// Timestamp (s) of the last sample before the gap.
    public let start: Double
    /// Timestamp (s) of the first sample after the gap.
    public let end: Double
    /// Position of the sample after the gap among the sorted, de-duplicated samples (0-based).
    public let sampleIndex: Int

    /// Creates a gap record.
    ///
    /// - Parameters:
    ///   - start: Timestamp (s) of the last sample before the gap.
    ///   - end: Timestamp (s) of the first sample after it.
    ///   - sampleIndex: Position of the sample after the gap in the cleaned input.
    public init(start: Double, end: Double, sampleIndex: Int) {
        self.start = start
        self.end = end
        self.sampleIndex = sampleIndex
    }

    /// Length of the gap in seconds: `end − start`.
    public var duration: Double { end - start }
}
