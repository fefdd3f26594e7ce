import Foundation

/// The kind of ResearchKit recorder that wrote a log (`ORKRecorder` subclasses).
public enum RecorderKind: String, Sendable, Codable, CaseIterable {
    /// `ORKAccelerometerRecorder`: raw acceleration, gravity included, g.
    case accelerometer
    /// `ORKDeviceMotionRecorder`: CoreMotion fused attitude, rotation, gravity, user acceleration.
    case deviceMotion
    /// `ORKPedometerRecorder`: cumulative step counts.
    case pedometer
    /// `ORKLocationRecorder`: GPS fixes.
    case location
    /// `ORKTouchRecorder`: raw touches.
    case touch
    /// `ORKHealthQuantityTypeRecorder`: HealthKit samples such as heart rate.
    case healthQuantity
}

/// A time series of 3-D vectors, one column per axis (structure of arrays).
public struct Vector3Series: Sendable, Hashable, Codable {
    /// x components.
    public var x: [Double] = []
    /// y components.
    public var y: [Double] = []
    /// z components.
    public var z: [Double] = []

    /// Creates a series from its axes (equal lengths).
    public init(x: [Double] = [], y: [Double] = [], z: [Double] = []) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Number of samples.
    public var count: Int { x.count }
}

/// Accelerometer samples (`accel_*.json`): raw acceleration including gravity, device axes.
public struct AccelerometerLog: Sendable, Hashable, Codable {
    /// Sample times, s, in file order: seconds since device boot (CoreMotion uptime) for ResearchKit and
    /// mPower logs; for CSV input, whatever the time column counts from (Unix seconds when it holds epoch
    /// times, in which case ``timestampSince1970`` holds the same values).
    public var timestamp: [Double]
    /// Unix time of each sample, s (ResearchKit ≥ 3.2.0 only); nil when the file lacks it.
    public var timestampSince1970: [Double]?
    /// Acceleration along the device axes, in ``unit`` (ResearchKit: g, gravity included).
    public var acceleration: Vector3Series
    /// Unit of ``acceleration``: ResearchKit and mPower logs are in g.
    public var unit: AccelerationUnit = .g
    /// True when ``unit`` was given by an option or stated by the file (a unit in a column name or a units row):
    /// analyses then read the data in it whatever the magnitude suggests (a disagreement is only a warning).
    public var unitIsStated = false
    /// True when the acceleration has had gravity removed (linear or user acceleration: a mean vector near 0),
    /// as a reader found it (``AccelerometerCSVReader``); analyses that need gravity add it back and say so.
    public var gravityRemoved = false
    /// Angular velocity along the same device axes, rad/s, one sample per ``timestamp``, when the file has
    /// gyroscope columns beside the acceleration (``AccelerometerCSVReader``); nil otherwise.
    public var rotationRate: Vector3Series? = nil
}

/// Acceleration units a log can carry.
public enum AccelerationUnit: String, Sendable, Hashable, Codable {
    /// Standard gravity, 9.80665 m/s².
    case g
    /// Metres per second squared.
    case metersPerSecondSquared = "m/s^2"

    /// Factor converting this unit to g.
    public var toG: Double { self == .g ? 1 : 1 / 9.80665 }
}

/// Device-motion samples (`deviceMotion_*.json`), CoreMotion's sensor-fusion output.
public struct DeviceMotionLog: Sendable, Hashable, Codable {
    /// Seconds since device boot, per sample.
    public var timestamp: [Double]
    /// Unix time of each sample, s (ResearchKit ≥ 3.2.0 only).
    public var timestampSince1970: [Double]?
    /// Acceleration with gravity removed, g.
    public var userAcceleration: Vector3Series
    /// Gravity direction and magnitude, g.
    public var gravity: Vector3Series
    /// Bias-corrected rotation rate, rad/s.
    public var rotationRate: Vector3Series
    /// Attitude quaternion components (x, y, z, w) relative to CoreMotion's reference frame.
    public var attitude: Vector3Series
    /// Attitude quaternion scalar part w.
    public var attitudeW: [Double]
    /// Calibrated magnetic field, µT; nil when the log has none.
    public var magneticField: Vector3Series?
    /// Magnetic calibration accuracy (−1 uncalibrated, 0 low, 1 medium, 2 high) per sample.
    public var magneticFieldAccuracy: [Double]?
}

