extension ResearchKit {
    /// The configuration of a walking leg (`ORKWalkingTaskStep`, `walking.outbound`, `walking.return`, …).
    public struct WalkingTaskStep: Sendable, Hashable, Codable {
        /// The active-step keys and the raw object.
        public var activeStep: ActiveStep
        /// Pedometer step count that ends the leg (the timer fallback is `numberOfStepsPerLeg × 1.5 s`); nil when
        /// absent.
        public var numberOfStepsPerLeg: Int?

        /// Creates a walking step configuration.
        public init(activeStep: ActiveStep, numberOfStepsPerLeg: Int? = nil) {
            self.activeStep = activeStep
            self.numberOfStepsPerLeg = numberOfStepsPerLeg
        }

        /// The step identifier.
        public var identifier: String { activeStep.identifier }
    }
}
