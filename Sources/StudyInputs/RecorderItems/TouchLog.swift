/// The phase of a touch (`UITouchPhase`), as ResearchKit's touch recorder writes it (an integer 0–4).
public enum TouchPhase: Int, Sendable, Hashable, Codable, CaseIterable {
    /// 0: a finger touched the screen.
    case began = 0
    /// 1: a finger moved.
    case moved = 1
    /// 2: a finger is touching but has not moved.
    case stationary = 2
    /// 3: a finger lifted.
    case ended = 3
    /// 4: the system cancelled the touch.
    case cancelled = 4
}

/// One touch event from `ORKTouchRecorder`.
public struct TouchSample: Sendable, Hashable, Codable {
    /// Event time, s since device boot (`UITouch.timestamp`, the uptime clock).
    public var timestamp: Double
    /// The touch's phase.
    public var phase: TouchPhase
    /// Index of the touch among those tracked (0-based).
    public var index: Int
    /// Touch position in the step's view, points.
    public var location: ViewPoint
    /// The view's bounds, points (`width`, `height`).
    public var viewSize: ViewSize

    /// Creates a touch event.
    ///
    /// - Parameters:
    ///   - timestamp: s since boot.
    ///   - phase: The phase.
    ///   - index: Touch index (≥ 0).
    ///   - location: Position, points.
    ///   - viewSize: View bounds, points.
    public init(timestamp: Double, phase: TouchPhase, index: Int, location: ViewPoint, viewSize: ViewSize) {
        self.timestamp = timestamp
        self.phase = phase
        self.index = index
        self.location = location
        self.viewSize = viewSize
    }
}

/// A decoded touch log (`touch_*.json`, `ORKTouchRecorder`).
public struct TouchLog: Sendable, Hashable, Codable {
    /// The events in file order.
    public var samples: [TouchSample]
    /// Oddities: timestamps going backwards (events are kept in file order).
    public var issues: [RecorderItemIssue]
    /// Keys present in items that are not part of the schema (tolerated), each once.
    public var ignoredKeys: [String]

    /// Keys the decoder reads.
    static let knownKeys: Set<String> = ["timestamp", "phase", "index", "x", "y", "width", "height"]

    /// Creates a log from decoded events.
    ///
    /// - Parameters:
    ///   - samples: Events in recorded order.
    ///   - issues: Oddities found.
    ///   - ignoredKeys: Unused keys.
    public init(samples: [TouchSample], issues: [RecorderItemIssue] = [], ignoredKeys: [String] = []) {
        self.samples = samples
        self.issues = issues
        self.ignoredKeys = ignoredKeys
    }

    /// Decodes touch items.
    ///
    /// Fields (all required): `timestamp` (s since boot, number), `phase` (integer 0–4, `UITouchPhase`), `index`
    /// (non-negative integer), `x`, `y` (points), `width`, `height` (points, ≥ 0).
    ///
    /// - Parameters:
    ///   - items: The log's items.
    ///   - file: The file name, for errors.
    ///   - itemsPath: JSON path of the items array: `$.items` or `$`.
    /// - Throws: ``InputError`` (`.schema`) naming the file and field path: a missing field, a wrong type, a
    ///   phase outside 0–4, a negative or fractional index, a negative size.
    public init(items: [JSONObject], file: String, itemsPath: String = "$.items") throws(InputError) {
        var samples: [TouchSample] = []
        samples.reserveCapacity(items.count)
        var issues: [RecorderItemIssue] = []
        for (k, item) in items.enumerated() {
            let r = RecorderItemReader(object: item, file: file, path: "\(itemsPath)[\(k)]")
            let timestamp = try r.number("timestamp", meaning: "s since boot")
            let phaseNumber = try r.integer("phase", meaning: "UITouchPhase")
            guard let phase = TouchPhase(rawValue: phaseNumber) else {
                throw r.error(
                    "phase", expected: "a UITouchPhase 0–4 (0 began, 1 moved, 2 stationary, 3 ended, 4 cancelled)",
                    found: r.value("phase")?.summary ?? "\(phaseNumber)", message: "unknown touch phase")
            }
            let sample = TouchSample(
                timestamp: timestamp, phase: phase, index: try r.integer("index", minimum: 0, meaning: "touch index"),
                location: ViewPoint(x: try r.number("x", meaning: "points"), y: try r.number("y", meaning: "points")),
                viewSize: ViewSize(
                    width: try r.number("width", in: RecorderItemReader.nonNegative, meaning: "points"),
                    height: try r.number("height", in: RecorderItemReader.nonNegative, meaning: "points")))
            if let previous = samples.last, sample.timestamp < previous.timestamp {
                issues.append(
                    RecorderItemIssue(
                        .timeWentBackwards, itemIndex: k, location: r.location("timestamp"),
                        message:
                            "timestamp is \(RecorderItems.text(previous.timestamp - sample.timestamp)) s earlier than "
                            + "item \(k - 1)'s"))
            }
            samples.append(sample)
        }
        self.init(
            samples: samples, issues: issues, ignoredKeys: RecorderItems.unknownKeys(items, known: Self.knownKeys))
    }

    /// Reads and decodes the touch log at `path` (`{"items":[…]}` or a bare array).
    ///
    /// - Parameter path: The file.
    /// - Throws: ``InputError`` from reading, parsing or decoding.
    /// - Returns: The log.
    public static func decode(path: String) throws(InputError) -> TouchLog {
        let (items, itemsPath) = try RecorderItems.read(path: path, kind: .touch)
        return try TouchLog(items: items, file: path, itemsPath: itemsPath)
    }
}
