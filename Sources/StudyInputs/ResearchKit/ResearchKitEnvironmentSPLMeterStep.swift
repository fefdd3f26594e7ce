extension ResearchKit {
    /// The configuration of an environment sound-level step (`ORKEnvironmentSPLMeterStep`).
    public struct EnvironmentSPLMeterStep: Sendable, Hashable, Codable {
        /// The active-step keys and the raw object.
        public var activeStep: ActiveStep
        /// Pass threshold, dB(A) SPL; nil when absent.
        public var thresholdValue: Double?
        /// Averaging window between samples, s; nil when absent.
        public var samplingInterval: Double?
        /// Consecutive samples below the threshold needed to pass; nil when absent.
        public var requiredContiguousSamples: Int?

        /// Creates an SPL meter step configuration.
        public init(
            activeStep: ActiveStep, thresholdValue: Double? = nil, samplingInterval: Double? = nil,
            requiredContiguousSamples: Int? = nil
        ) {
            self.activeStep = activeStep
            self.thresholdValue = thresholdValue
            self.samplingInterval = samplingInterval
            self.requiredContiguousSamples = requiredContiguousSamples
        }

        /// The step identifier.
        public var identifier: String { activeStep.identifier }
    }
}
