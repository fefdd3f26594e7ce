import Foundation
import SensorSignal

/// Reads accelerometer tables from CSV (Oxford step-counter, Beiwe/forest, phone-logger exports) into an
/// ``AccelerometerLog``, detecting what the file does not say and reporting what it detected.
///
/// Detection rules (each applies only when the matching option is nil / `.detect`):
/// - **Header**: ``CSVTable/HeaderMode/detect`` — the first record is a header when a column holds text in
///   record 1 and a number in record 2.
/// - **Columns**, when not chosen (``Options/timeColumnChosen``, ``Options/accelerationColumnsChosen``):
///   - a table with a header (or ``Options/columnNames``) has its columns found by name
///     (``AccelerationColumnNames``): time by a time name, else column 1; x, y and z by acceleration names. A
///     table whose names spell no x, y and z acceleration (e.g. `t,red,green,blue`, or gyroscope, rotation,
///     attitude or magnetometer columns) is **refused** (`.schema` error naming the header and the accepted
///     names): its columns are not read as acceleration unless chosen explicitly;
///   - a header-less table of 4 columns or fewer is read as time, x, y, z (columns 1–4);
///   - a header-less table of **more than 4 columns is refused** (`.schema` error naming the column count and the
///     options to choose columns) unless it has, with certainty, the Oxford step-counter layout
///     (``OxfordLayout``: 7 columns, time whole numbers never decreasing, columns 5–7 cumulative whole-number
///     counters), which is read as columns 1–4. (A 41-column WeAllWalk file would otherwise be read from its
///     attitude angles in columns 2–4.)
/// - **Time unit**: from the median of the positive intervals between consecutive timestamps, `d` (raw
///   units). A unit is plausible when `d` in that unit is a sampling interval of 0.5 ms to 2 s (0.5 Hz to
///   2 kHz): seconds for `d` in [0.0005, 2], milliseconds [0.5, 2000], microseconds [500, 2·10⁶],
///   nanoseconds [5·10⁵, 2·10⁹]. Exactly one plausible unit is taken; none or two (a median near 1, 1000 or
///   10⁶, e.g. 1 Hz in seconds or 1 kHz in milliseconds) is an error asking for ``Options/timeUnit``.
///   At least two rows with increasing time are needed.
/// - **Acceleration unit**: from the median over samples of |a| = √(x²+y²+z²), which is close to 1 g while
///   gravity is included: a median in [0.5, 2] means g, in [4.9, 19.6] (0.5–2 g) means m/s²; anything else
///   (gravity removed, a different unit, a wrong column) is an error asking for ``Options/accelerationUnit``.
/// - **Time base**: timestamps (in seconds) between 2000-01-01 and 2100-01-01 are Unix time and are also
///   stored in ``AccelerometerLog/timestampSince1970``; others are a device clock (e.g. Android
///   nanoseconds since boot) and leave it nil.
///
/// Acceleration is converted only when ``Options/outputUnit`` asks for it; ``AccelerometerLog/unit`` always
/// states the unit of the stored values, and ``Output/recordedUnit`` the unit in the file.
public enum AccelerometerCSVReader {
    /// The unit of a CSV time column.
    public enum TimeUnit: String, Sendable, Hashable, Codable, CaseIterable {
        /// Seconds.
        case seconds = "s"
        /// Milliseconds.
        case milliseconds = "ms"
        /// Microseconds.
        case microseconds = "us"
        /// Nanoseconds.
        case nanoseconds = "ns"

        /// How many of this unit make one second (1, 10³, 10⁶, 10⁹).
        public var perSecond: Double {
            switch self {
            case .seconds: 1
            case .milliseconds: 1e3
            case .microseconds: 1e6
            case .nanoseconds: 1e9
            }
        }
    }

    /// What the time column counts from.
    public enum TimeBase: String, Sendable, Hashable, Codable {
        /// A device clock with an arbitrary origin (uptime, boot time).
        case deviceClock
        /// Unix time (seconds since 1970-01-01T00:00:00Z once converted).
        case unixEpoch
    }

