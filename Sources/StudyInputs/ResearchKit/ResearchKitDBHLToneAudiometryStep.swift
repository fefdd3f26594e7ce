extension ResearchKit {
    /// The configuration of a dB HL tone audiometry step (`ORKdBHLToneAudiometryStep`).
    ///
    /// Every parameter is nil when the key is absent; ResearchKit's defaults are given in brackets.
    public struct DBHLToneAudiometryStep: Sendable, Hashable, Codable {
        /// The active-step keys and the raw object.
        public var activeStep: ActiveStep
        /// Tone duration, s [1].
        public var toneDuration: Double?
        /// Upper bound of the random pre-stimulus delay, s [2].
        public var maxRandomPreStimulusDelay: Double?
        /// Response window after each tone, s [1].
        public var postStimulusDelay: Double?
        /// Maximum presentations per frequency [20].
        public var maxNumberOfTransitionsPerFrequency: Int?
        /// Starting level, dB HL [30].
        public var initialdBHLValue: Double?
        /// Level increase after a miss once the staircase has reversed, dB [5].
        public var dBHLStepUpSize: Double?
        /// Level increase after the first miss, dB [20].
        public var dBHLStepUpSizeFirstMiss: Double?
        /// Level increase after the second miss, dB [10].
        public var dBHLStepUpSizeSecondMiss: Double?
        /// Level increase after the third miss, dB [10].
        public var dBHLStepUpSizeThirdMiss: Double?
        /// Level decrease after a tap, dB [10].
        public var dBHLStepDownSize: Double?
        /// Lowest level presented, dB HL [−10].
        public var dBHLMinimumThreshold: Double?
        /// Headphone type string as configured, such as `AIRPODSPROV2`.
        public var headphoneType: String?
        /// `ORKAudiometryEarPreference` raw value (which ear(s) to test).
        public var earPreference: Int?
        /// Frequencies to test, Hz, in order [1000, 2000, 3000, 4000, 8000, 1000, 500, 250].
        public var frequencyList: [Double]?

        /// Creates a dB HL step configuration; parameters not given stay nil.
        public init(activeStep: ActiveStep) { self.activeStep = activeStep }

        /// The step identifier.
        public var identifier: String { activeStep.identifier }
    }
}
