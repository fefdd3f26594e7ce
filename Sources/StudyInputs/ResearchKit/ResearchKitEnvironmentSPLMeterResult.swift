extension ResearchKit {
    /// The result of an environment sound-level step (`ORKEnvironmentSPLMeterResult`).
    ///
    /// The pass threshold and sampling interval live on the step (``EnvironmentSPLMeterStep``), not here.
    public struct EnvironmentSPLMeterResult: Sendable, Hashable, Codable {
        /// Class, step identifier, start/end of the step, user info.
        public var header: ResultHeader
        /// Microphone calibration offset used, dB.
        public var sensitivityOffset: Double
        /// A-weighted sound pressure level per averaging window, dB(A) SPL, in recorded order.
        public var recordedSPLMeterSamples: [Double]

        /// Creates an SPL meter result.
        public init(header: ResultHeader, sensitivityOffset: Double, recordedSPLMeterSamples: [Double] = []) {
            self.header = header
            self.sensitivityOffset = sensitivityOffset
            self.recordedSPLMeterSamples = recordedSPLMeterSamples
        }

        /// The step identifier.
        public var identifier: String { header.identifier }
    }
}
