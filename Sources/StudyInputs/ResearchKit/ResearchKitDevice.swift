extension ResearchKit {
    /// The device a task ran on (`ORKDevice`, ResearchKit ≥ 2.0).
    ///
    /// Strings are kept as written; placeholder output has empty strings.
    public struct Device: Sendable, Hashable, Codable {
        /// Hardware model from sysctl `hw.product`, such as `iPhone15,2`; nil on the simulator.
        public var product: String?
        /// Operating-system version, `major.minor.patch`, such as `17.4.1`.
        public var osVersion: String?
        /// Operating-system build from sysctl `kern.osversion`, such as `21E236`.
        public var osBuild: String?
        /// `UIDevice.systemName`, such as `iOS`.
        public var platform: String?

        /// Creates a device description.
        public init(product: String? = nil, osVersion: String? = nil, osBuild: String? = nil, platform: String? = nil) {
            self.product = product
            self.osVersion = osVersion
            self.osBuild = osBuild
            self.platform = platform
        }
    }
}
