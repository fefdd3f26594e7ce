import Foundation
import SensorSignal

/// How a sensor table was read: its layout and where its times and units came from (``AccelerometerCSVReader``).
public struct TableReading: Sendable, Hashable, Codable {
    /// One line: delimiter, preamble, stated rate, label rows (``CSVDialect/summary``).
    public var layout: String
    /// The field delimiter (`comma`, `tab`, `semicolon`, `pipe (|)`, `spaces/tabs`).
    public var delimiter: String
    /// Lines skipped before the first record (a `sep=` line and the preamble).
    public var skippedLines: Int
    /// The skipped lines (at most 50, each cut at 200 characters).
    public var preamble: [String]
    /// Records under the header that hold labels (units, `CAL`), not data.
    public var labelRows: Int
    /// A sampling rate the preamble states, Hz.
    public var statedRate: Double?
    /// True when numbers are written with a decimal comma.
    public var decimalComma: Bool
    /// `column`, `sampleCounter`, `sampleRate` or `dateTime` (``AccelerometerCSVReader/TimeSource``).
    public var timeSource: String
    /// The column times (or sample numbers) come from.
    public var timeColumn: String?
    /// The time column's unit (`s` for times from a rate).
    public var timeUnit: String
    /// `option`, `file` or `detected` (``AccelerometerCSVReader/UnitSource``).
    public var timeUnitSource: String
    /// The sampling rate used for a counter or a table without time, Hz.
    public var sampleRate: Double?
    /// The x, y and z columns read.
    public var accelerationColumns: [String]
    /// The acceleration unit in the file (`g` or `m/s^2`).
    public var accelerationUnit: String
    /// `option`, `file` or `detected`.
    public var accelerationUnitSource: String
    /// The unit text the file states for the acceleration columns.
    public var statedAccelerationUnit: String?
    /// The app and device of an export that says so (`phyphox 1.1.11 on google Pixel 7`, ``PhyphoxExport``).
    public var exportedBy: String?
    /// The phone's clock at the export's first `START` (`2024-01-01 10:00:00.123 UTC+01:00`).
    public var startedAt: String?
    /// The runs of the experiment the samples were kept from (`meta/time.csv`), experiment time.
    public var segments: [Segment]?
    /// The x, y and z gyroscope columns read (``GyroscopeColumnNames``), nil when none was.
    public var gyroscopeColumns: [String]?
    /// The gyroscope unit in the file (`rad/s` or `deg/s`), nil when no gyroscope was read.
    public var gyroscopeUnit: String?
    /// `option`, `file` or `detected` (from the rotation of gravity, ``GyroscopeScale``).
    public var gyroscopeUnitSource: String?
    /// Samples outside ``segments``, dropped.
    public var droppedSamples: Int?

