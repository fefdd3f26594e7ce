import Foundation
import StudyInputs
import TestSupport
import Testing

/// Absolute path of a recorder fixture in `Tests/Fixtures/recorders/` (no resource bundle).
private func recorderFixture(_ name: String) -> String { fixturePath("recorders/" + name) }

/// Parses a JSON array of objects written in a test.
private func items(_ json: String, file: String = "test.json") throws -> [JSONObject] {
    let value = try JSONParser.parse(Data(json.utf8), file: file)
    return try #require(value.arrayValue).map { try #require($0.objectValue) }
}

/// Epoch seconds of a ResearchKit date string.
private func epoch(_ text: String) throws -> Double {
    try #require(ResultDate(text)).timeIntervalSince1970
}

@Suite struct RecorderItemsTests {
    // MARK: - Fixtures in the documented shapes

    @Test func pedometerFixture() throws {
        let log = try PedometerLog.decode(path: recorderFixture("pedometer.json"))
        #expect(log.samples.map(\.numberOfSteps) == [4, 9, 15, 21])
        #expect(log.samples.map(\.distance) == [2.84, 6.3900000000000006, 10.649999999999999, 14.91])
        #expect(log.samples.map(\.floorsAscended) == [0, 0, 1, 1])
        #expect(log.samples.map(\.floorsDescended) == [0, 0, 0, 0])
        let start = try epoch("2024-05-02T10:11:00+0200")
        #expect(start == 1_714_637_460)
        #expect(log.samples.allSatisfy { $0.startDate.timeIntervalSince1970 == start })
        #expect(log.samples.map { $0.endDate.timeIntervalSince1970 - start } == [3, 6, 9, 12])
        #expect(log.issues.isEmpty && log.ignoredKeys.isEmpty)
        #expect(log.finalStepCount == 21)
    }

    @Test func locationFixture() throws {
        let log = try LocationLog.decode(path: recorderFixture("location.json"))
        #expect(log.samples.count == 4)
        let first = log.samples[0]
        #expect(first.timestamp.timeIntervalSince1970 == (try epoch("2024-05-02T10:11:01+0200")))
        #expect(first.timestamp.utcOffset == 7_200)
        #expect(first.latitude == 51.752021 && first.longitude == -1.2577263000000001)
        #expect(first.horizontalAccuracy == 5 && first.altitude == 72.400000000000006 && first.verticalAccuracy == 3)
        #expect(first.course == 87.5 && first.speed == 1.3200000000000001 && first.floor == nil)
        #expect(log.samples[1].floor == 1)
        // Item 2 has only a vertical fix; item 3 only a horizontal one (keys in another order).
        #expect(log.samples[2].latitude == nil && log.samples[2].altitude == 72.599999999999994)
        #expect(log.samples[3].latitude == 51.752031000000002 && log.samples[3].altitude == nil)
        #expect(log.samples[3].speed == nil && log.samples[3].course == nil)
        // Two fixes in the same second are not "backwards".
        #expect(log.issues.isEmpty && log.ignoredKeys.isEmpty)
    }

    @Test func touchFixture() throws {
        let log = try TouchLog.decode(path: recorderFixture("touch.json"))
        #expect(log.samples.map(\.phase) == [.began, .moved, .stationary, .began, .ended, .cancelled])
        #expect(log.samples.map(\.index) == [0, 0, 0, 1, 0, 1])
        #expect(log.samples[0].timestamp == 12_873.416274583334)
        #expect(log.samples[1].location == ViewPoint(x: 121, y: 302.5))
        #expect(log.samples.allSatisfy { $0.viewSize == ViewSize(width: 375, height: 667) })
        #expect(log.issues.isEmpty && log.ignoredKeys.isEmpty)
    }

    @Test func healthQuantityFixture() throws {
        let log = try HealthQuantityLog.decode(path: recorderFixture("HKQuantityTypeIdentifierHeartRate.json"))
        #expect(log.samples.map(\.value) == [78, 81.5, 84])
        #expect(log.samples.allSatisfy { $0.type == "HKQuantityTypeIdentifierHeartRate" && $0.unit == "count/min" })
        #expect(log.samples.map(\.source) == ["Apple Watch", "Apple Watch", nil])
        #expect(log.samples[1].metadata?["HKMetadataKeyHeartRateMotionContext"]?.numberValue == 2)
        #expect(log.samples[0].metadata == nil)
        #expect(log.samples[2].startDate.timeIntervalSince1970 == (try epoch("2024-05-02T10:11:14+0200")))
        #expect(log.issues.isEmpty && log.ignoredKeys.isEmpty)
        // Codable (for inspect output) leaves the free-form metadata out.
        let decoded = try JSONDecoder().decode(HealthQuantityLog.self, from: JSONEncoder().encode(log))
        #expect(decoded.samples.map(\.value) == [78, 81.5, 84] && decoded.samples[1].metadata == nil)
    }

