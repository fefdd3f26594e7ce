import Foundation
import StudyInputs

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
    /// The mhealthtools function reproduced (``Function``): `"get_tremor_features"` for tremor steps,
    /// `"get_balance_features"` for balance and rest steps (the two compute the same features with their defaults);
    /// `"get_kinetic_tremor_features"` and `"get_walk_features"` for the `IMF = 2` sets.
    public var function: String
    /// mhealthtools' `IMF`: 1 (features of the whole series) or 2 (features of 256-sample windows of each of the
    /// first two intrinsic mode functions of an empirical mode decomposition).
    public var imfs: Int = 1
    /// The recorder file the features come from, when known.
    public var source: String?
    /// The sampling rate the features use, Hz: n / (tₙ − t₁) (mhealthtools' `get_sampling_rate`).
    public var samplingRate: Double
    /// One row per sensor and axis (accelerometer x, y, z, then gyroscope x, y, z); with `IMF = 2`, one per sensor,
    /// axis, IMF and window, in that order.
    public var rows: [Row]

    /// The mhealthtools feature functions taskproc reproduces, each with its defaults.
    public enum Function: String, Sendable, CaseIterable {
        /// `get_tremor_features()`: IMF = 1.
        case tremor = "get_tremor_features"
        /// `get_balance_features()`: IMF = 1 (the same features as ``tremor``).
        case balance = "get_balance_features"
        /// `get_kinetic_tremor_features()`: IMF = 2.
        case kineticTremor = "get_kinetic_tremor_features"
        /// `get_walk_features()`: IMF = 2 (the same features as ``kineticTremor``).
        case walk = "get_walk_features"

        /// mhealthtools' default `IMF` for the function.
        public var imfs: Int {
            switch self {
            case .tremor, .balance: 1
            case .kineticTremor, .walk: 2
            }
        }

        /// ``tremor`` for a tremor step, ``balance`` for balance and rest.
        public init(_ task: MotionTask) { self = task == .tremor ? .tremor : .balance }
    }

    /// The features of one sensor axis.
    public struct Row: Sendable, Hashable, Codable {
        /// `"accelerometer"` or `"gyroscope"`.
        public var sensor: String
        /// mhealthtools' `measurementType`: `"acceleration"` (g) for the accelerometer, `"velocity"` (rad/s,
        /// angular) for the gyroscope.
        public var measurementType: String
        /// `"x"`, `"y"` or `"z"` (device axes).
        public var axis: String
        /// The intrinsic mode function (1 = fastest) with `IMF = 2`; nil (absent in JSON) with `IMF = 1`.
        public var imf: Int?
        /// The window number (1 = samples 1–256, 2 = 129–384, …) with `IMF = 2`; nil with `IMF = 1`.
        public var window: Int?
        /// The values in ``KinematicFeatures/names`` order; NaN where mhealthtools gives `NA`.
        public var values: [Double]

        /// The value of feature `name` (a ``KinematicFeatures/names`` entry), nil for an unknown name.
        public func value(_ name: String) -> Double? {
            KinematicFeatures.index[name].map { values[$0] }
        }

        enum CodingKeys: String, CodingKey { case sensor, measurementType, axis, imf, window, features }

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
            try c.encodeIfPresent(imf, forKey: .imf)
            try c.encodeIfPresent(window, forKey: .window)
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
            imf = try c.decodeIfPresent(Int.self, forKey: .imf)
            window = try c.decodeIfPresent(Int.self, forKey: .window)
            let f = try c.nestedContainer(keyedBy: FeatureKey.self, forKey: .features)
            values = try KinematicFeatures.names.map {
                try f.decodeIfPresent(Double.self, forKey: FeatureKey(stringValue: $0)) ?? .nan
            }
        }

        /// Creates a row.
        public init(
            sensor: String, measurementType: String, axis: String, imf: Int? = nil, window: Int? = nil,
            values: [Double]
        ) {
            self.sensor = sensor
            self.measurementType = measurementType
            self.axis = axis
            self.imf = imf
            self.window = window
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
    ///   - function: The mhealthtools function reproduced (it sets `IMF`).
    ///   - source: The file.
    /// - Returns: The features; nil with fewer than 2 samples or a zero time span.
    public static func deviceMotion(_ log: DeviceMotionLog, function: Function, source: String?) -> MotionFeatures? {
        let a = log.userAcceleration, r = log.rotationRate
        return make(
            timestamps: log.timestamp,
            series: [
                ("accelerometer", "acceleration", "x", a.x), ("accelerometer", "acceleration", "y", a.y),
                ("accelerometer", "acceleration", "z", a.z), ("gyroscope", "velocity", "x", r.x),
                ("gyroscope", "velocity", "y", r.y), ("gyroscope", "velocity", "z", r.z),
            ], function: function, source: source)
    }

    /// The accelerometer features of an accelerometer log (raw acceleration in g, gravity included).
    ///
    /// - Parameters:
    ///   - timestamps: Cleaned timestamps, s.
    ///   - x: x acceleration, g.
    ///   - y: y acceleration, g.
    ///   - z: z acceleration, g.
    ///   - function: The mhealthtools function reproduced (it sets `IMF`).
    ///   - source: The file.
    /// - Returns: The features; nil with fewer than 2 samples or a zero time span.
    public static func accelerometer(
        timestamps: [Double], x: [Double], y: [Double], z: [Double], function: Function, source: String?
    ) -> MotionFeatures? {
        make(
            timestamps: timestamps,
            series: [
                ("accelerometer", "acceleration", "x", x), ("accelerometer", "acceleration", "y", y),
                ("accelerometer", "acceleration", "z", z),
            ], function: function, source: source)
    }

    /// Rows for each (sensor, measurementType, axis, samples) series.
    static func make(
        timestamps: [Double], series: [(String, String, String, [Double])], function: Function, source: String?
    ) -> MotionFeatures? {
        guard let fs = KinematicFeatures.samplingRate(timestamps) else { return nil }
        var rows: [Row] = []
        for (sensor, type, axis, v) in series {
            if function.imfs == 1 {
                rows.append(
                    Row(
                        sensor: sensor, measurementType: type, axis: axis,
                        values: KinematicFeatures.features(v, samplingRate: fs)))
            } else if let windows = KinematicFeatures.imfFeatures(
                v, times: timestamps, samplingRate: fs, imfs: function.imfs)
            {
                for w in windows.rows {
                    rows.append(
                        Row(sensor: sensor, measurementType: type, axis: axis, imf: w.imf, window: w.window, values: w.values))
                }
            }
        }
        return MotionFeatures(
            function: function.rawValue, imfs: function.imfs, source: source, samplingRate: fs, rows: rows)
    }

    /// The CSV cells of ``csvColumns`` (empty for a row the features lack, or for NaN).
    public var csvCells: [String] {
        Self.csvPrefixes.flatMap { prefix -> [String] in
            guard imfs == 1, let row = rows.first(where: { "\($0.sensor).\($0.axis)" == prefix }) else {
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