    /// One `START`…`PAUSE` run of a phyphox experiment.
    public struct Segment: Sendable, Hashable, Codable {
        /// `START`, s of experiment time.
        public var start: Double
        /// `PAUSE`, s; nil for a run the export ended without a `PAUSE`.
        public var end: Double?
    }
}

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
        /// The field delimiter; nil detects it (``CSVDialect``).
        public var delimiter: CSVDialect.Delimiter? = nil
        /// Lines before the header (a preamble) to skip; nil detects them (``CSVDialect``).
        public var skipLines: Int? = nil
        /// The sampling rate, Hz, for a table whose time is a sample counter or absent.
        ///
        /// Nil takes a rate the file's preamble states. Never used when the table has a time column.
        public var sampleRate: Double? = nil
        /// False reads the file as RFC 4180 from its first line (``CSVDialect/comma``), detecting nothing.
        public var detectsDialect = true
        /// The gyroscope's x, y and z columns; nil finds them by name (``GyroscopeColumnNames``) in a table with
        /// names, and reads none from a table without.
        public var gyroscopeColumns: [CSVColumnSelector]? = nil
        /// Unit of the gyroscope columns; nil takes the unit their names state, else detects it from how the
        /// accelerometer's gravity turns (``GyroscopeScale``).
        public var gyroscopeUnit: RotationRateUnit? = nil

        enum CodingKeys: String, CodingKey {
            case time, x, y, z, timeColumnChosen, accelerationColumnsChosen, header, columnNames, timeUnit
            case accelerationUnit, outputUnit, timeBase, extraColumns, delimiter, skipLines, sampleRate, detectsDialect
            case gyroscopeColumns, gyroscopeUnit
        }

        /// Decodes options, those added later than a saved run's description (`run.json`) taking their defaults,
        /// so that `batch --resume` of a run started by an earlier version reads it.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            time = try c.decode(CSVColumnSelector.self, forKey: .time)
            x = try c.decode(CSVColumnSelector.self, forKey: .x)
            y = try c.decode(CSVColumnSelector.self, forKey: .y)
            z = try c.decode(CSVColumnSelector.self, forKey: .z)
            timeColumnChosen = try c.decode(Bool.self, forKey: .timeColumnChosen)
            accelerationColumnsChosen = try c.decode(Bool.self, forKey: .accelerationColumnsChosen)
            header = try c.decode(CSVTable.HeaderMode.self, forKey: .header)
            columnNames = try c.decodeIfPresent([String].self, forKey: .columnNames)
            timeUnit = try c.decodeIfPresent(TimeUnit.self, forKey: .timeUnit)
            accelerationUnit = try c.decodeIfPresent(AccelerationUnit.self, forKey: .accelerationUnit)
            outputUnit = try c.decodeIfPresent(AccelerationUnit.self, forKey: .outputUnit)
            timeBase = try c.decodeIfPresent(TimeBase.self, forKey: .timeBase)
            extraColumns = try c.decode(ExtraColumns.self, forKey: .extraColumns)
            delimiter = try c.decodeIfPresent(CSVDialect.Delimiter.self, forKey: .delimiter)
            skipLines = try c.decodeIfPresent(Int.self, forKey: .skipLines)
            sampleRate = try c.decodeIfPresent(Double.self, forKey: .sampleRate)
            detectsDialect = try c.decodeIfPresent(Bool.self, forKey: .detectsDialect) ?? true
            gyroscopeColumns = try c.decodeIfPresent([CSVColumnSelector].self, forKey: .gyroscopeColumns)
            gyroscopeUnit = try c.decodeIfPresent(RotationRateUnit.self, forKey: .gyroscopeUnit)
        }

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

        /// WeAllWalk `iPhoneSensors_*.csv` files: no header, 41 columns, time (s) in column 1 and the raw
        /// accelerometer (g, gravity included) in columns 31–33 — what `taskproc analyze FILE --no-header
        /// --time-column 1 --acceleration-columns 31,32,33` reads (the default, columns 2–4, would read the attitude
        /// angles in rad).
        public static let weAllWalkIPhone = Options(
            time: .index(0), x: .index(30), y: .index(31), z: .index(32), header: .absent)

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
        /// How the file is written (delimiter, preamble, label rows, decimal comma).
        public var dialect = CSVDialect.comma
        /// Where the sample times come from.
        public var timeSource = TimeSource.column
        /// The column the times (or sample numbers) were read from, nil when there is none.
        public var timeColumn: String? = nil
        /// The sampling rate used for a counter or a table without time, Hz.
        public var sampleRate: Double? = nil
        /// Where ``timeUnit`` came from.
        public var timeUnitSource = UnitSource.detected
        /// Where ``recordedUnit`` came from.
        public var accelerationUnitSource = UnitSource.detected
        /// The unit text the file states for the acceleration columns, when it states one.
        public var statedAccelerationUnit: String? = nil
        /// Warnings about how the file was read (a unit that disagrees with the magnitude, an unused option, …).
        public var notes: [String] = []
        /// The names of the x, y and z columns read.
        public var accelerationColumns: [String] = []
        /// The names of the gyroscope columns read into ``AccelerometerLog/rotationRate``; empty when none.
        public var gyroscopeColumns: [String] = []
        /// The gyroscope unit in the file, nil when no gyroscope was read.
        public var gyroscopeUnit: RotationRateUnit? = nil
        /// Where ``gyroscopeUnit`` came from.
        public var gyroscopeUnitSource: UnitSource? = nil

        /// How the table was read, for `inspect`.
        public var reading: TableReading {
            TableReading(
                layout: dialect.summary, delimiter: dialect.delimiter.label, skippedLines: dialect.skipLines,
                preamble: dialect.preamble, labelRows: dialect.labelRows, statedRate: dialect.statedRate,
                decimalComma: dialect.decimalComma, timeSource: timeSource.rawValue, timeColumn: timeColumn,
                timeUnit: timeUnit.rawValue, timeUnitSource: timeUnitSource.rawValue, sampleRate: sampleRate,
                accelerationColumns: accelerationColumns, accelerationUnit: recordedUnit.rawValue,
                accelerationUnitSource: accelerationUnitSource.rawValue,
                statedAccelerationUnit: statedAccelerationUnit,
                gyroscopeColumns: gyroscopeColumns.isEmpty ? nil : gyroscopeColumns,
                gyroscopeUnit: gyroscopeUnit?.rawValue, gyroscopeUnitSource: gyroscopeUnitSource?.rawValue)
        }

        /// The extra column named `name` (matched as CSV headers are), or nil.
        public func extraColumn(named name: String) -> [Double]? {
            if let c = extraColumns.first(where: { $0.name == name }) { return c.values }
            return extraColumns.first { $0.name.lowercased() == name.lowercased() }?.values
        }
    }

    /// Where the sample times of a table come from.
    public enum TimeSource: String, Sendable, Hashable, Codable {
        /// A time column, in ``Output/timeUnit``.
        case column
        /// A sample-counter column (`PacketCounter`, `SampleNumber`, …) and the sampling rate: t = (n − n₀) / rate.
        case sampleCounter
        /// No time column: sample i is at i / rate.
        case sampleRate
        /// A time column of date-time text (``DateTimeText``: ISO 8601, MATLAB's `02-Dec-2025 11:00:00.020`), read
        /// as Unix seconds.
        case dateTime
    }

    /// Where a unit came from.
    public enum UnitSource: String, Sendable, Hashable, Codable {
        /// An option (`--time-unit`, `--acceleration-unit`): never overruled.
        case option
        /// The file: a unit in the column name (`(m/s^2)`, `[g]`) or in a units row; never overruled.
        case file
        /// The values (the median interval, the median |a|).
        case detected
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
        var dialect = CSVDialect.comma
        if options.detectsDialect {
            dialect = CSVDialect.detect(data, delimiter: options.delimiter, skipLines: options.skipLines).dialect
            // A header denied by the options has no label rows under it.
            if header == .absent { dialect.labelRows = 0 }
        }
        let table: CSVTable
        do throws(InputError) {
            table = try CSVTable.parse(data, file: file, header: header, dialect: dialect)
        } catch {
            throw dialectHint(error, dialect: dialect)
        }
        do throws(InputError) {
            return try decode(table, options: options)
        } catch {
            // One column: the delimiter (or a preamble) was not what the file uses.
            throw table.columnCount == 1 && options.detectsDialect ? dialectHint(error, dialect: dialect) : error
        }
    }

    /// A parse error with what detection saw and the options that say otherwise.
    static func dialectHint(_ error: InputError, dialect: CSVDialect) -> InputError {
        var error = error
        let hint =
            "read as \(dialect.summary); if that is wrong, say how the file is written: --delimiter "
            + "comma|tab|semicolon|pipe|whitespace, --skip-lines N (lines before the header)"
        error.message = error.message.map { $0 + "; " + hint } ?? hint
        return error
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
        let xc = try resolve(selected.x)
        let yc = try resolve(selected.y)
        let zc = try resolve(selected.z)
        var notes: [String] = []
        // The time column: chosen, found by name, a sample counter, or none (the rate then gives the times).
        var tc: Int? = nil
        var counts = false
        // A time column of date-time text (MATLAB Mobile's Timestamp, ISO 8601), as Unix seconds.
        var textTimes: (seconds: [Double], hasOffsets: Bool)?
        if options.timeColumnChosen {
            let chosen = try resolve(selected.time)
            tc = chosen
            if let names, chosen < names.count {
                counts = AccelerationColumnNames.counterNames.contains(
                    AccelerationColumnNames.normalised(names[chosen]))
            }
        } else if let names {
            let axes: Set<Int> = [xc, yc, zc]
            tc = AccelerationColumnNames.timeColumns(in: names).first {
                !axes.contains($0) && table.numbersIfAllNumeric(column: $0) != nil
            }
            if tc == nil {
                for c in AccelerationColumnNames.timeColumns(in: names) where !axes.contains(c) {
                    if let times = DateTimeText.column(table, c) {
                        tc = c
                        textTimes = times
                        break
                    }
                }
            }
            if tc == nil, let counter = AccelerationColumnNames.counterColumn(in: names), !axes.contains(counter) {
                tc = counter
                counts = true
            }
            if tc == nil, !axes.contains(0), table.numbersIfAllNumeric(column: 0) != nil {
                tc = 0  // unnamed: the first column, as ever
            }
        } else {
            tc = try resolve(selected.time)
        }
        var x = try table.numbers(column: xc)
        var y = try table.numbers(column: yc)
        var z = try table.numbers(column: zc)
        if textTimes == nil, options.timeColumnChosen, let c = tc { textTimes = DateTimeText.column(table, c) }
        var rawTime: [Double]? = textTimes?.seconds
        if rawTime == nil, let c = tc { rawTime = try table.numbers(column: c) }
        let rate = options.sampleRate ?? table.dialect.statedRate
        // A column of whole numbers rising by exactly 1 counts samples, when a rate says how fast.
        if let raw = rawTime, !counts, rate != nil, !options.timeColumnChosen || options.sampleRate != nil,
            isSampleCounter(raw), options.timeUnit == nil, tc.map(unitOfColumn) ?? nil == nil
        {
            counts = true
        }

        let timeSource: TimeSource
        let timeUnit: TimeUnit
        var timeUnitSource = UnitSource.detected
        let medianRaw: Double?
        let timestamp: [Double]
        if rawTime == nil || counts {
            guard let rate, rate.isFinite, rate > 0 else {
                let what =
                    tc.map { "column \"\(name($0))\" counts samples (whole numbers rising by 1), not time" }
                    ?? "the table has no time column"
                throw InputError(
                    .unsupported, file: table.file, location: tc.map { "column \($0 + 1)" },
                    expected: "a time column, or the sampling rate", found: what,
                    message: "give the sampling rate: --sample-rate HZ (or choose a time column: --time-column N)")
            }
            timeSource = rawTime == nil ? .sampleRate : .sampleCounter
            timeUnit = .seconds
            timeUnitSource = options.sampleRate != nil ? .option : .file
            timestamp = rawTime.map { Self.counterTimes($0, rate: rate) } ?? (0..<x.count).map { Double($0) / rate }
            medianRaw = 1 / rate
        } else {
            let raw = rawTime ?? []
            let column = tc ?? 0
            timeSource = textTimes == nil ? .column : .dateTime
            medianRaw = medianPositiveInterval(raw)
            if let given = options.timeUnit {
                timeUnit = given
                timeUnitSource = .option
            } else if let texts = textTimes {
                timeUnit = .seconds
                timeUnitSource = .file
                if !texts.hasOffsets {
                    notes.append(
                        "the times in column \"\(name(column))\" state no UTC offset: read as UTC (only their "
                            + "differences are used)")
                }
            } else if let stated = unitOfColumn(column).flatMap(AccelerationColumnNames.timeUnit(named:)) {
                timeUnit = stated
                timeUnitSource = .file
            } else {
                timeUnit = try detectTimeUnit(
                    medianRaw, rows: table.rowCount, table: table, column: column, name: name(column))
            }
            if options.sampleRate != nil {
                notes.append(
                    "--sample-rate not used: the times are read from column \"\(name(column))\" (choose "
                        + "--time-column for a counter)")
            }
            let perSecond = timeUnit.perSecond
            timestamp = perSecond == 1 ? raw : raw.map { $0 / perSecond }
        }
        let timeUnitDetected = timeUnitSource == .detected

        // Acceleration unit: an option, else what the file states, else the median |a|.
        var magnitudes = [Double](repeating: 0, count: x.count)
        for i in 0..<x.count { magnitudes[i] = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot() }
        let medianMagnitude = RStatistics.median(magnitudes)
        // XSens and Movella DOT write free acceleration (FreeAcc_X…) in m/s² by definition, with no unit in the name.
        func isFreeAcceleration(_ c: Int) -> Bool {
            guard let names, c < names.count else { return false }
            return AccelerationColumnNames.normalised(names[c]).hasPrefix("freeacc")
        }
        let freeAcceleration = [xc, yc, zc].allSatisfy(isFreeAcceleration)
        let statedTexts = [xc, yc, zc].map { unitOfColumn($0) ?? (freeAcceleration ? "m/s^2" : nil) }
        let statedUnits = statedTexts.map { $0.flatMap(AccelerationColumnNames.accelerationUnit(named:)) }
        let agreed = statedUnits.allSatisfy { $0 != nil && $0 == statedUnits[0] }
        let stated: AccelerationUnit? = agreed ? statedUnits[0] : nil
        let byMagnitude = UnitDetection.classify(medianMagnitude: medianMagnitude)
        let recordedUnit: AccelerationUnit
        let accelerationUnitSource: UnitSource
        if let given = options.accelerationUnit {
            recordedUnit = given
            accelerationUnitSource = .option
            if let stated, stated != given {
                notes.append(
                    "--acceleration-unit \(given.rawValue) used, although the file states \(stated.rawValue)")
            }
        } else if let stated {
            recordedUnit = stated
            accelerationUnitSource = .file
        } else if byMagnitude == .g {
            recordedUnit = .g
            accelerationUnitSource = .detected
        } else if byMagnitude == .metersPerSecondSquared {
            recordedUnit = .metersPerSecondSquared
            accelerationUnitSource = .detected
        } else {
            throw InputError(
                .unsupported, file: table.file, location: "columns \(xc + 1), \(yc + 1), \(zc + 1)",
                expected: "a median |a| near 1 (g) or 9.8 (m/s²)",
                found: "median |a| = \(ResultEncoding.number(medianMagnitude, digits: 4))"
                    + (gravityFree(x, y, z, medianMagnitude) ? " with a mean vector near 0 (gravity removed)" : ""),
                message: "acceleration unit is ambiguous; give it: --acceleration-unit g or --acceleration-unit m/s^2")
        }
        let isGravityFree = accelerationUnitSource != .detected && gravityFree(x, y, z, medianMagnitude)
        if accelerationUnitSource != .detected {
            if isGravityFree {
                notes.append(
                    "the acceleration looks gravity-free (linear or user acceleration: mean vector near 0, median "
                        + "|a| \(ResultEncoding.number(medianMagnitude, digits: 3)) \(recordedUnit.rawValue)); "
                        + "walking adds 1 g along the main axis of motion; other measures that assume gravity is "
                        + "included do not hold")
            } else if byMagnitude != .unknown, byMagnitude.rawValue != recordedUnit.rawValue {
                notes.append(
                    "acceleration is \(accelerationUnitSource == .option ? "given" : "stated") as "
                        + "\(recordedUnit.rawValue), but its median |a| \(ResultEncoding.number(medianMagnitude, digits: 4)) "
                        + "suggests \(byMagnitude.rawValue); read as \(recordedUnit.rawValue), as "
                        + (accelerationUnitSource == .option ? "given" : "stated"))
            }
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

        let gyroscope = try readGyroscope(
            table, names: names, options: options, excluding: Set([tc, xc, yc, zc].compactMap { $0 }),
            acceleration: (x, y, z), timestamps: timestamp, name: name, resolve: resolve)
        notes += gyroscope.notes

        // Extra columns.
        let used: Set<Int> = Set([tc, xc, yc, zc].compactMap { $0 } + gyroscope.columns)
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
        log.unitIsStated = accelerationUnitSource != .detected
        log.gravityRemoved = isGravityFree
        log.rotationRate = gyroscope.rotationRate
        var output = Output(
            log: log, extraColumns: extras, skippedColumns: skipped, columnNames: names, timeUnit: timeUnit,
            timeUnitDetected: timeUnitDetected, timeBase: timeBase, recordedUnit: recordedUnit,
            recordedUnitDetected: accelerationUnitSource == .detected,
            medianInterval: timeSource == .column ? medianRaw.map { $0 / timeUnit.perSecond } : medianRaw,
            medianMagnitude: medianMagnitude)
        output.dialect = table.dialect
        output.timeSource = timeSource
        output.timeColumn = tc.map(name)
        output.sampleRate = timeSource == .column || timeSource == .dateTime ? nil : rate
        output.timeUnitSource = timeUnitSource
        output.accelerationUnitSource = accelerationUnitSource
        output.statedAccelerationUnit = stated != nil ? statedTexts[0] : nil
        output.notes = notes
        output.accelerationColumns = [xc, yc, zc].map(name)
        if gyroscope.rotationRate != nil {
            output.gyroscopeColumns = gyroscope.columns.map(name)
            output.gyroscopeUnit = gyroscope.unit
            output.gyroscopeUnitSource = gyroscope.unitSource
        }
        return output

        /// The unit column `c` states: in its name, else in a label row (the last one naming a unit).
        func unitOfColumn(_ c: Int) -> String? {
            if let names, c < names.count, let unit = AccelerationColumnNames.statedUnit(names[c]) { return unit }
            for row in table.labelRecords.reversed() where c < row.count {
                let text = row[c].trimmingCharacters(in: .whitespaces)
                if AccelerationColumnNames.accelerationUnit(named: text) != nil
                    || AccelerationColumnNames.timeUnit(named: text) != nil
                {
                    return text
                }
            }
            return nil
        }
    }

    /// Scales ``GyroscopeScale`` gives for rad/s: 0.2–5 (1 is exact).
    public static let radiansPerSecondScales: ClosedRange<Double> = 0.2...5
    /// Scales ``GyroscopeScale`` gives for deg/s: 11.5–290 (180/π ≈ 57.3 is exact).
    public static let degreesPerSecondScales: ClosedRange<Double> = 11.5...290

    /// The gyroscope of a table: its columns (chosen, else found by name), unit (option, else stated, else
    /// detected) and samples in rad/s; no samples, with a note saying why, when its cells are not all numbers or its
    /// unit cannot be told.
    static func readGyroscope(
        _ table: CSVTable, names: [String]?, options: Options, excluding excluded: Set<Int>,
        acceleration: (x: [Double], y: [Double], z: [Double]), timestamps: [Double], name: (Int) -> String,
        resolve: (CSVColumnSelector) throws(InputError) -> Int
    ) throws(InputError) -> (
        rotationRate: Vector3Series?, columns: [Int], unit: RotationRateUnit?, unitSource: UnitSource?,
        notes: [String]
    ) {
        var columns: [Int]
        var values: [[Double]] = []
        var stated: RotationRateUnit?
        if let chosen = options.gyroscopeColumns {
            guard chosen.count == 3 else {
                throw InputError(
                    .unsupported, file: table.file, expected: "three gyroscope columns (x, y, z)",
                    found: "\(chosen.count) columns")
            }
            columns = []
            for selector in chosen { columns.append(try resolve(selector)) }
            for c in columns { values.append(try table.numbers(column: c)) }
            let units = columns.map { c in
                names.flatMap { c < $0.count ? GyroscopeColumnNames.statedUnit($0[c]) : nil }
            }
            stated = units.allSatisfy { $0 != nil && $0 == units[0] } ? units[0] : nil
        } else {
            guard let names, let found = GyroscopeColumnNames.columns(in: names, excluding: excluded) else {
                return (nil, [], nil, nil, [])
            }
            columns = [found.x, found.y, found.z]
            stated = found.unit
            for c in columns {
                guard let column = table.numbersIfAllNumeric(column: c) else {
                    return (
                        nil, [], nil, nil,
                        [
                            "gyroscope columns " + columns.map { "\"\(name($0))\"" }.joined(separator: ", ")
                                + " not read: column \"\(name(c))\" has cells that are not numbers"
                        ]
                    )
                }
                values.append(column)
            }
        }
        let label = columns.map { "\"\(name($0))\"" }.joined(separator: ", ")
        var notes: [String] = []
        let unit: RotationRateUnit
        let source: UnitSource
        if let given = options.gyroscopeUnit {
            unit = given
            source = .option
            if let stated, stated != given {
                notes.append("--gyroscope-unit \(given.rawValue) used, although the file states \(stated.rawValue)")
            }
        } else if let stated {
            unit = stated
            source = .file
        } else {
            let rate = medianPositiveInterval(timestamps).flatMap { $0 > 0 ? 1 / $0 : nil }
            let k = rate.flatMap { rate in
                GyroscopeScale.estimate(
                    acceleration: acceleration, rotationRate: (values[0], values[1], values[2]), samplingRate: rate)
            }
            let shown = k.map { ResultEncoding.number($0, digits: 3) } ?? "none"
            if let k, radiansPerSecondScales.contains(k) {
                unit = .radiansPerSecond
            } else if let k, degreesPerSecondScales.contains(k) {
                unit = .degreesPerSecond
            } else {
                notes.append(
                    "gyroscope columns \(label) not read: their unit is unclear (how they turn the accelerometer's "
                        + "gravity gives \(shown) units per rad/s; rad/s gives about 1, deg/s about 57); give it: "
                        + "--gyroscope-unit rad/s or --gyroscope-unit deg/s")
                return (nil, [], nil, nil, notes)
            }
            source = .detected
            notes.append(
                "gyroscope columns \(label) read as \(unit.rawValue): how they turn the accelerometer's gravity gives "
                    + "\(shown) units per rad/s (rad/s gives about 1, deg/s about 57); --gyroscope-unit states it")
        }
        let factor = unit.toRadiansPerSecond
        let scaled = factor == 1 ? values : values.map { $0.map { $0 * factor } }
        return (Vector3Series(x: scaled[0], y: scaled[1], z: scaled[2]), columns, unit, source, notes)
    }

    /// True for whole numbers that rise by exactly 1 from row to row (a sample counter), over at least 3 rows; a
    /// counter that wraps at 2¹⁶ (XSens `PacketCounter`) still counts.
    static func isSampleCounter(_ values: [Double]) -> Bool {
        guard values.count >= 3 else { return false }
        for i in 1..<values.count {
            let d = values[i] - values[i - 1]
            guard values[i] == values[i].rounded(), d == 1 || (d < 0 && values[i - 1] >= 65_535 - 1 && values[i] <= 1)
            else { return false }
        }
        return true
    }

    /// Times of a sample counter, s: (n − n₀) / rate, the counter unwrapped where it restarts after 2¹⁶ − 1 (XSens
    /// `PacketCounter`); a counter that skips numbers leaves a gap (lost packets), one that goes back otherwise is
    /// kept as written (hygiene reports it).
    static func counterTimes(_ counter: [Double], rate: Double) -> [Double] {
        guard let first = counter.first else { return [] }
        var offset = 0.0
        var out = [Double](repeating: 0, count: counter.count)
        for i in counter.indices {
            if i > 0, counter[i] < counter[i - 1], counter[i - 1] >= 65_000, counter[i] < 1_000 { offset += 65_536 }
            out[i] = (counter[i] + offset - first) / rate
        }
        return out
    }

    /// True when the acceleration has had gravity removed: its mean vector is small against its spread.
    static func gravityFree(_ x: [Double], _ y: [Double], _ z: [Double], _ medianMagnitude: Double) -> Bool {
        guard x.count >= 10 else { return false }
        let n = Double(x.count)
        let mean = (x.reduce(0, +) / n, y.reduce(0, +) / n, z.reduce(0, +) / n)
        let meanNorm = (mean.0 * mean.0 + mean.1 * mean.1 + mean.2 * mean.2).squareRoot()
        return meanNorm < 0.25 * max(medianMagnitude, 1e-12) || (meanNorm < 0.05 && medianMagnitude < 0.5)
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
            guard
                let (x, y, z) = AccelerationColumnNames.accelerationColumns(in: names)
                    ?? androidSensorEventValues(table, names: names)
            else {
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

    /// The `values[0]`, `values[1]`, `values[2]` columns of an Android `SensorEvent` dump, when they are acceleration.
    ///
    /// The table must say so: a sensor column (`sensor`, `sensorType`, `type`, `sensorName`) whose every value names an
    /// accelerometer (`android.sensor.accelerometer`, `TYPE_ACCELEROMETER`, `TYPE_LINEAR_ACCELERATION`, `1`,
    /// `10`, or a name with `accel`). Without such a column the values could be any sensor's: nil.
    static func androidSensorEventValues(_ table: CSVTable, names: [String]) -> (x: Int, y: Int, z: Int)? {
        // Letters and digits only, brackets included (`values[0]` → `values0`; the name normaliser would drop
        // `[0]` as a unit).
        let normalised = names.map { name in
            String(name.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        }
        func column(_ candidates: [String]) -> Int? { normalised.firstIndex { candidates.contains($0) } }
        guard let x = column(["values0", "value0"]), let y = column(["values1", "value1"]),
            let z = column(["values2", "value2"]),
            let sensor = column(["sensor", "sensortype", "type", "sensorname"]), table.rowCount > 0
        else { return nil }
        for row in 0..<table.rowCount {
            let value = table.string(row: row, column: sensor).lowercased()
            guard value == "1" || value == "10" || value.contains("accel") else { return nil }
        }
        return (x, y, z)
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
                message: "cannot detect the time unit; give it: --time-unit s, ms, us or ns")
        }
        let plausible = TimeUnit.allCases.filter { (0.0005...2.0).contains(d / $0.perSecond) }
        guard plausible.count == 1 else {
            let text = ResultEncoding.number(d, digits: 6)
            let units = plausible.map(\.rawValue).joined(separator: " and ")
            let fits = plausible.isEmpty ? "(fits no unit)" : "(fits \(units))"
            throw InputError(
                .unsupported, file: table.file, location: "column \(column + 1)",
                expected: "a median sampling interval of 0.5 ms to 2 s in exactly one of s, ms, µs, ns",
                found: "median interval \(text) \(fits)",
                message: "time unit is ambiguous; give it: --time-unit s, ms, us or ns"
                    + " (or, for a sample counter, --sample-rate HZ)")
        }
        return plausible[0]
    }

    /// Median of the positive differences between consecutive values, or nil when there are none.
    static func medianPositiveInterval(_ t: [Double]) -> Double? {
        guard t.count >= 2 else { return nil }
        var d: [Double] = []
        d.reserveCapacity(t.count - 1)
        for i in 1..<t.count where t[i] > t[i - 1] { d.append(t[i] - t[i - 1]) }
        return d.isEmpty ? nil : RStatistics.median(d)
    }
}