    /// mPower/Bridge files are bare arrays: errors then point at `$[k]`.
    @Test func bareArrayFilesNameTheirItemsFromTheRoot() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pedometer-bare-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = #"{"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:03+0200","numberOfSteps":4}"#
        let bad = #"{"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:06+0200","numberOfSteps":"9"}"#
        try Data("[\(good),\(bad)]".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: InputError.self) { try PedometerLog.decode(path: path) }
        #expect(error?.location == "$[1].numberOfSteps" && error?.file == path)
        try Data("[\(good)]".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try PedometerLog.decode(path: path).samples.count == 1)
    }

    @Test func aFileOfAnotherKindFailsOnTheFirstMissingField() throws {
        let path = recorderFixture("touch.json")
        let error = #expect(throws: InputError.self) { try PedometerLog.decode(path: path) }
        #expect(error?.kind == .schema && error?.location == "$.items[0].startDate")
        #expect(error?.found?.hasPrefix("no such key") == true)
    }

    // MARK: - Semantics: reported, not fixed

    @Test func pedometerDecreasesAreReportedAndKept() throws {
        let log = try PedometerLog(
            items: try items(
                """
                [{"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:03+0200","numberOfSteps":10,"distance":7,"floorsAscended":2},
                 {"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:06+0200","numberOfSteps":20,"distance":14},
                 {"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:09+0200","numberOfSteps":15,"distance":10.5,"floorsAscended":1},
                 {"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:09+0200","numberOfSteps":25,"distance":18}]
                """), file: "p.json")
        #expect(log.samples.map(\.numberOfSteps) == [10, 20, 15, 25])  // as recorded
        #expect(log.issues.map(\.kind) == [.cumulativeDecrease, .cumulativeDecrease, .cumulativeDecrease])
        #expect(
            log.issues.map(\.location) == [
                "$.items[2].numberOfSteps", "$.items[2].distance", "$.items[2].floorsAscended",
            ])
        #expect(
            log.issues[0].message == "cumulative numberOfSteps decreased from 20 to 15 (item 1 → 2); kept as recorded")
        #expect(log.issues[1].message.contains("from 14 to 10.5"))
        // floorsAscended is compared with the last item that had it (item 0), across the item without it.
        #expect(log.issues[2].message.contains("from 2 to 1"))
        #expect(log.issues.allSatisfy { $0.itemIndex == 2 })
    }

    @Test func pedometerTimeOdditiesAreReported() throws {
        let log = try PedometerLog(
            items: try items(
                """
                [{"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:09+0200","numberOfSteps":1},
                 {"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:06+0200","numberOfSteps":2},
                 {"startDate":"2024-05-02T10:11:30+0200","endDate":"2024-05-02T10:11:20+0200","numberOfSteps":3}]
                """), file: "p.json")
        #expect(log.issues.map(\.kind) == [.timeWentBackwards, .endBeforeStart, .startDateChanged])
        #expect(
            log.issues[0].location == "$.items[1].endDate" && log.issues[0].message.hasPrefix("endDate is 3 s earlier"))
        #expect(log.issues[1].message == "endDate is 10 s before startDate")
        #expect(log.issues[2].location == "$.items[2].startDate" && log.issues[2].message.contains("by 30 s"))
    }

    @Test func locationInvalidMarkersAreDroppedWithAnIssue() throws {
        let log = try LocationLog(
            items: try items(
                """
                [{"timestamp":"2024-05-02T10:11:02Z","coordinate":{"latitude":1,"longitude":2},"horizontalAccuracy":-1,"speed":-1,"course":-1,"altitude":5,"verticalAccuracy":-1},
                 {"timestamp":"2024-05-02T10:11:01Z","coordinate":{"latitude":1,"longitude":2},"horizontalAccuracy":3,"speed":0}]
                """), file: "l.json")
        let first = log.samples[0]
        #expect(first.latitude == nil && first.longitude == nil && first.horizontalAccuracy == nil)
        #expect(first.altitude == nil && first.verticalAccuracy == nil && first.speed == nil && first.course == nil)
        #expect(log.samples[1].latitude == 1 && log.samples[1].speed == 0)
        #expect(
            log.issues.map(\.kind) == [
                .invalidMarkerDropped, .invalidMarkerDropped, .invalidMarkerDropped, .invalidMarkerDropped,
                .timeWentBackwards,
            ])
        #expect(
            log.issues[0].message
                == "horizontalAccuracy -1 is CoreLocation's invalid marker: decoded as absent, and the coordinate with it"
        )
        #expect(
            log.issues[1].location == "$.items[0].verticalAccuracy"
                && log.issues[1].message.hasSuffix("the altitude with it"))
        #expect(log.issues[4].location == "$.items[1].timestamp")
    }

    @Test func flatCoordinatesAreAccepted() throws {
        let log = try LocationLog(
            items: try items(#"[{"timestamp":"2024-05-02T10:11:02Z","latitude":-33.9,"longitude":151.2}]"#),
            file: "l.json")
        #expect(log.samples[0].latitude == -33.9 && log.samples[0].longitude == 151.2)
    }

    @Test func touchAndHealthTimeOdditiesAreReported() throws {
        let touches = try TouchLog(
            items: try items(
                #"[{"timestamp":10.5,"phase":0,"index":0,"x":1,"y":2,"width":3,"height":4},{"timestamp":10.25,"phase":3,"index":0,"x":1,"y":2,"width":3,"height":4,"force":0.5}]"#
            ),
            file: "t.json")
        #expect(touches.issues.map(\.kind) == [.timeWentBackwards])
        #expect(touches.issues[0].description == "$.items[1].timestamp: timestamp is 0.25 s earlier than item 0's")
        #expect(touches.ignoredKeys == ["force"])

        let health = try HealthQuantityLog(
            items: try items(
                #"[{"type":"T","startDate":"2024-05-02T10:11:09Z","endDate":"2024-05-02T10:11:08Z","unit":"count/min","value":80}]"#
            ),
            file: "h.json")
        #expect(health.issues.map(\.kind) == [.endBeforeStart] && health.issues[0].location == "$.items[0].endDate")
    }

    // MARK: - Bad input: precise errors

    /// One malformed item and what the error must say about it.
    struct BadItem: Sendable, CustomTestStringConvertible {
        let kind: RecorderKind
        let json: String
        let location: String
        let expected: String
        let fragment: String
        var testDescription: String { "\(kind.rawValue) \(location): \(fragment)" }
    }

    static let pedometerPrefix = #""startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:03+0200""#
    static let goodPedometer = "{\(pedometerPrefix),\"numberOfSteps\":4}"
    static let touchPrefix = #""timestamp":10.5,"width":375,"height":667"#

    static let badItems: [BadItem] = [
        BadItem(
            kind: .pedometer, json: "[\(goodPedometer),{\(pedometerPrefix),\"numberOfSteps\":\"12\"}]",
            location: "$.items[1].numberOfSteps", expected: "a non-negative integer (cumulative step count)",
            fragment: #"found string "12""#),
        BadItem(
            kind: .pedometer, json: "[{\(pedometerPrefix),\"numberOfSteps\":-3}]", location: "$.items[0].numberOfSteps",
            expected: "a non-negative integer (cumulative step count)", fragment: "numberOfSteps cannot be negative"),
        BadItem(
            kind: .pedometer, json: "[{\(pedometerPrefix),\"numberOfSteps\":12.5}]",
            location: "$.items[0].numberOfSteps",
            expected: "a non-negative integer (cumulative step count)", fragment: "numberOfSteps must be a whole number"
        ),
        BadItem(
            kind: .pedometer,
            json: #"[{"startDate":"yesterday","endDate":"2024-05-02T10:11:03+0200","numberOfSteps":1}]"#,
            location: "$.items[0].startDate",
            expected: "a date-time with UTC offset like 2024-05-02T10:11:00+0200 (yyyy-MM-dd'T'HH:mm:ssZ)",
            fragment: #"found string "yesterday": unparseable date"#),
        BadItem(
            kind: .pedometer,
            json: #"[{"startDate":"2024-05-02T10:11:00+0200","endDate":"2024-05-02T10:11:03","numberOfSteps":1}]"#,
            location: "$.items[0].endDate",
            expected: "a date-time with UTC offset like 2024-05-02T10:11:00+0200 (yyyy-MM-dd'T'HH:mm:ssZ)",
            fragment: "unparseable date"),
        BadItem(
            kind: .pedometer, json: "[\(goodPedometer),{\(pedometerPrefix)}]", location: "$.items[1].numberOfSteps",
            expected: #"field "numberOfSteps""#, fragment: "no such key (the item has keys startDate, endDate)"),
        BadItem(
            kind: .pedometer, json: "[{\(pedometerPrefix),\"numberOfSteps\":4,\"floorsAscended\":1.5}]",
            location: "$.items[0].floorsAscended", expected: "a non-negative integer (cumulative floors)",
            fragment: "floorsAscended must be a whole number"),
        BadItem(
            kind: .pedometer, json: "[{\(pedometerPrefix),\"numberOfSteps\":4,\"distance\":-2}]",
            location: "$.items[0].distance",
            expected: "a non-negative number (metres)", fragment: "distance out of range"),
        BadItem(
            kind: .location,
            json: #"[{"timestamp":"2024-05-02T10:11:02Z","coordinate":{"latitude":123.5,"longitude":2}}]"#,
            location: "$.items[0].coordinate.latitude", expected: "a number in [-90, 90] (latitude, degrees)",
            fragment: "found number 123.5: latitude out of range"),
        BadItem(
            kind: .location, json: #"[{"timestamp":"2024-05-02T10:11:02Z","coordinate":"51.7,-1.2"}]"#,
            location: "$.items[0].coordinate", expected: "an object {latitude, longitude}",
            fragment: #"found string "51.7,-1.2""#),
        BadItem(
            kind: .location, json: #"[{"timestamp":1714637460}]"#, location: "$.items[0].timestamp",
            expected: "a date-time with UTC offset like 2024-05-02T10:11:00+0200 (yyyy-MM-dd'T'HH:mm:ssZ)",
            fragment: "found number 1714637460"),
        BadItem(
            kind: .location, json: #"[{"timestamp":"2024-05-02T10:11:02Z","floor":1.5}]"#, location: "$.items[0].floor",
            expected: "an integer (floor level)", fragment: "floor must be a whole number"),
        BadItem(
            kind: .touch, json: "[{\(touchPrefix),\"phase\":7,\"index\":0,\"x\":1,\"y\":2}]",
            location: "$.items[0].phase",
            expected: "a UITouchPhase 0–4 (0 began, 1 moved, 2 stationary, 3 ended, 4 cancelled)",
            fragment: "unknown touch phase"),
        BadItem(
            kind: .touch, json: "[{\(touchPrefix),\"phase\":0,\"index\":-1,\"x\":1,\"y\":2}]",
            location: "$.items[0].index",
            expected: "a non-negative integer (touch index)", fragment: "index cannot be negative"),
        BadItem(
            kind: .touch, json: "[{\(touchPrefix),\"phase\":0,\"index\":0,\"x\":null,\"y\":2}]",
            location: "$.items[0].x",
            expected: #"field "x""#, fragment: "found null"),
        BadItem(
            kind: .healthQuantity,
            json:
                #"[{"type":"T","startDate":"2024-05-02T10:11:09Z","endDate":"2024-05-02T10:11:09Z","unit":"count/min","value":"78"}]"#,
            location: "$.items[0].value", expected: "a number", fragment: #"found string "78""#),
        BadItem(
            kind: .healthQuantity,
            json:
                #"[{"type":"","startDate":"2024-05-02T10:11:09Z","endDate":"2024-05-02T10:11:09Z","unit":"count/min","value":78}]"#,
            location: "$.items[0].type", expected: "a non-empty string", fragment: #"found string """#),
        BadItem(
            kind: .healthQuantity,
            json:
                #"[{"type":"T","startDate":"2024-02-30T25:00:00Z","endDate":"2024-05-02T10:11:09Z","unit":"count/min","value":78}]"#,
            location: "$.items[0].startDate",
            expected: "a date-time with UTC offset like 2024-05-02T10:11:00+0200 (yyyy-MM-dd'T'HH:mm:ssZ)",
            fragment: "unparseable date"),
        BadItem(
            kind: .healthQuantity,
            json:
                #"[{"type":"T","startDate":"2024-05-02T10:11:09Z","endDate":"2024-05-02T10:11:09Z","unit":"count/min","value":78,"metadata":[1]}]"#,
            location: "$.items[0].metadata", expected: "an object of HealthKit metadata", fragment: "found array of 1"),
    ]

    @Test(arguments: badItems)
    func badItemsGivePreciseErrors(_ bad: BadItem) throws {
        let parsed = try items(bad.json)
        let error = #expect(throws: InputError.self) {
            switch bad.kind {
            case .pedometer: _ = try PedometerLog(items: parsed, file: "bad.json")
            case .location: _ = try LocationLog(items: parsed, file: "bad.json")
            case .touch: _ = try TouchLog(items: parsed, file: "bad.json")
            default: _ = try HealthQuantityLog(items: parsed, file: "bad.json")
            }
        }
        let e = try #require(error)
        #expect(e.kind == .schema)
        #expect(e.file == "bad.json")
        #expect(e.location == bad.location)
        #expect(e.expected == bad.expected)
        #expect(e.description.contains(bad.fragment), "\(e.description)")
    }
}
