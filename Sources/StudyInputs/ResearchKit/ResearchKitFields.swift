/// Typed, validated access to the members of one JSON object of a known ResearchKit class, with JSON paths
/// in every error.
///
/// Absent keys and JSON `null` are treated alike (ResearchKit omits nil properties). Every number read is
/// checked against ResearchKit's `DBL_MAX`/`CGFLOAT_MAX` sentinels: only ``sentinelNumber(_:_:_:unit:)``
/// accepts them (as nil); everywhere else they are an error.
struct ResearchKitFields {
    /// The object.
    let object: JSONObject
    /// Its JSON path.
    let path: ResearchKitPath
    /// Its class (from `_class`, or fixed by position).
    let className: String
    /// Error and warning sink.
    let context: ResearchKitDecodingContext

    /// What a number must satisfy.
    enum NumberRule {
        /// Any finite number.
        case finite
        /// ≥ 0.
        case nonNegative
        /// > 0.
        case positive
        /// In 0…1.
        case unitInterval

        func accepts(_ x: Double) -> Bool {
            switch self {
            case .finite: x.isFinite
            case .nonNegative: x >= 0
            case .positive: x > 0
            case .unitInterval: (0...1).contains(x)
            }
        }

        func expected(unit: String?) -> String {
            let u = unit.map { " (\($0))" } ?? ""
            return switch self {
            case .finite: "a number\(u)"
            case .nonNegative: "a number ≥ 0\(u)"
            case .positive: "a number > 0\(u)"
            case .unitInterval: "a number in 0…1\(u)"
            }
        }

        var violation: String {
            switch self {
            case .finite: "must be finite"
            case .nonNegative: "must not be negative"
            case .positive: "must be positive"
            case .unitInterval: "must lie in 0…1"
            }
        }
    }

    /// A ResearchKit "no value" sentinel a field may carry.
    enum Sentinel {
        /// `DBL_MAX` (`ORKInvalidDBHLValue`): no dB HL threshold found. `−DBL_MAX` (a NaN clamped by
        /// `ORKForceDoubleToLimits`) is read the same way.
        case noThreshold
        /// `CGFLOAT_MAX`: no time limit. Matches both the 64-bit value (`DBL_MAX`) and the 32-bit one
        /// (`FLT_MAX` = 3.4028234663852886e38, from ResearchKit 1.x on 32-bit devices).
        case noTimeLimit

        func matches(_ x: Double) -> Bool {
            switch self {
            case .noThreshold: abs(x) == Double.greatestFiniteMagnitude
            case .noTimeLimit: x == Double.greatestFiniteMagnitude || x == Double(Float.greatestFiniteMagnitude)
            }
        }

        func explanation(_ x: Double) -> String {
            switch self {
            case .noThreshold:
                x > 0
                    ? "DBL_MAX (1.7976931348623157e308), ResearchKit's \"no threshold found\"; read as nil"
                    : "-DBL_MAX, a NaN threshold clamped by ResearchKit; read as no threshold (nil)"
            case .noTimeLimit:
                x == Double.greatestFiniteMagnitude
                    ? "CGFLOAT_MAX (1.7976931348623157e308), ResearchKit's \"no time limit\"; read as nil"
                    : "32-bit CGFLOAT_MAX (3.4028234663852886e38), ResearchKit's \"no time limit\"; read as nil"
            }
        }
    }

    /// True for the magnitudes ResearchKit uses as sentinels (`DBL_MAX`, and `FLT_MAX` = 32-bit `CGFLOAT_MAX`).
    static func isSentinelMagnitude(_ x: Double) -> Bool {
        abs(x) == Double.greatestFiniteMagnitude || abs(x) == Double(Float.greatestFiniteMagnitude)
    }

    // MARK: Raw access

    /// The value of `key`; nil when absent or `null`.
    func value(_ key: String) -> JSONValue? {
        guard let v = object[key], v != .null else { return nil }
        return v
    }

    /// An error about `key` of this object.
    func error(_ key: String, expected: String, found: String, message: String? = nil) -> InputError {
        context.error(at: path.key(key), expected: expected, found: found, message: message)
    }

    /// The error for a required key that is absent.
    func missing(_ key: String, expected: String) -> InputError {
        error(
            key, expected: expected, found: "nothing (the key is missing)", message: "\(className) requires \"\(key)\"")
    }

