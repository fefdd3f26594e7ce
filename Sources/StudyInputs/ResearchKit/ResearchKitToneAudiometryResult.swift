extension ResearchKit {
    /// The result of the legacy (pre-dB HL) tone audiometry step (`ORKToneAudiometryResult`).
    public struct ToneAudiometryResult: Sendable, Hashable, Codable {
        /// Class, step identifier (such as `tone.audiometry`), start/end of the step, user info.
        public var header: ResultHeader
        /// `AVAudioSession.outputVolume`, 0…1; nil when absent or outside 0…1 (ResearchKit declares it
        /// nullable and its own sample file carries 123; a warning says so).
        public var outputVolume: Double?
        /// One sample per presentation (frequency Hz, channel, button pressed, linear amplitude 0…1).
        public var samples: [ToneAudiometrySample]

        /// Creates a legacy audiometry result.
        public init(header: ResultHeader, outputVolume: Double? = nil, samples: [ToneAudiometrySample] = []) {
            self.header = header
            self.outputVolume = outputVolume
            self.samples = samples
        }

        /// The step identifier.
        public var identifier: String { header.identifier }
    }
}
