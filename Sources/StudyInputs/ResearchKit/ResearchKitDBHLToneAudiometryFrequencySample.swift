extension ResearchKit {
    /// The staircase run at one frequency in one ear (`ORKdBHLToneAudiometryFrequencySample`).
    public struct DBHLToneAudiometryFrequencySample: Sendable, Hashable, Codable {
        /// Tone frequency, Hz.
        public var frequency: Double
        /// Hearing threshold, dB HL; nil when ResearchKit found none (it writes the `DBL_MAX` sentinel
        /// 1.7976931348623157e308, never a usable number).
        public var calculatedThreshold: Double?
        /// The ear tested.
        public var channel: AudioChannel
        /// One unit per tone presentation, in presentation order.
        public var units: [DBHLToneAudiometryUnit]

        /// Creates a frequency sample.
        public init(
            frequency: Double, calculatedThreshold: Double?, channel: AudioChannel, units: [DBHLToneAudiometryUnit] = []
        ) {
            self.frequency = frequency
            self.calculatedThreshold = calculatedThreshold
            self.channel = channel
            self.units = units
        }
    }
}
