import Foundation

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
        "accelerometerraw", "totalacceleration", "linearacceleration", "useracceleration", "ua", "gf",
    ]
    /// Accepted time column names, normalised, in order of preference.
    public static let timeNames: [String] = [
        "timestamp", "time", "t", "times", "timems", "timestampms", "timestampns", "timestampus", "seconds",
        "timestampnssinceboot",
    ]
    /// How the documentation and error messages spell the accepted names.
    public static let summary =
        "x, y, z; ax…; acc_x…; accel_x…; acceleration_x…; accelerometer_x…; userAcceleration.x…; ua_x…; gFx…; "
        + "device names such as S14_Accel_MPU_X_CAL or accelerometerAccelerationX(G) "
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
        axisSpelling(normalised(name), prefixes: prefixes)
    }

    /// The prefix (index into `prefixes`) and axis a normalised name spells, or nil.
    ///
    /// The spellings are `<prefix><axis>`, `<prefix><axis>axis` and, for a non-empty prefix, `<axis><prefix>`.
    /// Shared by the acceleration and gyroscope names.
    static func axisSpelling(_ n: String, prefixes: [String]) -> (prefix: Int, axis: Int)? {
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
            let prefix = prefixes.firstIndex(of: String(n.dropFirst())), !prefixes[prefix].isEmpty
        {
            return (prefix, axis)
        }
        return nil
    }

    /// The 0-based x, y and z columns among `names`, or nil when the names do not spell all three axes.
    ///
    /// Names of ``prefixes`` come first; then device names that carry an acceleration word among other tokens
    /// (``deviceAxis(_:)``: `S14_Accel_MPU_MPL_X_CAL`, `Shimmer_5E6A_Accel_LN_X_CAL`,
    /// `accelerometerAccelerationX(G)`, `FreeAcc_X`), the three axes sharing the same other tokens, the spelling
    /// whose x comes first winning.
    public static func accelerationColumns(in names: [String]) -> (x: Int, y: Int, z: Int)? {
        axisColumns(in: names, excluding: [], prefixCount: prefixes.count, parse: parse, deviceAxis: deviceAxis)
    }

    /// The x, y and z columns among `names` (those in `excluded` left out), all three of one spelling.
    ///
    /// The first prefix (index under `prefixCount`, in order) whose three axes `parse` finds wins, else the device
    /// stem (`deviceAxis`) with all three whose x comes first. Shared by the acceleration and gyroscope names.
    static func axisColumns(
        in names: [String], excluding excluded: Set<Int>, prefixCount: Int,
        parse: (String) -> (prefix: Int, axis: Int)?, deviceAxis: (String) -> (stem: String, axis: Int)?
    ) -> (x: Int, y: Int, z: Int)? {
        var found: [Int: [Int?]] = [:]
        var devices: [String: [Int?]] = [:]
        var deviceOrder: [String] = []
        for (column, name) in names.enumerated() where !excluded.contains(column) {
            if let (prefix, axis) = parse(name) {
                var axes = found[prefix] ?? [nil, nil, nil]
                if axes[axis] == nil { axes[axis] = column }
                found[prefix] = axes
            } else if let (stem, axis) = deviceAxis(name) {
                if devices[stem] == nil { deviceOrder.append(stem) }
                var axes = devices[stem] ?? [nil, nil, nil]
                if axes[axis] == nil { axes[axis] = column }
                devices[stem] = axes
            }
        }
        for prefix in 0..<prefixCount {
            if let axes = found[prefix], let x = axes[0], let y = axes[1], let z = axes[2] { return (x, y, z) }
        }
        var best: (x: Int, y: Int, z: Int)?
        for stem in deviceOrder {
            if let axes = devices[stem], let x = axes[0], let y = axes[1], let z = axes[2], x < (best?.x ?? .max) {
                best = (x, y, z)
            }
        }
        return best
    }

    /// Words that make a device column name an acceleration (one of its tokens starts with one of them).
    static let accelerationWords = ["acc", "accel", "acceleration", "accelerometer", "gf"]
    /// Words that make a name something else, whatever else it says.
    static let otherQuantityWords = [
        "gyr", "gyro", "gyroscope", "mag", "magnetometer", "rot", "rotation", "quat", "euler", "angle", "orientation",
        "gravity", "attitude", "vel", "velocity",
    ]
    /// Trailing tokens of device names that say how a value is calibrated, not what it is.
    static let calibrationTokens: Set<String> = ["cal", "raw", "uncal", "calibrated", "uncalibrated"]

    /// The name split into lower-case tokens at non-alphanumerics and lower-to-upper case changes, units in
    /// parentheses or brackets dropped: `accelerometerAccelerationX(G)` → `accelerometer, acceleration, x`.
    public static func tokens(_ name: String) -> [String] {
        var out: [String] = []
        var current = ""
        var depth = 0
        var previousLower = false
        func flush() {
            if !current.isEmpty { out.append(current.lowercased()) }
            current = ""
        }
        for character in name {
            switch character {
            case "(", "[":
                depth += 1
                flush()
            case ")", "]":
                depth = max(0, depth - 1)
            default:
                guard depth == 0 else { continue }
                if character.isASCII, character.isLetter || character.isNumber {
                    if character.isUppercase && previousLower { flush() }
                    current.append(character)
                    previousLower = character.isLowercase || character.isNumber
                } else {
                    flush()
                    previousLower = false
                }
            }
        }
        flush()
        return out
    }

    /// A device name's axis and the tokens before it (its "stem"), when the name is acceleration by
    /// ``accelerationWords`` and not another quantity by ``otherQuantityWords``; calibration tokens at the end are
    /// ignored.
    static func deviceAxis(_ name: String) -> (stem: String, axis: Int)? {
        var parts = tokens(name)
        while let last = parts.last, calibrationTokens.contains(last) { parts.removeLast() }
        guard parts.count >= 2, let last = parts.last else { return nil }
        var stemParts = Array(parts.dropLast())
        var axisToken = last
        // `accelerationX` is one token `x` after the case split; `accelx` (lower case) ends in the axis.
        if axisToken.count > 1, ["x", "y", "z"].contains(axisToken.suffix(1)),
            accelerationWords.contains(where: { axisToken.dropLast() == $0 })
        {
            stemParts.append(String(axisToken.dropLast()))
            axisToken = String(axisToken.suffix(1))
        }
        guard let axis = ["x", "y", "z"].firstIndex(of: axisToken) else { return nil }
        let isAcceleration = stemParts.contains { token in accelerationWords.contains { token.hasPrefix($0) } }
        let isOther = stemParts.contains { token in otherQuantityWords.contains { token.hasPrefix($0) } }
        guard isAcceleration, !isOther else { return nil }
        return (stemParts.joined(separator: "_"), axis)
    }

    /// Normalised names of columns that count samples rather than time.
    public static let counterNames: [String] = [
        "packetcounter", "samplenumber", "samplecounter", "sampleindex", "sampleno", "samples", "sample", "counter",
        "packetnumber", "framenumber", "frame", "index",
    ]

    /// The 0-based time column among `names` (the first of ``timeNames`` present), or nil.
    public static func timeColumn(in names: [String]) -> Int? {
        let normal = names.map(normalised)
        for wanted in timeNames { if let c = normal.firstIndex(of: wanted) { return c } }
        return nil
    }

    /// Time columns in order of preference.
    ///
    /// ``timeNames`` come first, then names with a `timestamp` token, or a `time`
    /// token that is not a counter or XSens' `SampleTimeFine` (`Shimmer_5E6A_Timestamp_Unix_CAL`,
    /// `accelerometerTimestamp_sinceReboot(s)`, `Time (s)`). The caller takes the first that holds numbers.
    public static func timeColumns(in names: [String]) -> [Int] {
        var out: [Int] = []
        let normal = names.map(normalised)
        for wanted in timeNames {
            for (c, n) in normal.enumerated() where n == wanted && !out.contains(c) { out.append(c) }
        }
        for (c, name) in names.enumerated() where !out.contains(c) {
            let parts = tokens(name)
            if parts.contains("fine") || counterNames.contains(normal[c]) { continue }
            if parts.contains(where: { $0 == "timestamp" || $0 == "time" || $0 == "timestamps" }) { out.append(c) }
        }
        return out
    }

    /// The 0-based column among `names` that counts samples (``counterNames``), or nil.
    public static func counterColumn(in names: [String]) -> Int? {
        let normal = names.map(normalised)
        for wanted in counterNames { if let c = normal.firstIndex(of: wanted) { return c } }
        return nil
    }

    /// The unit a column name states in parentheses or brackets (`Time (s)` → `s`, `Acc X [m/s^2]` → `m/s^2`,
    /// `accelerometerAccelerationX(G)` → `G`), or nil.
    public static func statedUnit(_ name: String) -> String? {
        guard let close = name.lastIndex(where: { $0 == ")" || $0 == "]" }) else { return nil }
        let opener: Character = name[close] == ")" ? "(" : "["
        // The matching opener: parentheses inside (`m/(s^2)`) are part of the unit.
        var depth = 0
        var index = close
        while index > name.startIndex {
            index = name.index(before: index)
            let c = name[index]
            if c == name[close] { depth += 1 }
            if c == opener {
                if depth == 0 {
                    let unit = name[name.index(after: index)..<close].trimmingCharacters(in: .whitespaces)
                    return unit.isEmpty ? nil : unit
                }
                depth -= 1
            }
        }
        return nil
    }

    /// The acceleration unit a unit text names (`g`, `G`, `m/s^2`, `m/s²`, `m/(sec^2)`, `m s-2`, …), or nil.
    public static func accelerationUnit(named text: String) -> AccelerationUnit? {
        var t = text.lowercased().replacingOccurrences(of: " ", with: "")
        t = t.replacingOccurrences(of: "²", with: "^2").replacingOccurrences(of: "sec", with: "s")
        t = t.replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "")
        if ["g", "gs", "gforce", "g-force", "g0", "gravity", "gn"].contains(t) { return .g }
        let metric = ["m/s^2", "m/s2", "ms^-2", "ms-2", "m*s^-2", "m.s^-2", "m/s/s", "m/s*s", "meterspersecondsquared"]
        if metric.contains(t) {
            return .metersPerSecondSquared
        }
        return nil
    }

    /// The time unit a unit text names (`s`, `sec`, `secs`, `ms`, `msecs`, `µs`, `us`, `ns`, …), or nil.
    public static func timeUnit(named text: String) -> AccelerometerCSVReader.TimeUnit? {
        let t = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch t {
        case "s", "sec", "secs", "second", "seconds": return .seconds
        case "ms", "msec", "msecs", "millisecond", "milliseconds": return .milliseconds
        case "us", "µs", "μs", "usec", "usecs", "microsecond", "microseconds": return .microseconds
        case "ns", "nsec", "nsecs", "nanosecond", "nanoseconds": return .nanoseconds
        default: return nil
        }
    }
}
