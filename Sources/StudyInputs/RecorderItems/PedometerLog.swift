import Foundation

/// A decoded pedometer log (`pedometer_*.json`, `ORKPedometerRecorder`): cumulative `CMPedometerData` snapshots.
///
/// Each item covers `startDate` (the recording start) to `endDate`; `numberOfSteps`, `distance` (m) and the floor
/// counts are cumulative since `startDate`, so they should never decrease. Decreases (and times going backwards)
/// are listed in ``issues``, and the samples are kept exactly as recorded.
public struct PedometerLog: Sendable, Hashable, Codable {
    /// The snapshots in file order.
    public var samples: [PedometerSample]
    /// Oddities between items: cumulative decreases, `endDate` going backwards, `endDate` before `startDate`, and
    /// a `startDate` differing from the first item's.
    public var issues: [RecorderItemIssue]
    /// Keys present in items that are not part of the schema (tolerated), each once.
    public var ignoredKeys: [String]

    /// Keys the decoder reads.
    static let knownKeys: Set<String> = [
        "startDate", "endDate", "numberOfSteps", "distance", "floorsAscended", "floorsDescended",
    ]

    /// Creates a log from decoded samples.
    ///
    /// - Parameters:
    ///   - samples: Snapshots in recorded order.
    ///   - issues: Oddities found.
    ///   - ignoredKeys: Unused keys.
    public init(samples: [PedometerSample], issues: [RecorderItemIssue] = [], ignoredKeys: [String] = []) {
        self.samples = samples
        self.issues = issues
        self.ignoredKeys = ignoredKeys
    }

    /// Decodes pedometer items.
    ///
    /// Fields: `startDate`, `endDate` (`yyyy-MM-dd'T'HH:mm:ssZ`, required), `numberOfSteps` (non-negative integer,
    /// required), `distance` (m, ≥ 0, optional), `floorsAscended` / `floorsDescended` (non-negative integers,
    /// optional).
    ///
    /// - Parameters:
    ///   - items: The log's items (``RecorderLog/items(_:_:)``).
    ///   - file: The file name, for errors.
    ///   - itemsPath: JSON path of the items array: `$.items` for `{"items":[…]}`, `$` for a bare array.
    /// - Throws: ``InputError`` (`.schema`) naming the file and the field's path, e.g. `$.items[3].numberOfSteps`:
    ///   a missing or null required field, a wrong type, an unparseable date, a non-integer or negative count.
    public init(items: [JSONObject], file: String, itemsPath: String = "$.items") throws(InputError) {
        var samples: [PedometerSample] = []
        samples.reserveCapacity(items.count)
        var issues: [RecorderItemIssue] = []
        var firstStart: ResultDate?
        var (lastDistance, lastAscended, lastDescended): (Double?, Int?, Int?) = (nil, nil, nil)
        for (k, item) in items.enumerated() {
            let r = RecorderItemReader(object: item, file: file, path: "\(itemsPath)[\(k)]")
            let sample = PedometerSample(
                startDate: try r.date("startDate"), endDate: try r.date("endDate"),
                numberOfSteps: try r.integer("numberOfSteps", minimum: 0, meaning: "cumulative step count"),
                distance: try r.optionalNumber("distance", in: RecorderItemReader.nonNegative, meaning: "metres"),
                floorsAscended: try r.optionalInteger("floorsAscended", minimum: 0, meaning: "cumulative floors"),
                floorsDescended: try r.optionalInteger("floorsDescended", minimum: 0, meaning: "cumulative floors"))

            if sample.endDate < sample.startDate {
                issues.append(
                    RecorderItemIssue(
                        .endBeforeStart, itemIndex: k, location: r.location("endDate"),
                        message:
                            "endDate is \(RecorderItems.text(sample.startDate.date.timeIntervalSince(sample.endDate.date))) s before startDate"
                    ))
            }
            if let firstStart {
                if sample.startDate != firstStart {
                    issues.append(
                        RecorderItemIssue(
                            .startDateChanged, itemIndex: k, location: r.location("startDate"),
                            message: "startDate differs from item 0's by "
                                + "\(RecorderItems.text(sample.startDate.date.timeIntervalSince(firstStart.date))) s "
                                + "(each snapshot should start at the recording start; restarted recorder or merged logs?)"
                        ))
                }
            } else {
                firstStart = sample.startDate
            }
            if let previous = samples.last {
                if sample.endDate < previous.endDate {
                    issues.append(
                        RecorderItemIssue(
                            .timeWentBackwards, itemIndex: k, location: r.location("endDate"),
                            message:
                                "endDate is \(RecorderItems.text(previous.endDate.date.timeIntervalSince(sample.endDate.date))) s "
                                + "earlier than item \(k - 1)'s"))
                }
                func check(_ key: String, _ now: Double?, _ before: Double?) {
                    guard let now, let before, now < before else { return }
                    issues.append(
                        RecorderItemIssue(
                            .cumulativeDecrease, itemIndex: k, location: r.location(key),
                            message:
                                "cumulative \(key) decreased from \(RecorderItems.text(before)) to \(RecorderItems.text(now)) "
                                + "(item \(k - 1) → \(k)); kept as recorded"))
                }
                check("numberOfSteps", Double(sample.numberOfSteps), Double(previous.numberOfSteps))
                check("distance", sample.distance, lastDistance)
                check("floorsAscended", sample.floorsAscended.map(Double.init), lastAscended.map(Double.init))
                check("floorsDescended", sample.floorsDescended.map(Double.init), lastDescended.map(Double.init))
            }
            // A field may be missing from some snapshots: compare with the last one that had it.
            lastDistance = sample.distance ?? lastDistance
            lastAscended = sample.floorsAscended ?? lastAscended
            lastDescended = sample.floorsDescended ?? lastDescended
            samples.append(sample)
        }
        self.init(
            samples: samples, issues: issues, ignoredKeys: RecorderItems.unknownKeys(items, known: Self.knownKeys))
    }

    /// Reads and decodes the pedometer log at `path` (`{"items":[…]}` or a bare array).
    ///
    /// - Parameter path: The file.
    /// - Throws: ``InputError`` from reading, parsing or decoding.
    /// - Returns: The log.
    public static func decode(path: String) throws(InputError) -> PedometerLog {
        let (items, itemsPath) = try RecorderItems.read(path: path, kind: .pedometer)
        return try PedometerLog(items: items, file: path, itemsPath: itemsPath)
    }

    /// Steps in the last snapshot: the recording's total when no decrease was reported; nil for an empty log.
    public var finalStepCount: Int? { samples.last?.numberOfSteps }
}
