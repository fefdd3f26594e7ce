/// Typed access to the fields of one recorder item, throwing ``InputError``s that name the file, the JSON path of
/// the field (`$.items[12].numberOfSteps`), what was expected and what was found.
///
/// `null` counts as absent for optional fields and as the wrong type for required ones.
struct RecorderItemReader {
    /// The item.
    let object: JSONObject
    /// The file, for errors.
    let file: String
    /// JSON path of the item, such as `$.items[3]`.
    let path: String

    /// The text ResearchKit's date fields follow, for error messages.
    static let dateExpectation = "a date-time with UTC offset like 2024-05-02T10:11:00+0200 (yyyy-MM-dd'T'HH:mm:ssZ)"

    /// The range for values that must not be negative (distances, sizes, accuracies).
    static let nonNegative: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude

    /// JSON path of field `key`.
    func location(_ key: String) -> String { "\(path).\(key)" }

    /// The error for field `key`.
    func error(_ key: String, expected: String, found: String, message: String? = nil) -> InputError {
        InputError(.schema, file: file, location: location(key), expected: expected, found: found, message: message)
    }

    /// The value of `key`, nil when absent or null.
    func value(_ key: String) -> JSONValue? {
        guard let v = object[key] else { return nil }
        if case .null = v { return nil }
        return v
    }

    /// The value of a required field.
    func required(_ key: String) throws(InputError) -> JSONValue {
        if let v = value(key) { return v }
        let found = object[key] == nil ? "no such key (the item has \(keyList))" : "null"
        throw error(key, expected: "field \"\(key)\"", found: found)
    }

    private var keyList: String {
        object.keys.isEmpty
            ? "no keys" : "keys " + object.keys.prefix(8).joined(separator: ", ") + (object.keys.count > 8 ? ", …" : "")
    }

    // MARK: Numbers

    /// A required number, optionally within bounds.
    func number(_ key: String, in range: ClosedRange<Double>? = nil, meaning: String? = nil) throws(InputError)
        -> Double
    {
        try checkedNumber(key, try required(key), in: range, meaning: meaning)
    }

    /// An optional number, optionally within bounds.
    func optionalNumber(_ key: String, in range: ClosedRange<Double>? = nil, meaning: String? = nil) throws(InputError)
        -> Double?
    {
        guard let v = value(key) else { return nil }
        return try checkedNumber(key, v, in: range, meaning: meaning)
    }

    private func checkedNumber(_ key: String, _ v: JSONValue, in range: ClosedRange<Double>?, meaning: String?)
        throws(InputError)
        -> Double
    {
        var what = "a number"
        if let range {
            let (low, high) = (Self.text(range.lowerBound), Self.text(range.upperBound))
            if range.lowerBound == -.greatestFiniteMagnitude {
                what = "a number ≤ \(high)"
            } else if range.upperBound == .greatestFiniteMagnitude {
                what = range.lowerBound == 0 ? "a non-negative number" : "a number ≥ \(low)"
            } else {
                what = "a number in [\(low), \(high)]"
            }
        }
        let expected = meaning.map { "\(what) (\($0))" } ?? what
        guard let d = v.numberValue else { throw error(key, expected: expected, found: v.summary) }
        if let range, !range.contains(d) {
            throw error(key, expected: expected, found: v.summary, message: "\(key) out of range")
        }
        return d
    }

    /// A required integer (a JSON number with no fractional part), at least `minimum` when given.
    func integer(_ key: String, minimum: Int? = nil, meaning: String? = nil) throws(InputError) -> Int {
        try checkedInteger(key, try required(key), minimum: minimum, meaning: meaning)
    }

    /// An optional integer, at least `minimum` when given.
    func optionalInteger(_ key: String, minimum: Int? = nil, meaning: String? = nil) throws(InputError) -> Int? {
        guard let v = value(key) else { return nil }
        return try checkedInteger(key, v, minimum: minimum, meaning: meaning)
    }

    private func checkedInteger(_ key: String, _ v: JSONValue, minimum: Int?, meaning: String?) throws(InputError)
        -> Int
    {
        let what = minimum == 0 ? "a non-negative integer" : "an integer"
        let expected = meaning.map { "\(what) (\($0))" } ?? what
        guard let d = v.numberValue else { throw error(key, expected: expected, found: v.summary) }
        guard d == d.rounded(), abs(d) < 9.007_199_254_740_992e15 else {
            throw error(key, expected: expected, found: v.summary, message: "\(key) must be a whole number")
        }
        let n = Int(d)
        if let minimum, n < minimum {
            throw error(
                key, expected: expected, found: v.summary,
                message: minimum == 0 ? "\(key) cannot be negative" : "\(key) must be at least \(minimum)")
        }
        return n
    }

    // MARK: Strings and dates

    /// A required string; `nonEmpty` rejects "".
    func string(_ key: String, nonEmpty: Bool = false) throws(InputError) -> String {
        let v = try required(key)
        guard let s = v.stringValue else { throw error(key, expected: "a string", found: v.summary) }
        if nonEmpty, s.isEmpty { throw error(key, expected: "a non-empty string", found: v.summary) }
        return s
    }

    /// An optional string.
    func optionalString(_ key: String) throws(InputError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.stringValue else { throw error(key, expected: "a string", found: v.summary) }
        return s
    }

    /// A required ResearchKit date string.
    func date(_ key: String) throws(InputError) -> ResultDate {
        let v = try required(key)
        guard let s = v.stringValue else { throw error(key, expected: Self.dateExpectation, found: v.summary) }
        guard let d = ResultDate(s) else {
            throw error(key, expected: Self.dateExpectation, found: v.summary, message: "unparseable date")
        }
        return d
    }

    /// A nested object field as its own reader (path `…item.key`), nil when absent or null.
    func optionalObject(_ key: String, shape: String) throws(InputError) -> RecorderItemReader? {
        guard let v = value(key) else { return nil }
        guard let o = v.objectValue else { throw error(key, expected: "an object \(shape)", found: v.summary) }
        return RecorderItemReader(object: o, file: file, path: location(key))
    }

    /// Shortest text of a bound (`-90`, `0.5`).
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Shared plumbing of the item-log decoders.
enum RecorderItems {
    /// Reads the log at `path` as `kind` and returns its items and the JSON path of the items array.
    static func read(path: String, kind: RecorderKind) throws(InputError) -> (items: [JSONObject], itemsPath: String) {
        let decoded = try RecorderLogDecoder.decode(path: path, kind: kind)
        guard case .items(_, let items) = decoded.log else {
            throw InputError(
                .unsupported, file: path, expected: "a \(kind.rawValue) log",
                found: "a \(decoded.log.kind.rawValue) log")
        }
        return (items, decoded.container == .itemsObject ? "$.items" : "$")
    }

    /// Keys of `items` outside `known`, each once, in order of first appearance (at most 64).
    static func unknownKeys(_ items: [JSONObject], known: Set<String>) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for item in items {
            for key in item.keys where !known.contains(key) && names.count < 64 && seen.insert(key).inserted {
                names.append(key)
            }
        }
        return names
    }

    /// A number for issue messages (`80`, `12.5`).
    static func text(_ value: Double) -> String { RecorderItemReader.text(value) }
}