    /// Warns about keys outside the documented key set of ``className``
    /// (``ResearchKitDecoder/documentedKeys``); does nothing for classes without one.
    func reportUnknownKeys() {
        guard let known = ResearchKitDecoder.documentedKeys[className] else { return }
        for key in object.keys where !known.contains(key) {
            context.noteUnknownKey(key, className: className, at: path.key(key))
        }
    }

    // MARK: Strings and booleans

    /// An optional string.
    func optionalString(_ key: String) throws(InputError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw error(key, expected: "a string", found: v.summary) }
        return s
    }

    /// A required string.
    func string(_ key: String) throws(InputError) -> String {
        guard let s = try optionalString(key) else { throw missing(key, expected: "a string") }
        return s
    }

    /// An optional boolean: `true`/`false`, or `0`/`1` (how `NSNumber` booleans sometimes serialise).
    func optionalBool(_ key: String) throws(InputError) -> Bool? {
        guard let v = value(key) else { return nil }
        switch v {
        case .bool(let b): return b
        case .number(0): return false
        case .number(1): return true
        default: throw error(key, expected: "true or false", found: v.summary)
        }
    }

    // MARK: Numbers

    /// Checks `x` (the value of `key`) against the sentinels and `rule`.
    private func validated(_ x: Double, _ key: String, _ rule: NumberRule, unit: String?) throws(InputError) -> Double {
        let found = JSONValue.number(x).summary
        if Self.isSentinelMagnitude(x) {
            throw error(
                key, expected: rule.expected(unit: unit), found: found,
                message:
                    "\(className).\(key) holds ResearchKit's DBL_MAX/CGFLOAT_MAX sentinel, but this field has no 'no value' meaning"
            )
        }
        guard x.isFinite, rule.accepts(x) else {
            throw error(
                key, expected: rule.expected(unit: unit), found: found, message: "\(className).\(key) \(rule.violation)"
            )
        }
        return x
    }

    /// An optional number satisfying `rule`.
    func optionalNumber(_ key: String, _ rule: NumberRule, unit: String? = nil) throws(InputError) -> Double? {
        guard let v = value(key) else { return nil }
        guard case .number(let x) = v else { throw error(key, expected: rule.expected(unit: unit), found: v.summary) }
        return try validated(x, key, rule, unit: unit)
    }

    /// A required number satisfying `rule`.
    func number(_ key: String, _ rule: NumberRule, unit: String? = nil) throws(InputError) -> Double {
        guard let x = try optionalNumber(key, rule, unit: unit) else {
            throw missing(key, expected: rule.expected(unit: unit))
        }
        return x
    }

    /// A required number that may hold `sentinel`, which is read as nil with a warning.
    func sentinelNumber(_ key: String, _ sentinel: Sentinel, _ rule: NumberRule, unit: String? = nil) throws(InputError)
        -> Double?
    {
        guard let v = value(key) else { throw missing(key, expected: rule.expected(unit: unit)) }
        guard case .number(let x) = v else { throw error(key, expected: rule.expected(unit: unit), found: v.summary) }
        if sentinel.matches(x) {
            context.warn(.sentinel, at: path.key(key), "\(className).\(key) is \(sentinel.explanation(x))")
            return nil
        }
        return try validated(x, key, rule, unit: unit)
    }

    /// An optional integer within `range`; `expected` describes the allowed values in errors.
    func optionalInteger(_ key: String, in range: ClosedRange<Int>, expected: String) throws(InputError) -> Int? {
        guard let v = value(key) else { return nil }
        guard case .number(let x) = v else { throw error(key, expected: expected, found: v.summary) }
        guard x.rounded() == x, abs(x) <= 9_007_199_254_740_992, range.contains(Int(x)) else {
            throw error(key, expected: expected, found: v.summary, message: "\(className).\(key) is out of range")
        }
        return Int(x)
    }

    /// A required integer within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>, expected: String) throws(InputError) -> Int {
        guard let n = try optionalInteger(key, in: range, expected: expected) else {
            throw missing(key, expected: expected)
        }
        return n
    }

    // MARK: Containers

    /// An optional array.
    func optionalArray(_ key: String, of what: String) throws(InputError) -> [JSONValue]? {
        guard let v = value(key) else { return nil }
        guard case .array(let a) = v else {
            throw error(
                key, expected: "an array of \(what)", found: v.summary, message: "\(className).\(key) must be an array")
        }
        return a
    }

    /// An optional object.
    func optionalObject(_ key: String, of what: String = "an object") throws(InputError) -> JSONObject? {
        guard let v = value(key) else { return nil }
        guard case .object(let o) = v else { throw error(key, expected: what, found: v.summary) }
        return o
    }

    /// Field access for the member object `key`, whose class the position fixes.
    func positional(_ key: String, expectedClass: String) throws(InputError) -> ResearchKitFields? {
        guard let v = value(key) else { return nil }
        return try context.positional(v, at: path.key(key), expectedClass: expectedClass)
    }

    // MARK: Dates

    /// An optional date in ResearchKit's format (`yyyy-MM-dd'T'HH:mm:ssZ`; ISO-8601 variants accepted).
    ///
    /// An empty string (placeholder output) is read as nil with a warning.
    func date(_ key: String) throws(InputError) -> ResultDate? {
        guard let v = value(key) else { return nil }
        let expected = "a date like 2019-05-27T00:35:06-0700 (yyyy-MM-dd'T'HH:mm:ssZ)"
        guard case .string(let text) = v else { throw error(key, expected: expected, found: v.summary) }
        if text.isEmpty {
            context.warn(
                .emptyDate, at: path.key(key),
                "\(className).\(key) is an empty string (placeholder output); read as no date")
            return nil
        }
        guard let date = ResultDate(text) else {
            throw error(key, expected: expected, found: v.summary, message: "malformed date in \(className).\(key)")
        }
        return date
    }

    // MARK: Geometry (plain dictionaries, no _class)

    /// Field access for a plain member object (geometry).
    private func plain(_ key: String, what: String) throws(InputError) -> ResearchKitFields? {
        guard let v = value(key) else { return nil }
        let o = try context.object(v, at: path.key(key), expected: what)
        return ResearchKitFields(object: o, path: path.key(key), className: "\(className).\(key)", context: context)
    }

    /// An optional CGPoint `{"x","y"}`, points.
    func point(_ key: String) throws(InputError) -> ViewPoint? {
        guard let p = try plain(key, what: "a point {\"x\", \"y\"}") else { return nil }
        return ViewPoint(x: try p.number("x", .finite, unit: "points"), y: try p.number("y", .finite, unit: "points"))
    }

    /// An optional CGSize `{"h","w"}`, points.
    func size(_ key: String) throws(InputError) -> ViewSize? {
        guard let s = try plain(key, what: "a size {\"h\", \"w\"}") else { return nil }
        return ViewSize(
            width: try s.number("w", .nonNegative, unit: "points"),
            height: try s.number("h", .nonNegative, unit: "points"))
    }

    /// An optional CGRect `{"origin":{"x","y"},"size":{"h","w"}}`, points.
    func rect(_ key: String) throws(InputError) -> ViewRect? {
        guard let r = try plain(key, what: "a rectangle {\"origin\", \"size\"}") else { return nil }
        guard let origin = try r.point("origin") else { throw r.missing("origin", expected: "a point {\"x\", \"y\"}") }
        guard let size = try r.size("size") else { throw r.missing("size", expected: "a size {\"h\", \"w\"}") }
        return ViewRect(origin: origin, size: size)
    }

    // MARK: ORKResult keys

    /// The `ORKResult` keys of a known result class; `identifier` is required.
    func header() throws(InputError) -> ResearchKit.ResultHeader {
        ResearchKit.ResultHeader(
            className: className, identifier: try string("identifier"), startDate: try date("startDate"),
            endDate: try date("endDate"), userInfo: try optionalObject("userInfo", of: "an object (userInfo)"))
    }

    /// The `ORKResult` keys of an unknown class, taken only where present and well formed; never throws.
    func lenientHeader() -> ResearchKit.ResultHeader {
        func date(_ key: String) -> ResultDate? { value(key)?.stringValue.flatMap { ResultDate($0) } }
        return ResearchKit.ResultHeader(
            className: className, identifier: value("identifier")?.stringValue ?? "", startDate: date("startDate"),
            endDate: date("endDate"), userInfo: value("userInfo")?.objectValue)
    }
}