/// A decoded recorder log of any kind.
public enum RecorderLog: Sendable, Hashable {
    /// Accelerometer log.
    case accelerometer(AccelerometerLog)
    /// Device-motion log.
    case deviceMotion(DeviceMotionLog)
    /// Any other kind, kept as parsed items (pedometer, location, touch, HealthKit: small logs).
    case items(RecorderKind, [JSONObject])

    /// The recorder kind.
    public var kind: RecorderKind {
        switch self {
        case .accelerometer: .accelerometer
        case .deviceMotion: .deviceMotion
        case .items(let k, _): k
        }
    }

    /// Number of items (samples).
    public var count: Int {
        switch self {
        case .accelerometer(let a): a.timestamp.count
        case .deviceMotion(let d): d.timestamp.count
        case .items(_, let items): items.count
        }
    }
}

/// How the log was wrapped on disk.
public enum RecorderLogContainer: String, Sendable, Codable {
    /// `{"items":[…]}` — ResearchKit's `ORKDataLogger` and MyDataHelps.
    case itemsObject
    /// A bare `[…]` — Bridge/Synapse `*.json.items` column files (mPower).
    case bareArray
}

/// Decodes recorder logs straight into columns: motion logs never build per-item objects, so memory
/// is the samples kept (8 bytes per value), not JSON object overhead.
public enum RecorderLogDecoder {
    /// The result of decoding one log file.
    public struct Decoded: Sendable {
        /// The log.
        public var log: RecorderLog
        /// How it was wrapped.
        public var container: RecorderLogContainer
        /// Keys present in items that taskproc does not use (tolerated, reported once each).
        public var ignoredKeys: [String]
        /// `NaN`, `Infinity` and `-Infinity` literals read (not valid JSON; Python's `json` and pandas write them).
        public var nonFiniteLiterals = 0
        /// Samples dropped because one of their values was such a literal (a sample with a missing value).
        public var droppedItems = 0
    }

    /// Reads and decodes the log at `path`.
    /// - Parameter kind: the recorder kind if known (from the file name or `ORKFileResult`); detected from
    ///   the first item's keys when nil.
    /// - Throws: ``InputError`` naming the file, JSON path and what was expected.
    public static func decode(path: String, kind: RecorderKind? = nil) throws(InputError) -> Decoded {
        // Gzip-aware, so a compressed log decodes the same alone, in a task folder or under SurveyData/.
        let data = try DialectFiles.read(path: path)
        return try decode(data, file: path, kind: kind)
    }

