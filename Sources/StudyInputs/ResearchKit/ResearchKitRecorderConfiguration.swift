extension ResearchKit {
    /// A recorder configuration attached to an active step (any `ORK…RecorderConfiguration` class).
    ///
    /// Covers `ORKAccelerometerRecorderConfiguration`, `ORKDeviceMotionRecorderConfiguration`,
    /// `ORKPedometerRecorderConfiguration`, `ORKAudioRecorderConfiguration`, … and `ORKAudioStreamerConfiguration`.
    /// Its ``identifier`` is the one the step's ``FileResult``s carry.
    public struct RecorderConfiguration: Sendable, Hashable, Codable {
        /// The Objective-C class name, such as `ORKAccelerometerRecorderConfiguration`.
        public var className: String
        /// The configuration identifier, such as `accelerometer`.
        public var identifier: String
        /// Requested sampling frequency, Hz (accelerometer and device-motion configurations); nil otherwise.
        public var frequency: Double?
        /// Output directory URL string; nil when absent.
        public var outputDirectory: String?
        /// Log rollover size, bytes (0 = never roll over); nil when absent.
        public var rollingFileSizeThreshold: Double?
        /// `AVAudioRecorder` settings dictionary (audio configurations); nil otherwise.
        public var recorderSettings: JSONObject?
        /// The whole JSON object as written, keys in document order.
        public var raw: JSONObject

        /// Creates a recorder configuration.
        public init(
            className: String, identifier: String, frequency: Double? = nil, outputDirectory: String? = nil,
            rollingFileSizeThreshold: Double? = nil, recorderSettings: JSONObject? = nil,
            raw: JSONObject = JSONObject([])
        ) {
            self.className = className
            self.identifier = identifier
            self.frequency = frequency
            self.outputDirectory = outputDirectory
            self.rollingFileSizeThreshold = rollingFileSizeThreshold
            self.recorderSettings = recorderSettings
            self.raw = raw
        }
    }
}