    /// Which columns besides time, x, y and z to return as numbers.
    public enum ExtraColumns: Sendable, Hashable, Codable {
        /// None.
        case none
        /// Every other column whose cells are all finite numbers; text columns are listed in
        /// ``Output/skippedColumns``.
        case allNumeric
        /// Exactly these; each must be numeric in every row (an error names the first bad cell).
        case selected([CSVColumnSelector])
    }

    /// How to read a file; nil options are detected (see ``AccelerometerCSVReader``).
    public struct Options: Sendable, Hashable, Codable {
        /// The time column (default: found by name, else the first).
        public var time: CSVColumnSelector { didSet { timeColumnChosen = true } }
        /// The x-acceleration column (default: found by name, else the second).
        public var x: CSVColumnSelector { didSet { accelerationColumnsChosen = true } }
        /// The y-acceleration column (default: found by name, else the third).
        public var y: CSVColumnSelector { didSet { accelerationColumnsChosen = true } }
        /// The z-acceleration column (default: found by name, else the fourth).
        public var z: CSVColumnSelector { didSet { accelerationColumnsChosen = true } }
        /// True when the time column was given (to the initialiser or by setting ``time``) rather than left to
        /// detection.
        public private(set) var timeColumnChosen: Bool
        /// True when the acceleration columns were given (to the initialiser or by setting ``x``, ``y`` or ``z``)
        /// rather than left to detection; only then are columns that are not named for acceleration read as
        /// acceleration.
        public private(set) var accelerationColumnsChosen: Bool
        /// Whether the first record is a header.
        public var header: CSVTable.HeaderMode
        /// Names for the columns of a header-less file (used for selectors, extra columns and, like a header, to
        /// find the time and acceleration columns); giving them turns a `.detect` header mode into `.absent`.
        public var columnNames: [String]?
        /// Unit of the time column; nil detects it from the median interval.
        public var timeUnit: TimeUnit?
        /// Unit of the acceleration columns in the file; nil detects it from the median |a|.
        public var accelerationUnit: AccelerationUnit?
        /// Unit to store; nil keeps the file's unit (no rescaling).
        public var outputUnit: AccelerationUnit?
        /// What the time column counts from; nil detects it from the timestamps' magnitude.
        public var timeBase: TimeBase?
        /// Which other columns to return.
        public var extraColumns: ExtraColumns

        /// Creates options; every parameter has the detecting default.
        ///
        /// A nil column is detected (see ``AccelerometerCSVReader``): by name when the file has a header or
        /// `columnNames`, else by position (time 1, x 2, y 3, z 4 — refused for a header-less file of more than
        /// four columns unless it has the Oxford step-counter layout).
        public init(
            time: CSVColumnSelector? = nil, x: CSVColumnSelector? = nil, y: CSVColumnSelector? = nil,
            z: CSVColumnSelector? = nil, header: CSVTable.HeaderMode = .detect, columnNames: [String]? = nil,
            timeUnit: TimeUnit? = nil, accelerationUnit: AccelerationUnit? = nil, outputUnit: AccelerationUnit? = nil,
            timeBase: TimeBase? = nil, extraColumns: ExtraColumns = .allNumeric
        ) {
            self.time = time ?? .index(0)
            self.x = x ?? .index(1)
            self.y = y ?? .index(2)
            self.z = z ?? .index(3)
            timeColumnChosen = time != nil
            accelerationColumnsChosen = x != nil || y != nil || z != nil
            self.header = header
            self.columnNames = columnNames
            self.timeUnit = timeUnit
            self.accelerationUnit = accelerationUnit
            self.outputUnit = outputUnit
            self.timeBase = timeBase
            self.extraColumns = extraColumns
        }

        /// Oxford step-counter validation files: no header; `timestamp_ns_since_boot, accx, accy, accz`
        /// (m/s², gravity included), then the cumulative counts `steps_algo, steps_ground_truth,
        /// steps_hw_counter` as extra columns.
        public static let oxfordStepCounter = Options(
            header: .absent,
            columnNames: [
                "timestamp_ns_since_boot", "accx", "accy", "accz", "steps_algo", "steps_ground_truth",
                "steps_hw_counter",
            ], timeUnit: .nanoseconds, accelerationUnit: .metersPerSecondSquared, timeBase: .deviceClock)

