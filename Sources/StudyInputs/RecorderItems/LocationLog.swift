/// One location fix (`CLLocation`) as `ORKLocationRecorder` writes it.
///
/// ResearchKit writes a field only when CoreLocation marks it valid, so every measurement is optional.
public struct LocationSample: Sendable, Hashable, Codable {
    /// Wall-clock time of the fix (second precision in ResearchKit logs), with the writer's UTC offset.
    public var timestamp: ResultDate
    /// Latitude, degrees north (WGS 84), in [−90, 90]; nil when the horizontal fix is invalid.
    public var latitude: Double?
    /// Longitude, degrees east (WGS 84), in [−180, 180]; nil when the horizontal fix is invalid.
    public var longitude: Double?
    /// Radius of the horizontal uncertainty, m (≥ 0).
    public var horizontalAccuracy: Double?
    /// Altitude above mean sea level, m; nil when the vertical fix is invalid.
    public var altitude: Double?
    /// Vertical uncertainty, m (≥ 0).
    public var verticalAccuracy: Double?
    /// Direction of travel, degrees clockwise from true north, in [0, 360].
    public var course: Double?
    /// Speed, m/s (≥ 0).
    public var speed: Double?
    /// Building floor level (integer, may be negative); nil when unknown.
    public var floor: Int?

    /// Creates a fix.
    ///
    /// - Parameters:
    ///   - timestamp: Time of the fix.
    ///   - latitude: Degrees north.
    ///   - longitude: Degrees east.
    ///   - horizontalAccuracy: m.
    ///   - altitude: m.
    ///   - verticalAccuracy: m.
    ///   - course: Degrees from true north.
    ///   - speed: m/s.
    ///   - floor: Floor level.
    public init(
        timestamp: ResultDate, latitude: Double? = nil, longitude: Double? = nil, horizontalAccuracy: Double? = nil,
        altitude: Double? = nil, verticalAccuracy: Double? = nil, course: Double? = nil, speed: Double? = nil,
        floor: Int? = nil
    ) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.floor = floor
    }
}

/// A decoded location log (`location_*.json`, `ORKLocationRecorder`).
public struct LocationLog: Sendable, Hashable, Codable {
    /// The fixes in file order.
    public var samples: [LocationSample]
    /// Oddities: timestamps going backwards, and CoreLocation "invalid" markers (negative accuracy, course or
    /// speed) that were decoded as absent.
    public var issues: [RecorderItemIssue]
    /// Keys present in items that are not part of the schema (tolerated), each once.
    public var ignoredKeys: [String]

    /// Keys the decoder reads.
    static let knownKeys: Set<String> = [
        "timestamp", "coordinate", "latitude", "longitude", "horizontalAccuracy", "altitude", "verticalAccuracy",
        "course", "speed", "floor",
    ]

    /// Creates a log from decoded fixes.
    ///
    /// - Parameters:
    ///   - samples: Fixes in recorded order.
    ///   - issues: Oddities found.
    ///   - ignoredKeys: Unused keys.
    public init(samples: [LocationSample], issues: [RecorderItemIssue] = [], ignoredKeys: [String] = []) {
        self.samples = samples
        self.issues = issues
        self.ignoredKeys = ignoredKeys
    }

