/// One HealthKit quantity sample (`HKQuantitySample`) as `ORKHealthQuantityTypeRecorder` writes it.
public struct HealthQuantitySample: Sendable, Hashable, Codable {
    /// The HealthKit type identifier, such as `HKQuantityTypeIdentifierHeartRate`.
    public var type: String
    /// Start of the measurement, with the writer's UTC offset.
    public var startDate: ResultDate
    /// End of the measurement (equal to the start for instantaneous samples such as heart rate).
    public var endDate: ResultDate
    /// The HealthKit unit string of ``value``, such as `count/min` (beats per minute).
    public var unit: String
    /// The quantity, in ``unit``.
    public var value: Double
    /// Name of the app or device that produced the sample; nil when absent.
    public var source: String?
    /// The sample's HealthKit metadata as recorded, nil when absent; not encoded by `Codable`.
    public var metadata: JSONObject? = nil

    private enum CodingKeys: String, CodingKey {
        case type, startDate, endDate, unit, value, source
    }

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - type: HealthKit type identifier.
    ///   - startDate: Start time.
    ///   - endDate: End time.
    ///   - unit: HealthKit unit string.
    ///   - value: The quantity in `unit`.
    ///   - source: Source name.
    ///   - metadata: HealthKit metadata.
    public init(
        type: String, startDate: ResultDate, endDate: ResultDate, unit: String, value: Double, source: String? = nil,
        metadata: JSONObject? = nil
    ) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.unit = unit
        self.value = value
        self.source = source
        self.metadata = metadata
    }
}

/// A decoded HealthKit quantity log (`HKQuantityTypeIdentifier…_*.json`, such as heart rate during a walk).
public struct HealthQuantityLog: Sendable, Hashable, Codable {
    /// The samples in file order.
    public var samples: [HealthQuantitySample]
    /// Oddities: `endDate` before `startDate`, `startDate` going backwards (samples are kept as recorded).
    public var issues: [RecorderItemIssue]
    /// Keys present in items that are not part of the schema (tolerated), each once.
    public var ignoredKeys: [String]

    /// Keys the decoder reads.
    static let knownKeys: Set<String> = ["type", "startDate", "endDate", "unit", "value", "source", "metadata"]

    /// Creates a log from decoded samples.
    ///
    /// - Parameters:
    ///   - samples: Samples in recorded order.
    ///   - issues: Oddities found.
    ///   - ignoredKeys: Unused keys.
    public init(samples: [HealthQuantitySample], issues: [RecorderItemIssue] = [], ignoredKeys: [String] = []) {
        self.samples = samples
        self.issues = issues
        self.ignoredKeys = ignoredKeys
    }

    /// Decodes HealthKit quantity items.
    ///
    /// Fields: `type` (non-empty string), `startDate`, `endDate` (date strings), `unit` (non-empty string), `value`
    /// (number) are required; `source` (string) and `metadata` (object) are optional.
    ///
    /// - Parameters:
    ///   - items: The log's items.
    ///   - file: The file name, for errors.
    ///   - itemsPath: JSON path of the items array: `$.items` or `$`.
    /// - Throws: ``InputError`` (`.schema`) naming the file and field path: a missing field, a wrong type, an
    ///   unparseable date, an empty type or unit.
    public init(items: [JSONObject], file: String, itemsPath: String = "$.items") throws(InputError) {
        var samples: [HealthQuantitySample] = []
        samples.reserveCapacity(items.count)
        var issues: [RecorderItemIssue] = []
        for (k, item) in items.enumerated() {
            let r = RecorderItemReader(object: item, file: file, path: "\(itemsPath)[\(k)]")
            let sample = HealthQuantitySample(
                type: try r.string("type", nonEmpty: true), startDate: try r.date("startDate"),
                endDate: try r.date("endDate"), unit: try r.string("unit", nonEmpty: true),
                value: try r.number("value"), source: try r.optionalString("source"),
                metadata: try r.optionalObject("metadata", shape: "of HealthKit metadata")?.object)
            if sample.endDate < sample.startDate {
                issues.append(
                    RecorderItemIssue(
                        .endBeforeStart, itemIndex: k, location: r.location("endDate"),
                        message: "endDate \(sample.endDate) is before startDate \(sample.startDate)"))
            }
            if let previous = samples.last, sample.startDate < previous.startDate {
                issues.append(
                    RecorderItemIssue(
                        .timeWentBackwards, itemIndex: k, location: r.location("startDate"),
                        message: "startDate \(sample.startDate) is earlier than item \(k - 1)'s \(previous.startDate)"))
            }
            samples.append(sample)
        }
        self.init(
            samples: samples, issues: issues, ignoredKeys: RecorderItems.unknownKeys(items, known: Self.knownKeys))
    }

    /// Reads and decodes the HealthKit quantity log at `path` (`{"items":[…]}` or a bare array).
    ///
    /// - Parameter path: The file.
    /// - Throws: ``InputError`` from reading, parsing or decoding.
    /// - Returns: The log.
    public static func decode(path: String) throws(InputError) -> HealthQuantityLog {
        let (items, itemsPath) = try RecorderItems.read(path: path, kind: .healthQuantity)
        return try HealthQuantityLog(items: items, file: path, itemsPath: itemsPath)
    }
}