        /// Beiwe accelerometer files (as used by forest/oak): header `timestamp, UTC time, accuracy, x, y, z`,
        /// Unix milliseconds and g.
        public static let beiwe = Options(
            time: "timestamp", x: "x", y: "y", z: "z", header: .present, timeUnit: .milliseconds,
            accelerationUnit: .g, timeBase: .unixEpoch)
    }

    /// A numeric column returned alongside the log.
    public struct NumericColumn: Sendable, Hashable {
        /// Header name, the ``Options/columnNames`` entry, or `column N` (1-based).
        public var name: String
        /// 0-based column index in the file.
        public var index: Int
        /// Values in row order, as written (no unit conversion).
        public var values: [Double]
    }

    /// A decoded file and how it was interpreted.
    public struct Output: Sendable {
        /// The samples in file order (not sorted): timestamps in s (in the file's time base), acceleration
        /// in ``AccelerometerLog/unit``.
        public var log: AccelerometerLog
        /// Extra numeric columns, such as Oxford's cumulative `steps_ground_truth`.
        public var extraColumns: [NumericColumn]
        /// Names of columns left out of ``extraColumns`` because some cell is not a number.
        public var skippedColumns: [String]
        /// Column names (header, or ``Options/columnNames``), nil when neither exists.
        public var columnNames: [String]?
        /// Unit of the time column.
        public var timeUnit: TimeUnit
        /// True when ``timeUnit`` was detected rather than given.
        public var timeUnitDetected: Bool
        /// What the time column counts from.
        public var timeBase: TimeBase
        /// Unit of acceleration in the file.
        public var recordedUnit: AccelerationUnit
        /// True when ``recordedUnit`` was detected rather than given.
        public var recordedUnitDetected: Bool
        /// Median positive interval between consecutive timestamps, s; nil with fewer than two increasing
        /// timestamps.
        public var medianInterval: Double?
        /// Median |a| over samples, in ``recordedUnit``.
        public var medianMagnitude: Double

        /// The extra column named `name` (matched as CSV headers are), or nil.
        public func extraColumn(named name: String) -> [Double]? {
            if let c = extraColumns.first(where: { $0.name == name }) { return c.values }
            return extraColumns.first { $0.name.lowercased() == name.lowercased() }?.values
        }
    }

    /// Reads the CSV (or `.csv.gz`) file at `path`.
    /// - Throws: ``InputError``: CSV syntax (`.syntax`), missing column, non-numeric cell, columns not named for
    ///   acceleration or a wide header-less table without chosen columns (`.schema`, at `line L, column C` or
    ///   `line L`), undecidable time or acceleration unit, or no data rows (`.unsupported`).
    public static func read(path: String, options: Options = Options()) throws(InputError) -> Output {
        try decode(try DialectFiles.read(path: path), file: path, options: options)
    }

    /// Decodes CSV bytes held in memory; `file` names them in errors.
    public static func decode(_ data: Data, file: String, options: Options = Options()) throws(InputError) -> Output {
        var header = options.header
        if header == .detect, options.columnNames != nil { header = .absent }
        let table = try CSVTable.parse(data, file: file, header: header)
        return try decode(table, options: options)
    }

