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

extension TimestampGap {
    private enum CodingKeys: String, CodingKey {
        case start, end, duration, sampleIndex
    }

    /// Decodes `start`, `end` and `sampleIndex`; a `duration` key, if present, is ignored (it is derived).
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a field is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decode(Double.self, forKey: .start),
            end: try container.decode(Double.self, forKey: .end),
            sampleIndex: try container.decode(Int.self, forKey: .sampleIndex))
    }

    /// Encodes `start`, `end`, `duration` (s, derived, for readers of the JSON) and `sampleIndex`.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws (e.g. for non-finite times with a strict JSON encoder).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(duration, forKey: .duration)
        try container.encode(sampleIndex, forKey: .sampleIndex)
    }
}
