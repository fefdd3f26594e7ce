extension ResearchKit {
    /// The configuration keys every active step shares (`ORKActiveStep`), plus the whole object as written.
    ///
    /// Appears on its own for a plain `ORKActiveStep` and inside the task-specific step types
    /// (``TappingIntervalStep``, ``DBHLToneAudiometryStep``, …). UI keys (`title`, `text`, images, sounds, …)
    /// are not modelled; read them from ``raw``.
    public struct ActiveStep: Sendable, Hashable, Codable {
        /// The Objective-C class name, such as `ORKTappingIntervalStep`.
        public var className: String
        /// The step identifier; results of this step carry it.
        public var identifier: String
        /// Planned step duration, s; nil when absent or unlimited (the `CGFLOAT_MAX` sentinel).
        ///
        /// 0 means the step has no timer.
        public var stepDuration: Double?
        /// The recorders the step runs, in order.
        public var recorderConfigurations: [RecorderConfiguration]
        /// The whole JSON object as written, keys in document order.
        public var raw: JSONObject

        /// Creates an active-step configuration.
        public init(
            className: String, identifier: String, stepDuration: Double? = nil,
            recorderConfigurations: [RecorderConfiguration] = [], raw: JSONObject = JSONObject([])
        ) {
            self.className = className
            self.identifier = identifier
            self.stepDuration = stepDuration
            self.recorderConfigurations = recorderConfigurations
            self.raw = raw
        }
    }
}