    /// Decodes a log held in memory; `file` names it in errors.
    public static func decode(_ data: Data, file: String, kind: RecorderKind? = nil) throws(InputError) -> Decoded {
        if data.isEmpty { throw InputError(.syntax, file: file, expected: "a JSON recorder log", found: "an empty (0-byte) file") }
        let result: Result<Decoded, InputError> = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self), file: file)
            scanner.readsNonFinite = true
            do throws(InputError) {
                return .success(try decode(&scanner, kind: kind))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func decode(_ s: inout JSONScanner, kind: RecorderKind?) throws(InputError) -> Decoded {
        s.skipBOM()
        s.skipWhitespace()
        let container: RecorderLogContainer
        switch s.peek() {
        case UInt8(ascii: "["):
            container = .bareArray
        case UInt8(ascii: "{"):
            container = .itemsObject
            s.index += 1
            s.skipWhitespace()
            // Find the "items" key; tolerate (and skip) any other top-level keys.
            var found = false
            while !found {
                guard s.peek() == UInt8(ascii: "\"") else {
                    if s.peek() == UInt8(ascii: "}") {
                        throw InputError(.schema, file: s.file, location: "$", expected: "an \"items\" array", found: "an object without \"items\"")
                    }
                    throw s.error(expected: "a quoted object key", found: s.describeHere())
                }
                let key = try s.readString()
                s.skipWhitespace()
                guard s.peek() == UInt8(ascii: ":") else { throw s.error(expected: "':'", found: s.describeHere()) }
                s.index += 1
                s.skipWhitespace()
                if key == "items" {
                    found = true
                } else {
                    s.path.append(key)
                    try s.skipValue()
                    s.path.removeLast()
                    s.skipWhitespace()
                    if s.peek() == UInt8(ascii: ",") {
                        s.index += 1
                        s.skipWhitespace()
                    }
                }
            }
            s.path.append("items")
            guard s.peek() == UInt8(ascii: "[") else {
                let here = s.atEnd ? s.describeHere() : (try? s.readValue(depth: 1).summary) ?? s.describeHere()
                throw InputError(.schema, file: s.file, location: "$.items", expected: "an array", found: here)
            }
        case nil:
            throw s.error(expected: "a JSON recorder log", found: "only whitespace")
        default:
            throw s.error(expected: "'{\"items\":[…]}' or a bare '[…]' array of samples", found: s.describeHere())
        }

        // Detect the kind from the first item without consuming it.
        let arrayStart = s.index
        s.index += 1
        s.skipWhitespace()
        if s.peek() == UInt8(ascii: "]") {
            throw InputError(
                .unsupported, file: s.file, location: s.pathString, expected: "at least one sample",
                found: "an empty items array (the recorder logged nothing)")
        }
        let resolvedKind: RecorderKind
        if let kind {
            resolvedKind = kind
        } else {
            let probe = s.index
            let counted = s.nonFiniteLiterals
            s.path.append("[0]")
            let first = try s.readValue(depth: 2)
            s.path.removeLast()
            s.index = probe
            s.nonFiniteLiterals = counted  // the first item is read again below: count its literals once
            guard let object = first.objectValue else {
                throw InputError(.schema, file: s.file, location: s.pathString + "[0]", expected: "a sample object", found: first.summary)
            }
            resolvedKind = try detectKind(object, file: s.file, location: s.pathString + "[0]")
        }
        s.index = arrayStart

        var ignored = IgnoredKeys()
        var dropped = 0
        let log: RecorderLog
        switch resolvedKind {
        case .accelerometer:
            var columns = try readColumns(&s, schema: accelerometerSchema, ignored: &ignored)
            dropped = columns.dropped
            log = .accelerometer(
                AccelerometerLog(
                    timestamp: columns.take(0), timestampSince1970: columns.takeOptional(1),
                    acceleration: Vector3Series(x: columns.take(2), y: columns.take(3), z: columns.take(4))))
        case .deviceMotion:
            var c = try readColumns(&s, schema: deviceMotionSchema, ignored: &ignored)
            dropped = c.dropped
            let hasMagnetic = c.present[14] || c.present[15] || c.present[16]
            // magneticField is optional, but as a whole: x, y and z in every item or in none.
            if hasMagnetic, let missing = [14, 15, 16].first(where: { !c.present[$0] }) {
                throw InputError(
                    .schema, file: s.file, location: s.pathString + "[0]",
                    expected: "field \"\(deviceMotionSchema.columnNames[missing])\" (magneticField needs x, y and z)",
                    found: "an item without it")
            }
            log = .deviceMotion(
                DeviceMotionLog(
                    timestamp: c.take(0), timestampSince1970: c.takeOptional(1),
                    userAcceleration: Vector3Series(x: c.take(2), y: c.take(3), z: c.take(4)),
                    gravity: Vector3Series(x: c.take(5), y: c.take(6), z: c.take(7)),
                    rotationRate: Vector3Series(x: c.take(8), y: c.take(9), z: c.take(10)),
                    attitude: Vector3Series(x: c.take(11), y: c.take(12), z: c.take(13)), attitudeW: c.take(18),
                    magneticField: hasMagnetic ? Vector3Series(x: c.take(14), y: c.take(15), z: c.take(16)) : nil,
                    magneticFieldAccuracy: c.takeOptional(17)))
        default:
            let value = try s.readValue(depth: 1)
            var items: [JSONObject] = []
            for (k, item) in (value.arrayValue ?? []).enumerated() {
                guard let o = item.objectValue else {
                    throw InputError(.schema, file: s.file, location: s.pathString + "[\(k)]", expected: "a sample object", found: item.summary)
                }
                items.append(o)
            }
            log = .items(resolvedKind, items)
        }
        s.path.removeAll()
        // After the array: the closing brace of the container (and nothing else).
        s.skipWhitespace()
        if container == .itemsObject {
            while s.peek() == UInt8(ascii: ",") {
                s.index += 1
                s.skipWhitespace()
                _ = try s.readString()
                s.skipWhitespace()
                guard s.peek() == UInt8(ascii: ":") else { throw s.error(expected: "':'", found: s.describeHere()) }
                s.index += 1
                s.skipWhitespace()
                try s.skipValue()
                s.skipWhitespace()
            }
            guard s.peek() == UInt8(ascii: "}") else { throw s.error(expected: "'}' closing the log", found: s.describeHere()) }
            s.index += 1
            s.skipWhitespace()
        }
        guard s.atEnd else { throw s.error(expected: "end of document", found: s.describeHere()) }
        return Decoded(
            log: log, container: container, ignoredKeys: ignored.names, nonFiniteLiterals: s.nonFiniteLiterals,
            droppedItems: dropped)
    }

    /// Identifies the recorder from the keys of one item.
    static func detectKind(_ item: JSONObject, file: String, location: String) throws(InputError) -> RecorderKind {
        let keys = Set(item.keys)
        if keys.contains("userAcceleration") || keys.contains("rotationRate") || keys.contains("attitude") { return .deviceMotion }
        if keys.contains("numberOfSteps") { return .pedometer }
        if keys.contains("coordinate") || keys.contains("horizontalAccuracy") || keys.contains("altitude") { return .location }
        if keys.contains("phase") && keys.contains("index") { return .touch }
        if keys.contains("type") && keys.contains("value") && keys.contains("unit") { return .healthQuantity }
        if keys.isSuperset(of: ["x", "y", "z"]) && keys.contains("timestamp") { return .accelerometer }
        throw InputError(
            .unsupported, file: file, location: location,
            expected: "a recorder sample (accelerometer x/y/z/timestamp, deviceMotion, pedometer, location, touch or HealthKit)",
            found: "an object with keys \(item.keys.sorted().joined(separator: ", "))")
    }

    // MARK: Columnar decoding

    /// A field of the item schema: a numeric column or a nested object.
    final class SchemaNode: Sendable {
        let entries: [(key: [UInt8], column: Int?, child: SchemaNode?)]
        init(_ entries: [(String, Int?, SchemaNode?)]) {
            self.entries = entries.map { (Array($0.0.utf8), $0.1, $0.2) }
        }
    }

    struct Schema: Sendable {
        let root: SchemaNode
        let columnNames: [String]
        let required: [Bool]
    }

    static let accelerometerSchema = Schema(
        root: SchemaNode([("timestamp", 0, nil), ("timestampSince1970", 1, nil), ("x", 2, nil), ("y", 3, nil), ("z", 4, nil)]),
        columnNames: ["timestamp", "timestampSince1970", "x", "y", "z"],
        required: [true, false, true, true, true])

    static let deviceMotionSchema: Schema = {
        func v(_ a: Int) -> SchemaNode { SchemaNode([("x", a, nil), ("y", a + 1, nil), ("z", a + 2, nil)]) }
        return Schema(
            root: SchemaNode([
                ("timestamp", 0, nil), ("timestampSince1970", 1, nil), ("userAcceleration", nil, v(2)),
                ("gravity", nil, v(5)), ("rotationRate", nil, v(8)),
                ("attitude", nil, SchemaNode([("x", 11, nil), ("y", 12, nil), ("z", 13, nil), ("w", 18, nil)])),
                ("magneticField", nil, SchemaNode([("x", 14, nil), ("y", 15, nil), ("z", 16, nil), ("accuracy", 17, nil)])),
            ]),
            columnNames: [
                "timestamp", "timestampSince1970", "userAcceleration.x", "userAcceleration.y", "userAcceleration.z",
                "gravity.x", "gravity.y", "gravity.z", "rotationRate.x", "rotationRate.y", "rotationRate.z",
                "attitude.x", "attitude.y", "attitude.z", "magneticField.x", "magneticField.y", "magneticField.z",
                "magneticField.accuracy", "attitude.w",
            ],
            required: [true, false, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, true])
    }()

    struct Columns {
        var values: [[Double]]
        var present: [Bool]
        /// Items dropped for a non-finite value (``dropNonFinite()``).
        var dropped = 0
        /// Drops the items (rows) holding a non-finite value in a present column.
        mutating func dropNonFinite() {
            let columns = present.indices.filter { present[$0] }
            guard let first = columns.first else { return }
            let count = values[first].count
            let keep = (0..<count).filter { row in columns.allSatisfy { values[$0][row].isFinite } }
            guard keep.count < count else { return }
            dropped = count - keep.count
            for c in columns { values[c] = keep.map { values[c][$0] } }
        }
        mutating func take(_ c: Int) -> [Double] {
            let v = values[c]
            values[c] = []
            return v
        }
        mutating func takeOptional(_ c: Int) -> [Double]? { present[c] ? take(c) : nil }
    }

    struct IgnoredKeys {
        var names: [String] = []
        mutating func note(_ path: String) { if names.count < 64, !names.contains(path) { names.append(path) } }
    }

    /// Reads the items array into columns. Optional columns absent from every item come back absent;
    /// an optional column present in only some items is an error (the log is inconsistent).
    private static func readColumns(_ s: inout JSONScanner, schema: Schema, ignored: inout IgnoredKeys) throws(InputError)
        -> Columns
    {
        let n = schema.columnNames.count
        var columns = Columns(values: Array(repeating: [], count: n), present: Array(repeating: false, count: n))
        // Estimate capacity from the remaining bytes to avoid repeated growth (≈ 60 bytes per value).
        let estimate = max(16, (s.bytes.count - s.index) / (n * 24))
        for c in 0..<n { columns.values[c].reserveCapacity(estimate) }
        var seenInItem = [Bool](repeating: false, count: n)
        s.index += 1  // [
        var itemIndex = 0
        s.skipWhitespace()
        while true {
            s.skipWhitespace()
            guard s.peek() == UInt8(ascii: "{") else {
                s.path.append("[\(itemIndex)]")
                if s.atEnd { throw s.error(expected: "a sample object", found: s.describeHere()) }
                let v = try s.readValue(depth: 2)
                throw InputError(.schema, file: s.file, location: s.pathString, expected: "a sample object", found: v.summary)
            }
            for c in 0..<n { seenInItem[c] = false }
            try readObject(&s, node: schema.root, parent: nil, itemIndex: itemIndex, columns: &columns, seen: &seenInItem, ignored: &ignored)
            // Every required field must be in every item; optional ones in all or none.
            for c in 0..<n where !seenInItem[c] {
                if schema.required[c] || (itemIndex > 0 && columns.present[c]) {
                    throw InputError(
                        .schema, file: s.file, location: s.pathString + "[\(itemIndex)]", expected: "field \"\(schema.columnNames[c])\"",
                        found: "an item without it")
                }
            }
            if itemIndex == 0 {
                for c in 0..<n { columns.present[c] = seenInItem[c] }
            } else {
                for c in 0..<n where seenInItem[c] && !columns.present[c] {
                    throw InputError(
                        .schema, file: s.file, location: s.pathString + "[\(itemIndex)]",
                        expected: "the same fields as item 0", found: "\"\(schema.columnNames[c])\", which item 0 lacks")
                }
            }
            itemIndex += 1
            s.skipWhitespace()
            guard let c = s.peek() else { throw s.error(expected: "',' or ']'", found: s.describeHere()) }
            s.index += 1
            if c == UInt8(ascii: "]") { break }
            guard c == UInt8(ascii: ",") else {
                s.index -= 1
                throw s.error(expected: "',' or ']' after item \(itemIndex - 1)", found: s.describeHere())
            }
        }
        if s.nonFiniteLiterals > 0 { columns.dropNonFinite() }
        return columns
    }

    @inline(__always)
    private static func readObject(
        _ s: inout JSONScanner, node: SchemaNode, parent: Range<Int>?, itemIndex: Int, columns: inout Columns,
        seen: inout [Bool], ignored: inout IgnoredKeys
    ) throws(InputError) {
        // The parent key ("userAcceleration.") is built only for messages, never on the hot path: building it per
        // nested object cost two allocations per device-motion item. Schemas nest one level deep.
        let bytes = s.bytes
        func prefix() -> String {
            parent.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) + "." } ?? ""
        }
        s.index += 1  // {
        s.skipWhitespace()
        if s.peek() == UInt8(ascii: "}") {
            s.index += 1
            return
        }
        while true {
            s.skipWhitespace()
            guard s.peek() == UInt8(ascii: "\"") else { throw located(s, itemIndex, prefix(), s.error(expected: "a quoted key", found: s.describeHere())) }
            // Keys in recorder logs never contain escapes: compare raw bytes.
            let keyStart = s.index + 1
            var k = keyStart
            while k < s.bytes.count, s.bytes[k] != UInt8(ascii: "\""), s.bytes[k] != UInt8(ascii: "\\") { k += 1 }
            var match: (column: Int?, child: SchemaNode?)?
            var keyText: String
            if k < s.bytes.count, s.bytes[k] == UInt8(ascii: "\"") {
                let keyLength = k - keyStart
                for entry in node.entries where entry.key.count == keyLength {
                    var equal = true
                    for j in 0..<keyLength where s.bytes[keyStart + j] != entry.key[j] {
                        equal = false
                        break
                    }
                    if equal {
                        match = (entry.column, entry.child)
                        break
                    }
                }
                s.index = k + 1
                keyText = ""
            } else {
                keyText = try s.readString()
            }
            s.skipWhitespace()
            guard s.peek() == UInt8(ascii: ":") else { throw located(s, itemIndex, prefix(), s.error(expected: "':'", found: s.describeHere())) }
            s.index += 1
            s.skipWhitespace()
            if let match, let column = match.column {
                // A number: a digit or '-', or the NaN/Infinity literals the scanner reads and counts.
                guard let c = s.peek(), c &- 48 < 10 || c == UInt8(ascii: "-") || startsNonFinite(c) else {
                    let name = prefix() + String(decoding: UnsafeBufferPointer(rebasing: s.bytes[keyStart..<k]), as: UTF8.self)
                    s.path.append("[\(itemIndex)]")
                    s.path.append(contentsOf: name.split(separator: ".").map(String.init))
                    let found = s.atEnd ? s.describeHere() : ((try? s.readValue(depth: 3).summary) ?? s.describeHere())
                    if found.hasPrefix("string") || found.hasPrefix("null") || found.hasPrefix("boolean") || found.hasPrefix("object") || found.hasPrefix("array") {
                        throw InputError(.schema, file: s.file, location: s.pathString, expected: "a number", found: found)
                    }
                    throw s.error(expected: "a number", found: found)
                }
                let value: Double
                do {
                    value = try s.readNumber()
                } catch {
                    throw located(s, itemIndex, prefix(), error)
                }
                if seen[column] {
                    throw InputError(
                        .schema, file: s.file, location: s.pathString + "[\(itemIndex)]", expected: "each field once",
                        found: "\"\(prefix())\(String(decoding: UnsafeBufferPointer(rebasing: s.bytes[keyStart..<k]), as: UTF8.self))\" twice")
                }
                columns.values[column].append(value)
                seen[column] = true
            } else if let match, let child = match.child, s.peek() == UInt8(ascii: "{") {
                try readObject(&s, node: child, parent: keyStart..<k, itemIndex: itemIndex, columns: &columns, seen: &seen, ignored: &ignored)
            } else {
                if keyText.isEmpty { keyText = String(decoding: UnsafeBufferPointer(rebasing: s.bytes[keyStart..<k]), as: UTF8.self) }
                if match?.child != nil {
                    s.path.append("[\(itemIndex)]")
                    s.path.append(contentsOf: (prefix() + keyText).split(separator: ".").map(String.init))
                    let found = (try? s.readValue(depth: 3).summary) ?? s.describeHere()
                    throw InputError(.schema, file: s.file, location: s.pathString, expected: "an object", found: found)
                }
                ignored.note(prefix() + keyText)
                do {
                    try s.skipValue(depth: 3)
                } catch {
                    throw located(s, itemIndex, prefix(), error)
                }
            }
            s.skipWhitespace()
            guard let c = s.peek() else { throw located(s, itemIndex, prefix(), s.error(expected: "',' or '}'", found: s.describeHere())) }
            s.index += 1
            if c == UInt8(ascii: "}") { return }
            guard c == UInt8(ascii: ",") else {
                s.index -= 1
                throw located(s, itemIndex, prefix(), s.error(expected: "',' or '}'", found: s.describeHere()))
            }
        }
    }

    /// True for the first byte of `NaN` or `Infinity`.
    @inline(__always) static func startsNonFinite(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "N") || c == UInt8(ascii: "I")
    }

    /// Re-issues a syntax error with the item's path (the columnar reader does not maintain the path stack).
    private static func located(_ s: JSONScanner, _ itemIndex: Int, _ prefix: String, _ error: InputError) -> InputError {
        var e = error
        let (line, column) = s.lineColumn(s.index)
        let inner = prefix.isEmpty ? "" : "." + String(prefix.dropLast())
        e.location = s.pathString + "[\(itemIndex)]\(inner) (line \(line), column \(column))"
        return e
    }
}
