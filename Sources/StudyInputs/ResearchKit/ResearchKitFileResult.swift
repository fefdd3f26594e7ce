extension ResearchKit {
    /// A recorder output file of a step (`ORKFileResult`).
    ///
    /// JSON carries the file name only, not its directory.
    public struct FileResult: Sendable, Hashable, Codable {
        /// Class, recorder configuration identifier (such as `accelerometer`), recorder start and stop, user info.
        public var header: ResultHeader
        /// MIME type, such as `application/json`, `audio/m4a`; nil when absent (the streaming audio recorder).
        public var contentType: String?
        /// Last path component of the file, such as `accel_5A1C…-20240502101138.json`; nil when absent.
        public var fileName: String?
        /// The recorder's sampling frequency, Hz, from `userInfo.frequency` (accelerometer recorders); nil when
        /// absent or not a positive number.
        public var recorderFrequency: Double?

        /// Creates a file result.
        public init(
            header: ResultHeader, contentType: String? = nil, fileName: String? = nil, recorderFrequency: Double? = nil
        ) {
            self.header = header
            self.contentType = contentType
            self.fileName = fileName
            self.recorderFrequency = recorderFrequency
        }

        /// The recorder configuration identifier (`accelerometer`, `deviceMotion`, `pedometer`, …).
        public var identifier: String { header.identifier }
    }
}