    /// Decodes a parsed table.
    public static func decode(_ table: CSVTable, options: Options = Options()) throws(InputError) -> Output {
        guard table.rowCount > 0 else {
            throw InputError(
                .unsupported, file: table.file, location: table.headerLine.map { "line \($0)" },
                expected: "at least one data row", found: "only a header")
        }
        let names = table.header ?? options.columnNames
        func resolve(_ s: CSVColumnSelector) throws(InputError) -> Int {
            if case .name(let n) = s, table.header == nil, let names {
                guard let c = names.firstIndex(of: n) ?? names.firstIndex(where: { $0.lowercased() == n.lowercased() })
                else { throw table.missingColumn([n]) }
                guard c < table.columnCount else { return try table.columnIndex(.index(c)) }
                return c
            }
            return try table.columnIndex(s)
        }
        func name(_ c: Int) -> String { names.map { c < $0.count ? $0[c] : "column \(c + 1)" } ?? "column \(c + 1)" }

        let selected = try selectColumns(table, names: names, options: options)
        let tc = try resolve(selected.time)
        let xc = try resolve(selected.x)
        let yc = try resolve(selected.y)
        let zc = try resolve(selected.z)
        let rawTime = try table.numbers(column: tc)
        var x = try table.numbers(column: xc)
        var y = try table.numbers(column: yc)
        var z = try table.numbers(column: zc)

        // Time unit.
        let medianRaw = medianPositiveInterval(rawTime)
        let timeUnit: TimeUnit
        let timeUnitDetected = options.timeUnit == nil
        if let given = options.timeUnit {
            timeUnit = given
        } else {
            timeUnit = try detectTimeUnit(medianRaw, rows: table.rowCount, table: table, column: tc, name: name(tc))
        }
        let perSecond = timeUnit.perSecond
        let timestamp = perSecond == 1 ? rawTime : rawTime.map { $0 / perSecond }

        // Acceleration unit.
        var magnitudes = [Double](repeating: 0, count: x.count)
        for i in 0..<x.count { magnitudes[i] = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot() }
        let medianMagnitude = median(&magnitudes)
        let recordedUnit: AccelerationUnit
        if let given = options.accelerationUnit {
            recordedUnit = given
        } else if UnitDetection.classify(medianMagnitude: medianMagnitude) == .g {
            recordedUnit = .g
        } else if UnitDetection.classify(medianMagnitude: medianMagnitude) == .metersPerSecondSquared {
            recordedUnit = .metersPerSecondSquared
        } else {
            throw InputError(
                .unsupported, file: table.file, location: "columns \(xc + 1), \(yc + 1), \(zc + 1)",
                expected: "a median |a| near 1 (g) or 9.8 (m/s²)",
                found: "median |a| = \(ResultEncoding.number(medianMagnitude, digits: 4))",
                message: "acceleration unit is ambiguous; set the accelerationUnit option (g or m/s²)")
        }
        let storedUnit = options.outputUnit ?? recordedUnit
        if storedUnit != recordedUnit {
            let factor = storedUnit == .g ? 1 / 9.80665 : 9.80665
            for i in 0..<x.count {
                x[i] *= factor
                y[i] *= factor
                z[i] *= factor
            }
        }

        // Time base.
        let timeBase: TimeBase
        if let given = options.timeBase {
            timeBase = given
        } else {
            let first = timestamp.first ?? 0
            timeBase = (946_684_800.0...4_102_444_800.0).contains(first) ? .unixEpoch : .deviceClock
        }

        // Extra columns.
        let used: Set<Int> = [tc, xc, yc, zc]
        var extras: [NumericColumn] = []
        var skipped: [String] = []
        switch options.extraColumns {
        case .none:
            break
        case .allNumeric:
            for c in 0..<table.columnCount where !used.contains(c) {
                if let values = table.numbersIfAllNumeric(column: c) {
                    extras.append(NumericColumn(name: name(c), index: c, values: values))
                } else {
                    skipped.append(name(c))
                }
            }
        case .selected(let selectors):
            for s in selectors {
                let c = try resolve(s)
                extras.append(NumericColumn(name: name(c), index: c, values: try table.numbers(column: c)))
            }
        }

        var log = AccelerometerLog(
            timestamp: timestamp, timestampSince1970: timeBase == .unixEpoch ? timestamp : nil,
            acceleration: Vector3Series(x: x, y: y, z: z))
        log.unit = storedUnit
        return Output(
            log: log, extraColumns: extras, skippedColumns: skipped, columnNames: names, timeUnit: timeUnit,
            timeUnitDetected: timeUnitDetected, timeBase: timeBase, recordedUnit: recordedUnit,
            recordedUnitDetected: options.accelerationUnit == nil,
            medianInterval: medianRaw.map { $0 / perSecond }, medianMagnitude: medianMagnitude)
    }

