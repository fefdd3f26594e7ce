// Deterministic ResearchKit recorder logs for the JSON-decoding benchmarks: the Swift twin of
// Tools/peers/make_recorder_logs.py. Both perform the same arithmetic in the same order with the same
// libm sin/cos and print every number with the shortest round-tripping digits (Swift's
// `Double.description` and Python's `repr` agree), so they write byte-identical files; compare.py
// checks that on every run (`CompareHarness recorder-generate`).
//
// Three 100 Hz walking recordings, 60 000 items (10 minutes) by default, compact JSON as
// ORKDataLogger writes it:
//   accel_walking_60k.json               {"items":[{"x","y","z","timestamp","timestampSince1970"}, …]}
//   deviceMotion_walking_60k.json        {"items":[{"attitude":{x,y,z,w},"timestamp","rotationRate",
//                                        "userAcceleration","timestampSince1970","gravity",
//                                        "magneticField":{x,y,z,accuracy}}, …]}
//   accel_walking_60k_mpower.json.items  a bare array of {"timestamp","x","y","z"} (mPower)
import Foundation

/// Generates the recorder logs (see the file comment).
public enum RecorderLogFixtures {
    /// Items per log unless told otherwise: 10 minutes at 100 Hz.
    public static let defaultItems = 60_000

    /// The three logs.
    public enum Layout: String, Sendable, CaseIterable {
        /// `ORKAccelerometerRecorder` in `{"items":[…]}`: 5 values per item.
        case accelerometer
        /// `ORKDeviceMotionRecorder` in `{"items":[…]}`: 19 values per item.
        case deviceMotion
        /// The accelerometer as an mPower bare array without `timestampSince1970`: 4 values per item.
        case accelerometerMPower

        /// Numbers per item that taskproc's columnar decoder keeps (8 bytes each).
        public var valuesPerItem: Int {
            switch self {
            case .accelerometer: 5
            case .deviceMotion: 19
            case .accelerometerMPower: 4
            }
        }

        /// The file name for a log of `items` items.
        public func fileName(items: Int = RecorderLogFixtures.defaultItems) -> String {
            let tag = items % 1000 == 0 ? "\(items / 1000)k" : "\(items)"
            switch self {
            case .accelerometer: return "accel_walking_\(tag).json"
            case .deviceMotion: return "deviceMotion_walking_\(tag).json"
            case .accelerometerMPower: return "accel_walking_\(tag)_mpower.json.items"
            }
        }

        fileprivate var seed: UInt64 {
            switch self {
            case .accelerometer: 0x7A5C_9000_0000_0001
            case .deviceMotion: 0x7A5C_9000_0000_0002
            case .accelerometerMPower: 0x7A5C_9000_0000_0003
            }
        }
    }

    /// The bytes of one log.
    public static func bytes(_ layout: Layout, items: Int = defaultItems) -> [UInt8] {
        var out = JSONText(capacity: items * (layout == .deviceMotion ? 560 : 150))
        switch layout {
        case .accelerometer:
            out.append("{\"items\":[")
            accelerometerItems(items, seed: layout.seed, mpower: false, into: &out)
            out.append("]}")
        case .accelerometerMPower:
            out.append("[")
            accelerometerItems(items, seed: layout.seed, mpower: true, into: &out)
            out.append("]")
        case .deviceMotion:
            out.append("{\"items\":[")
            deviceMotionItems(items, seed: layout.seed, into: &out)
            out.append("]}")
        }
        return out.bytes
    }

