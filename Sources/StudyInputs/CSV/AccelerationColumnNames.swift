/// The column names an accelerometer table may use for its time and its x, y and z acceleration, and how a table's
/// names are matched against them.
///
/// A name is first *normalised*: text in parentheses or brackets (a unit such as `(g)` or `[m/s^2]`) is dropped,
/// letters are lower-cased, and everything but letters and digits is removed (`Accel X (g)` → `accelx`,
/// `userAcceleration.x` → `useraccelerationx`). An acceleration name is then `<prefix><axis>` or
/// `<prefix><axis>axis`, or `<axis><prefix>` for a non-empty prefix, with the axis `x`, `y` or `z` and the prefix
/// one of ``prefixes`` (the empty prefix is plain `x`, `y`, `z`). A time name is one of ``timeNames``.
///
/// x, y and z must come from the same spelling (`ax, ay, az`, not `ax, acc_y, z`), and the first spelling, in
/// ``prefixes`` order, whose three axes all appear wins. Columns named for anything else (gyroscope, rotation rate,
/// attitude, magnetometer, heart rate, the `red, green, blue` of a camera PPG recording, …) never match.
public enum AccelerationColumnNames {
    /// Accepted acceleration prefixes, normalised, in order of preference.
    public static let prefixes: [String] = [
        "", "a", "acc", "accel", "acceleration", "accelerometer", "rawacc", "rawaccel", "rawacceleration",
        "accelerometerraw", "totalacceleration", "linearacceleration", "useracceleration", "ua",
    ]
    /// Accepted time column names, normalised, in order of preference.
    public static let timeNames: [String] = [
        "timestamp", "time", "t", "times", "timems", "timestampms", "timestampns", "timestampus", "seconds",
        "timestampnssinceboot",
    ]
    /// How the documentation and error messages spell the accepted names.
    public static let summary =
        "x, y, z; ax…; acc_x…; accel_x…; acceleration_x…; accelerometer_x…; userAcceleration.x…; ua_x… "
        + "(case, spaces, '_', '.', '-' and a unit in parentheses ignored)"

    /// The normalised form of a column name (see the type's documentation).
    public static func normalised(_ name: String) -> String {
        var out = ""
        var depth = 0
        for character in name.lowercased() {
            switch character {
            case "(", "[": depth += 1
            case ")", "]": depth = max(0, depth - 1)
            default:
                if depth == 0, character.isASCII, character.isLetter || character.isNumber { out.append(character) }
            }
        }
        return out
    }

    /// The prefix (index into ``prefixes``) and axis (0, 1, 2 for x, y, z) an acceleration name spells, or nil.
    static func parse(_ name: String) -> (prefix: Int, axis: Int)? {
        let n = normalised(name)
        guard !n.isEmpty else { return nil }
        var stem = n
        if stem.count > 4, stem.hasSuffix("axis") { stem.removeLast(4) }
        let axes: [Character] = ["x", "y", "z"]
        if let last = stem.last, let axis = axes.firstIndex(of: last),
            let prefix = prefixes.firstIndex(of: String(stem.dropLast()))
        {
            return (prefix, axis)
        }
        if let first = n.first, let axis = axes.firstIndex(of: first), n.count > 1,
            let prefix = prefixes.firstIndex(of: String(n.dropFirst())), prefix != 0
        {
            return (prefix, axis)
        }
        return nil
    }

    /// The 0-based x, y and z columns among `names`, or nil when the names do not spell all three axes.
    public static func accelerationColumns(in names: [String]) -> (x: Int, y: Int, z: Int)? {
        var found: [Int: [Int?]] = [:]
        for (column, name) in names.enumerated() {
            guard let (prefix, axis) = parse(name) else { continue }
            var axes = found[prefix] ?? [nil, nil, nil]
            if axes[axis] == nil { axes[axis] = column }
            found[prefix] = axes
        }
        for prefix in prefixes.indices {
            if let axes = found[prefix], let x = axes[0], let y = axes[1], let z = axes[2] { return (x, y, z) }
        }
        return nil
    }

    /// The 0-based time column among `names` (the first of ``timeNames`` present), or nil.
    public static func timeColumn(in names: [String]) -> Int? {
        let normal = names.map(normalised)
        for wanted in timeNames { if let c = normal.firstIndex(of: wanted) { return c } }
        return nil
    }
}