    /// Decodes location items.
    ///
    /// Fields: `timestamp` (date string, required); `coordinate` {`latitude` [−90, 90], `longitude` [−180, 180]}
    /// degrees (both required inside it; flat `latitude`/`longitude` keys are accepted when there is no
    /// `coordinate`); `horizontalAccuracy`, `altitude`, `verticalAccuracy` (m), `course` (degrees, ≤ 360),
    /// `speed` (m/s) numbers; `floor` integer. All but `timestamp` are optional.
    ///
    /// CoreLocation marks invalid values with a negative number (−1). ResearchKit omits them, but other writers
    /// may not: a negative `horizontalAccuracy` drops the coordinate with it, a negative `verticalAccuracy` drops
    /// the altitude, a negative `course` or `speed` drops itself; each drop is listed in ``issues``.
    ///
    /// - Parameters:
    ///   - items: The log's items.
    ///   - file: The file name, for errors.
    ///   - itemsPath: JSON path of the items array: `$.items` or `$`.
    /// - Throws: ``InputError`` (`.schema`) naming the file and field path: missing `timestamp`, wrong types, an
    ///   unparseable date, a coordinate out of range, a course above 360, a non-integer floor.
    public init(items: [JSONObject], file: String, itemsPath: String = "$.items") throws(InputError) {
        var samples: [LocationSample] = []
        samples.reserveCapacity(items.count)
        var issues: [RecorderItemIssue] = []
        for (k, item) in items.enumerated() {
            let r = RecorderItemReader(object: item, file: file, path: "\(itemsPath)[\(k)]")
            var sample = LocationSample(timestamp: try r.date("timestamp"))
            let coordinate = try r.optionalObject("coordinate", shape: "{latitude, longitude}")
            if let coordinate {
                sample.latitude = try coordinate.number("latitude", in: -90...90, meaning: "latitude, degrees")
                sample.longitude = try coordinate.number("longitude", in: -180...180, meaning: "longitude, degrees")
            } else {
                sample.latitude = try r.optionalNumber("latitude", in: -90...90, meaning: "latitude, degrees")
                sample.longitude = try r.optionalNumber("longitude", in: -180...180, meaning: "longitude, degrees")
                if (sample.latitude == nil) != (sample.longitude == nil) {
                    let missing = sample.latitude == nil ? "latitude" : "longitude"
                    throw r.error(missing, expected: "latitude and longitude together", found: "only one of them")
                }
            }
            sample.horizontalAccuracy = try r.optionalNumber("horizontalAccuracy", meaning: "m")
            sample.altitude = try r.optionalNumber("altitude", meaning: "m")
            sample.verticalAccuracy = try r.optionalNumber("verticalAccuracy", meaning: "m")
            sample.course = try r.optionalNumber(
                "course", in: -.greatestFiniteMagnitude...360, meaning: "degrees from true north")
            sample.speed = try r.optionalNumber("speed", meaning: "m/s")
            sample.floor = try r.optionalInteger("floor", meaning: "floor level")

            func dropInvalid(_ key: String, _ value: Double?, also: String? = nil) -> Bool {
                guard let value, value < 0 else { return false }
                issues.append(
                    RecorderItemIssue(
                        .invalidMarkerDropped, itemIndex: k, location: r.location(key),
                        message:
                            "\(key) \(RecorderItems.text(value)) is CoreLocation's invalid marker: decoded as absent"
                            + (also.map { ", and \($0) with it" } ?? "")))
                return true
            }
            if dropInvalid(
                "horizontalAccuracy", sample.horizontalAccuracy, also: sample.latitude == nil ? nil : "the coordinate")
            {
                sample.horizontalAccuracy = nil
                sample.latitude = nil
                sample.longitude = nil
            }
            if dropInvalid(
                "verticalAccuracy", sample.verticalAccuracy, also: sample.altitude == nil ? nil : "the altitude")
            {
                sample.verticalAccuracy = nil
                sample.altitude = nil
            }
            if dropInvalid("course", sample.course) { sample.course = nil }
            if dropInvalid("speed", sample.speed) { sample.speed = nil }

            if let previous = samples.last, sample.timestamp < previous.timestamp {
                issues.append(
                    RecorderItemIssue(
                        .timeWentBackwards, itemIndex: k, location: r.location("timestamp"),
                        message: "timestamp \(sample.timestamp) is earlier than item \(k - 1)'s \(previous.timestamp)"))
            }
            samples.append(sample)
        }
        self.init(
            samples: samples, issues: issues, ignoredKeys: RecorderItems.unknownKeys(items, known: Self.knownKeys))
    }

    /// Reads and decodes the location log at `path` (`{"items":[…]}` or a bare array).
    ///
    /// - Parameter path: The file.
    /// - Throws: ``InputError`` from reading, parsing or decoding.
    /// - Returns: The log.
    public static func decode(path: String) throws(InputError) -> LocationLog {
        let (items, itemsPath) = try RecorderItems.read(path: path, kind: .location)
        return try LocationLog(items: items, file: path, itemsPath: itemsPath)
    }
}
