import Foundation

/// The units a gyroscope column can be in.
public enum RotationRateUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// Radians per second (iOS CoreMotion, Android `SensorEvent`).
    case radiansPerSecond = "rad/s"
    /// Degrees per second (most research IMUs: Shimmer, Axivity, XSens, Mobilise-D).
    case degreesPerSecond = "deg/s"

    /// Factor converting this unit to rad/s.
    public var toRadiansPerSecond: Double { self == .radiansPerSecond ? 1 : Double.pi / 180 }

    /// The unit a unit text names (`rad/s`, `rads-1`, `deg/s`, `°/s`, `dps`, …), or nil.
    public static func named(_ text: String) -> RotationRateUnit? {
        var t = text.lowercased().replacingOccurrences(of: " ", with: "")
        t = t.replacingOccurrences(of: "sec", with: "s").replacingOccurrences(of: "(", with: "")
        t = t.replacingOccurrences(of: ")", with: "")
        if ["rad/s", "rads-1", "rads^-1", "rad*s^-1", "rad.s^-1", "radps", "radianspersecond", "rps"].contains(t) {
            return .radiansPerSecond
        }
        if ["deg/s", "°/s", "º/s", "degs-1", "degs^-1", "deg*s^-1", "deg.s^-1", "dps", "degps", "degreespersecond"]
            .contains(t)
        {
            return .degreesPerSecond
        }
        return nil
    }
}

/// The column names a sensor table may use for a gyroscope's x, y and z, beside its acceleration.
///
/// Names are normalised as ``AccelerationColumnNames/normalised(_:)`` does. A gyroscope name is `<prefix><axis>`
/// (or `<axis><prefix>`) with a prefix of ``prefixes``, or a device name with a token starting with `gyr`
/// (`Shimmer_5E6A_Gyro_X_CAL`, `gyroRotationX(rad/s)`); x, y and z must share the spelling, the first complete one
/// winning (for device names, the one whose x comes first). A unit in the name (`gyr_x (deg/s)`, `Gyro X [°/s]`, `gyr_x_dps`) states the unit. Bare `gx` or `wx`
/// are not taken (exports use them for gravity as often as for the gyroscope).
public enum GyroscopeColumnNames {
    /// Accepted gyroscope prefixes, normalised, in order of preference.
    public static let prefixes: [String] = [
        "gyr", "gyro", "gyroscope", "rotationrate", "gyrorotation", "gyroscoperotation", "rawgyro", "rawgyroscope",
        "angularvelocity", "angvel", "omega",
    ]
    /// How the documentation spells the accepted names.
    public static let summary =
        "gyr_x…; gyro_x…; gyroscope_x…; rotationRate.x…; "
        + "angularVelocity_x…; device names with a `gyr…` token such as Shimmer_5E6A_Gyro_X_CAL; a unit in "
        + "parentheses or brackets, or a `dps`/`rads` suffix, states the unit"

    /// The 0-based x, y and z gyroscope columns among `names`, not among `excluded` (the acceleration and time
    /// columns), with the unit the names state (nil when they state none or disagree).
    public static func columns(in names: [String], excluding excluded: Set<Int>) -> (
        x: Int, y: Int, z: Int, unit: RotationRateUnit?
    )? {
        guard
            let (x, y, z) = AccelerationColumnNames.axisColumns(
                in: names, excluding: excluded, prefixCount: prefixes.count, parse: parse, deviceAxis: deviceAxis)
        else { return nil }
        let units = [x, y, z].map { statedUnit(names[$0]) }
        let unit = units.allSatisfy { $0 != nil && $0 == units[0] } ? units[0] : nil
        return (x, y, z, unit)
    }

    /// The unit a gyroscope column name states: in parentheses or brackets, or as a last `dps`, `degps`, `rads`,
    /// `radps` or `deg`/`rad` token; nil when it states none.
    public static func statedUnit(_ name: String) -> RotationRateUnit? {
        if let text = AccelerationColumnNames.statedUnit(name) { return RotationRateUnit.named(text) }
        let parts = AccelerationColumnNames.tokens(name)
        for token in parts.reversed() {
            switch token {
            case "dps", "degps", "degs", "deg": return .degreesPerSecond
            case "rads", "radps", "rad": return .radiansPerSecond
            default: continue
            }
        }
        return nil
    }

    /// Tokens a name may end in after its axis that say its unit or calibration, not what it is.
    static let trailingTokens: Set<String> = ["dps", "degps", "degs", "deg", "rads", "radps", "rad"]

    /// The name's tokens (``AccelerationColumnNames/tokens(_:)``) without trailing unit and calibration tokens.
    static func strippedTokens(_ name: String) -> [String] {
        var parts = AccelerationColumnNames.tokens(name)
        while let last = parts.last,
            trailingTokens.contains(last) || AccelerationColumnNames.calibrationTokens.contains(last)
        {
            parts.removeLast()
        }
        return parts
    }

    /// The prefix (index into ``prefixes``) and axis a gyroscope name spells, or nil.
    static func parse(_ name: String) -> (prefix: Int, axis: Int)? {
        AccelerationColumnNames.axisSpelling(strippedTokens(name).joined(), prefixes: prefixes)
    }

    /// A device name's axis and the tokens before it, when one token starts with `gyr`.
    static func deviceAxis(_ name: String) -> (stem: String, axis: Int)? {
        let parts = strippedTokens(name)
        guard parts.count >= 2, let last = parts.last else { return nil }
        var stemParts = Array(parts.dropLast())
        var axisToken = last
        if axisToken.count > 1, ["x", "y", "z"].contains(axisToken.suffix(1)), axisToken.hasPrefix("gyr") {
            stemParts.append(String(axisToken.dropLast()))
            axisToken = String(axisToken.suffix(1))
        }
        guard let axis = ["x", "y", "z"].firstIndex(of: axisToken),
            stemParts.contains(where: { $0.hasPrefix("gyr") })
        else { return nil }
        return (stemParts.joined(separator: "_"), axis)
    }
}