    /// The column rules of the type documentation: the options with the time and acceleration columns that were
    /// not given found by name (header or ``Options/columnNames``).
    /// - Throws: ``InputError`` of kind `.schema` when a named table has no acceleration columns by name, or a
    ///   header-less table of more than four columns has no given columns and not the Oxford layout.
    static func selectColumns(_ table: CSVTable, names: [String]?, options: Options) throws(InputError) -> Options {
        var selected = options
        if let names {
            if !options.timeColumnChosen, let t = AccelerationColumnNames.timeColumn(in: names) {
                selected.time = .index(t)
            }
            guard !options.accelerationColumnsChosen else { return selected }
            guard let (x, y, z) = AccelerationColumnNames.accelerationColumns(in: names) else {
                throw notAcceleration(table, names: names)
            }
            selected.x = .index(x)
            selected.y = .index(y)
            selected.z = .index(z)
            return selected
        }
        if table.columnCount > 4, !options.accelerationColumnsChosen, !OxfordLayout.matches(table) {
            throw ambiguousColumns(table)
        }
        return selected
    }

    /// The error for a named table none of whose columns is named for acceleration.
    static func notAcceleration(_ table: CSVTable, names: [String]) -> InputError {
        let shown = names.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
        let more = names.count > 12 ? ", … (\(names.count) columns)" : ""
        return InputError(
            .schema, file: table.file, location: table.headerLine.map { "line \($0)" },
            expected: "x, y and z acceleration columns named " + AccelerationColumnNames.summary,
            found: (table.header == nil ? "column names " : "a header ") + shown + more,
            message:
                "the columns are not named for acceleration (another quantity, such as rotation, attitude, a "
                + "magnetometer or a PPG colour, must not be counted as steps); if they are acceleration, choose them "
                + "explicitly (taskproc: --acceleration-columns X,Y,Z)")
    }

    /// The error for a header-less table of more than four columns whose time and acceleration columns are not
    /// certain.
    static func ambiguousColumns(_ table: CSVTable) -> InputError {
        let n = table.columnCount
        return InputError(
            .schema, file: table.file, location: "line \(table.rowCount > 0 ? table.line(ofRow: 0) : 1)",
            expected: "a header naming the columns, or the time and x, y, z acceleration columns chosen explicitly",
            found: "a header-less table of \(n) columns",
            message:
                "which of the \(n) columns hold time and acceleration is not certain (columns 2–4 may be another "
                + "quantity); choose them: taskproc --no-header --time-column N --acceleration-columns X,Y,Z with "
                + "1-based numbers from 1 to \(n) (e.g. --time-column 1 --acceleration-columns 2,3,4), or the "
                + "x, y, z and time options of AccelerometerCSVReader.Options")
    }

    /// The plausible-interval rule of the type documentation.
    static func detectTimeUnit(_ medianRaw: Double?, rows: Int, table: CSVTable, column: Int, name: String)
        throws(InputError) -> TimeUnit
    {
        guard let d = medianRaw else {
            throw InputError(
                .unsupported, file: table.file, location: "column \(column + 1)",
                expected: "at least two rows with increasing time in \"\(name)\"",
                found: rows == 1 ? "a single data row" : "no increasing timestamps",
                message: "cannot detect the time unit; set the timeUnit option")
        }
        let plausible = TimeUnit.allCases.filter { (0.0005...2.0).contains(d / $0.perSecond) }
        guard plausible.count == 1 else {
            let text = ResultEncoding.number(d, digits: 6)
            throw InputError(
                .unsupported, file: table.file, location: "column \(column + 1)",
                expected: "a median sampling interval of 0.5 ms to 2 s in exactly one of s, ms, µs, ns",
                found:
                    "median interval \(text) \(plausible.isEmpty ? "(fits no unit)" : "(fits " + plausible.map(\.rawValue).joined(separator: " and ") + ")")",
                message: "time unit is ambiguous; set the timeUnit option")
        }
        return plausible[0]
    }

    /// Median of the positive differences between consecutive values, or nil when there are none.
    static func medianPositiveInterval(_ t: [Double]) -> Double? {
        guard t.count >= 2 else { return nil }
        var d: [Double] = []
        d.reserveCapacity(t.count - 1)
        for i in 1..<t.count where t[i] > t[i - 1] { d.append(t[i] - t[i - 1]) }
        return d.isEmpty ? nil : median(&d)
    }

    /// Median (mean of the two middle values for even counts); reorders `v`.
    static func median(_ v: inout [Double]) -> Double {
        guard !v.isEmpty else { return .nan }
        v.sort()
        let m = v.count / 2
        return v.count % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2
    }
}