    /// Writes every log into `directory`; returns the paths in `Layout.allCases` order.
    @discardableResult
    public static func write(to directory: String, items: Int = defaultItems) throws -> [String] {
        try Layout.allCases.map { layout in
            let path = "\(directory)/\(layout.fileName(items: items))"
            try Data(bytes(layout, items: items)).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    // MARK: The recordings (statement for statement as in make_recorder_logs.py)

    private static let rateHz = 100.0
    private static let bootTime = 8844.375467791668
    private static let unixTime = 1763707262.519184
    private static let stepHz = 1.85
    private static let twoPi = 6.283185307179586

    /// (nominal time since the first sample, timestamp, timestampSince1970).
    private static func times(_ i: Int, _ noise: inout SplitMix64) -> (Double, Double, Double) {
        let nominal = Double(i) * (1.0 / rateHz)
        let jitter = noise.next()
        let timestamp = bootTime + nominal + 0.0002 * jitter
        return (nominal, timestamp, unixTime + (timestamp - bootTime))
    }

    private static func accelerometerItems(_ items: Int, seed: UInt64, mpower: Bool, into out: inout JSONText) {
        var noise = SplitMix64(state: seed)
        for i in 0..<items {
            let (nominal, timestamp, unix) = times(i, &noise)
            let phase = twoPi * stepHz * nominal
            let s1 = sin(phase)
            let c1 = cos(phase)
            let s2 = sin(2.0 * phase + 0.6)
            let sway = sin(0.5 * phase)
            let n1 = noise.next()
            let n2 = noise.next()
            let n3 = noise.next()
            let x = 0.08 + 0.11 * sway + 0.06 * s2 + 0.025 * n1
            let y = -0.94 + 0.32 * s1 + 0.12 * s2 + 0.03 * n2
            let z = -0.27 + 0.18 * c1 + 0.05 * sway + 0.03 * n3
            if i > 0 { out.append(",") }
            if mpower {
                out.append("{\"timestamp\":", timestamp, ",\"x\":", x, ",\"y\":", y, ",\"z\":", z, "}")
            } else {
                out.append("{\"x\":", x, ",\"y\":", y, ",\"z\":", z, ",\"timestamp\":", timestamp)
                out.append(",\"timestampSince1970\":", unix, "}")
            }
        }
    }

    private static func deviceMotionItems(_ items: Int, seed: UInt64, into out: inout JSONText) {
        var noise = SplitMix64(state: seed)
        let omega = twoPi * stepHz
        for i in 0..<items {
            let (nominal, timestamp, unix) = times(i, &noise)
            let phase = omega * nominal
            let s1 = sin(phase)
            let c1 = cos(phase)
            let s2 = sin(2.0 * phase + 0.6)
            let sway = sin(0.5 * phase)
            let roll = 0.12 + 0.10 * sin(0.5 * phase + 0.3)
            let pitch = -1.15 + 0.14 * s1
            let yaw = 0.8 + 0.05 * sin(0.25 * phase)
            let cr = cos(0.5 * roll)
            let sr = sin(0.5 * roll)
            let cp = cos(0.5 * pitch)
            let sp = sin(0.5 * pitch)
            let cy = cos(0.5 * yaw)
            let sy = sin(0.5 * yaw)
            let qw = cr * cp * cy + sr * sp * sy
            let qx = sr * cp * cy - cr * sp * sy
            let qy = cr * sp * cy + sr * cp * sy
            let qz = cr * cp * sy - sr * sp * cy
            let gx = -cos(pitch) * sin(roll)
            let gy = sin(pitch)
            let gz = -cos(pitch) * cos(roll)
            let n1 = noise.next()
            let n2 = noise.next()
            let n3 = noise.next()
            let ux = 0.06 * s2 + 0.09 * sway + 0.02 * n1
            let uy = 0.30 * s1 + 0.11 * s2 + 0.03 * n2
            let uz = 0.16 * c1 + 0.02 * n3
            let n4 = noise.next()
            let n5 = noise.next()
            let n6 = noise.next()
            let rx = 0.05 * omega * cos(0.5 * phase + 0.3) + 0.01 * n4
            let ry = 0.14 * omega * c1 + 0.01 * n5
            let rz = 0.0125 * omega * cos(0.25 * phase) + 0.01 * n6
            let n7 = noise.next()
            let n8 = noise.next()
            let n9 = noise.next()
            let mx = -18.5 + 6.0 * sin(yaw) + 0.4 * n7
            let my = 27.3 + 4.0 * cos(pitch) + 0.4 * n8
            let mz = -41.2 + 3.0 * sin(roll) + 0.4 * n9
            if i > 0 { out.append(",") }
            out.append("{\"attitude\":{\"y\":", qy, ",\"w\":", qw, ",\"z\":", qz, ",\"x\":", qx, "}")
            out.append(",\"timestamp\":", timestamp)
            out.append(",\"rotationRate\":{\"x\":", rx, ",\"y\":", ry, ",\"z\":", rz, "}")
            out.append(",\"userAcceleration\":{\"x\":", ux, ",\"y\":", uy, ",\"z\":", uz, "}")
            out.append(",\"timestampSince1970\":", unix)
            out.append(",\"gravity\":{\"x\":", gx, ",\"y\":", gy, ",\"z\":", gz, "}")
            out.append(",\"magneticField\":{\"y\":", my, ",\"z\":", mz, ",\"x\":", mx, ",\"accuracy\":2}}")
        }
    }
}

/// Uniform noise in [-1, 1): SplitMix64, the same sequence as `NoiseSource` in BenchmarkSupport and
/// `SplitMix64` in make_recorder_logs.py.
private struct SplitMix64 {
    var state: UInt64

    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1p-52 - 1
    }
}

/// Compact JSON text: literal fragments and numbers printed with their shortest round-trip digits.
private struct JSONText {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) {
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func append(_ key: StaticString, _ value: Double) {
        append(key)
        append(value)
    }

    mutating func append(_ key: StaticString, _ value: Double, _ close: StaticString) {
        append(key, value)
        append(close)
    }

    mutating func append(
        _ k1: StaticString, _ v1: Double, _ k2: StaticString, _ v2: Double, _ k3: StaticString, _ v3: Double,
        _ close: StaticString
    ) {
        append(k1, v1)
        append(k2, v2)
        append(k3, v3)
        append(close)
    }

    mutating func append(
        _ k1: StaticString, _ v1: Double, _ k2: StaticString, _ v2: Double, _ k3: StaticString, _ v3: Double,
        _ k4: StaticString, _ v4: Double, _ close: StaticString
    ) {
        append(k1, v1)
        append(k2, v2)
        append(k3, v3)
        append(k4, v4)
        append(close)
    }

    mutating func append(
        _ k1: StaticString, _ v1: Double, _ k2: StaticString, _ v2: Double, _ k3: StaticString, _ v3: Double,
        _ k4: StaticString, _ v4: Double
    ) {
        append(k1, v1)
        append(k2, v2)
        append(k3, v3)
        append(k4, v4)
    }
}
