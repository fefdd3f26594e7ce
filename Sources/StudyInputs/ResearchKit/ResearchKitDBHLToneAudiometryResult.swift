extension ResearchKit {
    /// The result of a dB HL tone audiometry step (`ORKdBHLToneAudiometryResult`, ResearchKit ≥ 2.0).
    public struct DBHLToneAudiometryResult: Sendable, Hashable, Codable {
        /// Class, step identifier (such as `dBHL1.tone.audiometry`), start/end of the step, user info.
        public var header: ResultHeader
        /// `AVAudioSession.outputVolume` when the result was built (end of step), 0…1.
        public var outputVolume: Double
        /// Duration of each tone (the step's `toneDuration`), s.
        public var tonePlaybackDuration: Double
        /// Response window after each tone (the step's `postStimulusDelay`), s.
        public var postStimulusDelay: Double
        /// The headphone type string as configured (not normalised), such as `AIRPODSPROV2`; nil when absent.
        public var headphoneType: String?
        /// One sample per frequency tested, in test order (the default list tests 1000 Hz twice).
        public var samples: [DBHLToneAudiometryFrequencySample]

        /// Creates a dB HL audiometry result.
        public init(
            header: ResultHeader, outputVolume: Double, tonePlaybackDuration: Double, postStimulusDelay: Double,
            headphoneType: String? = nil, samples: [DBHLToneAudiometryFrequencySample] = []
        ) {
            self.header = header
            self.outputVolume = outputVolume
            self.tonePlaybackDuration = tonePlaybackDuration
            self.postStimulusDelay = postStimulusDelay
            self.headphoneType = headphoneType
            self.samples = samples
        }

        /// The step identifier.
        public var identifier: String { header.identifier }
    }
}
