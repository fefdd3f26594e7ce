import Foundation

/// mhealthtools' tremor or balance features of one recording: one row per sensor and axis, each with the
/// ``KinematicFeatures`` of that axis.
///
/// As mhealthtools' mPower analyses use them, the accelerometer series is CoreMotion's `userAcceleration` (g,
/// gravity removed) and the gyroscope series its `rotationRate` (rad/s), both from the device-motion log. A step
/// recorded with an accelerometer log only gets accelerometer rows from the raw acceleration (g, gravity included),
/// with a warning in the result. The features are computed on the log after timestamp hygiene, which is what
/// mhealthtools reads when the recording has no timestamp faults.
public struct MotionFeatures: Sendable, Hashable, Codable {
    /// Always `"mhealthtools"`: the published feature set reproduced.
    public var featureSet: String = "mhealthtools"
    /// The mhealthtools function reproduced: `"get_tremor_features"` for tremor steps, `"get_balance_features"`
    /// for balance and rest steps (the two compute the same features with their defaults).
    public var function: String
    /// The recorder file the features come from, when known.
    public var source: String?
    /// The sampling rate the features use, Hz: n / (tₙ − t₁) (mhealthtools' `get_sampling_rate`).
    public var samplingRate: Double
    /// One row per sensor and axis: accelerometer x, y, z, then gyroscope x, y, z.
    public var rows: [Row]

    /// The features of one sensor axis.
    public struct Row: Sendable, Hashable, Codable {
        /// `"accelerometer"` or `"gyroscope"`.
        public var sensor: String
        /// mhealthtools' `measurementType`: `"acceleration"` (g) for the accelerometer, `"velocity"` (rad/s,
        /// angular) for the gyroscope.
        public var measurementType: String
        /// `"x"`, `"y"` or `"z"` (device axes).
        public var axis: String
        /// The values in ``KinematicFeatures/names`` order; NaN where mhealthtools gives `NA`.
        public var values: [Double]

        /// The value of feature `name` (a ``KinematicFeatures/names`` entry), nil for an unknown name.
        public func value(_ name: String) -> Double? {
            KinematicFeatures.index[name].map { values[$0] }
        }

        enum CodingKeys: String, CodingKey { case sensor, measurementType, axis, features }

        struct FeatureKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// Encodes `features` as an object of every feature name, `null` for NaN.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(sensor, forKey: .sensor)
            try c.encode(measurementType, forKey: .measurementType)
            try c.encode(axis, forKey: .axis)
            var f = c.nestedContainer(keyedBy: FeatureKey.self, forKey: .features)
            for (name, value) in zip(KinematicFeatures.names, values) {
                let key = FeatureKey(stringValue: name)
                if value.isFinite { try f.encode(value, forKey: key) } else { try f.encodeNil(forKey: key) }
            }
        }

        /// Decodes what ``encode(to:)`` writes (missing or `null` features are NaN).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            sensor = try c.decode(String.self, forKey: .sensor)
            measurementType = try c.decode(String.self, forKey: .measurementType)
            axis = try c.decode(String.self, forKey: .axis)
            let f = try c.nestedContainer(keyedBy: FeatureKey.self, forKey: .features)
            values = try KinematicFeatures.names.map {
                try f.decodeIfPresent(Double.self, forKey: FeatureKey(stringValue: $0)) ?? .nan
            }
        }

        /// Creates a row.
        public init(sensor: String, measurementType: String, axis: String, values: [Double]) {
            self.sensor = sensor
            self.measurementType = measurementType
            self.axis = axis
            self.values = values
        }
    }

    /// The sensor/axis prefixes of the CSV columns, in row order: `accelerometer.x` … `gyroscope.z`.
    public static let csvPrefixes: [String] = ["accelerometer", "gyroscope"].flatMap { sensor in
        ["x", "y", "z"].map { "\(sensor).\($0)" }
    }

    /// The CSV columns every motion-signal row carries: `<sensor>.<axis>.<feature>` for every prefix and feature.
    public static let csvColumns: [String] = csvPrefixes.flatMap { prefix in
        KinematicFeatures.names.map { "\(prefix).\($0)" }
    }

    /// The features of a device-motion log: accelerometer rows from `userAcceleration`, gyroscope rows from
    /// `rotationRate`.
    ///
    /// - Parameters:
    ///   - log: The cleaned device-motion log.
    ///   - task: The recording's task (names the mhealthtools function).
    ///   - source: The file.
    /// - Returns: The features; nil with fewer than 2 samples or a zero time span.
    public static func deviceMotion(_ log: DeviceMotionLog, task: MotionTask, source: String?) -> MotionFeatures? {
        guard let fs = KinematicFeatures.samplingRate(log.timestamp) else { return nil }
        let a = log.userAcceleration, r = log.rotationRate
        let rows =
            [("x", a.x), ("y", a.y), ("z", a.z)].map { axis, v in
                Row(
                    sensor: "accelerometer", measurementType: "acceleration", axis: axis,
                    values: KinematicFeatures.features(v, samplingRate: fs))
            }
            + [("x", r.x), ("y", r.y), ("z", r.z)].map { axis, v in
                Row(
                    sensor: "gyroscope", measurementType: "velocity", axis: axis,
                    values: KinematicFeatures.features(v, samplingRate: fs))
            }
        return MotionFeatures(function: function(task), source: source, samplingRate: fs, rows: rows)
    }

    /// The accelerometer features of an accelerometer log (raw acceleration in g, gravity included).
    ///
    /// - Parameters:
    ///   - timestamps: Cleaned timestamps, s.
    ///   - x: x acceleration, g.
    ///   - y: y acceleration, g.
    ///   - z: z acceleration, g.
    ///   - task: The recording's task.
    ///   - source: The file.
    /// - Returns: The features; nil with fewer than 2 samples or a zero time span.
    public static func accelerometer(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], task: MotionTask, source: String?
    ) -> MotionFeatures? {
        guard let fs = KinematicFeatures.samplingRate(timestamps) else { return nil }
        let rows = [("x", x), ("y", y), ("z", z)].map { axis, v in
            Row(
                sensor: "accelerometer", measurementType: "acceleration", axis: axis,
                values: KinematicFeatures.features(v, samplingRate: fs))
        }
        return MotionFeatures(function: function(task), source: source, samplingRate: fs, rows: rows)
    }

    static func function(_ task: MotionTask) -> String {
        task == .tremor ? "get_tremor_features" : "get_balance_features"
    }

    /// The CSV cells of ``csvColumns`` (empty for a row the features lack, or for NaN).
    public var csvCells: [String] {
        Self.csvPrefixes.flatMap { prefix -> [String] in
            guard let row = rows.first(where: { "\($0.sensor).\($0.axis)" == prefix }) else {
                return [String](repeating: "", count: KinematicFeatures.names.count)
            }
            return row.values.map { $0.isFinite ? ResultEncoding.exact($0) : "" }
        }
    }
}

extension KinematicFeatures {
    /// Position of each name in ``names``.
    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
}
