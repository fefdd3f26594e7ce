import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

extension AccelerometerCSVReader.TimeUnit: ExpressibleByArgument {}
extension AccelerationUnit: ExpressibleByArgument {}
extension RotationRateUnit: ExpressibleByArgument {}

/// Options for reading generic accelerometer CSV files, shared by the commands that load inputs.
struct CSVInputOptions: ParsableArguments {
    @Option(help: "CSV time column: a 1-based number or a header name (default: by header name, else column 1).")
    var timeColumn: String?

    @Option(
        help: """
            CSV x, y and z columns, comma-separated 1-based numbers or names (default: by acceleration header names \
            such as x/y/z, ax, acc_x, accel_x, userAcceleration.x; a header naming none is refused; a header-less \
            file of up to 4 columns is read as t,x,y,z; one of more columns needs this option, except the Oxford \
            step-counter layout).
            """)
    var accelerationColumns: String?

    @Option(help: "Unit of the CSV time column: s, ms, us or ns (default: detected from the median interval).")
    var timeUnit: AccelerometerCSVReader.TimeUnit?

    @Option(help: "Unit of the CSV acceleration columns: g or m/s^2 (default: detected from the resting magnitude).")
    var accelerationUnit: AccelerationUnit?

    @Option(
        help: """
            CSV gyroscope x, y and z columns, comma-separated 1-based numbers or names, read for turns (default: by \
            gyroscope header names such as gyr_x, gyro_x, rotationRate.x; none from a header-less file).
            """)
    var gyroscopeColumns: String?

    @Option(
        help: """
            Unit of the CSV gyroscope columns: rad/s or deg/s (default: the unit their names state, else detected \
            from how the accelerometer's gravity turns, with a warning).
            """)
    var gyroscopeUnit: RotationRateUnit?

    @Flag(help: "The CSV has no header row (default: detected).")
    var noHeader = false

    @Option(
        help: """
            Field delimiter of the table: comma, tab, semicolon, pipe or whitespace (default: detected; a first \
            line sep=X names it).
            """)
    var delimiter: String?

    @Option(help: "Lines before the header to skip (a preamble; default: detected).")
    var skipLines: Int?

    @Option(
        help: """
            Sampling rate, Hz, of a table whose time column is a sample counter (PacketCounter, SampleNumber, ...) \
            or that has no time column (default: a rate the file's preamble states).
            """)
    var sampleRate: Double?

    @OptionGroup(title: "Input limits")
    var limits: InputLimitOptions

    func validate() throws {
        if let columns = accelerationColumns, columns.split(separator: ",").count != 3 {
            throw ValidationError("--acceleration-columns needs three columns (x,y,z), got '\(columns)'")
        }
        if let columns = gyroscopeColumns, columns.split(separator: ",").count != 3 {
            throw ValidationError("--gyroscope-columns needs three columns (x,y,z), got '\(columns)'")
        }
        if let t = timeColumn, let n = Int(t), n < 1 { throw ValidationError("--time-column numbers start at 1, got \(n)") }
        if let d = delimiter, CSVDialect.Delimiter(naming: d) == nil {
            throw ValidationError("--delimiter must be comma, tab, semicolon, pipe or whitespace, got '\(d)'")
        }
        if let n = skipLines, !(0...100_000).contains(n) {
            throw ValidationError("--skip-lines must be 0…100000, got \(n)")
        }
        if let rate = sampleRate, !(rate.isFinite && rate > 0 && rate <= 1_000_000) {
            throw ValidationError("--sample-rate must be a rate in Hz above 0 and at most 1000000, got \(rate)")
        }
    }

    /// A selector from a 1-based number or a header name.
    static func selector(_ text: String) -> CSVColumnSelector {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(trimmed), n >= 1 { return .index(n - 1) }
        return .name(trimmed)
    }

    /// The loader options these flags describe.
    var loaderOptions: InputLoader.Options {
        var options = InputLoader.Options()
        var csv = options.accelerometerCSV
        if let t = timeColumn { csv.time = Self.selector(t) }
        if let columns = accelerationColumns {
            let parts = columns.split(separator: ",").map { Self.selector(String($0)) }
            csv.x = parts[0]
            csv.y = parts[1]
            csv.z = parts[2]
        }
        csv.timeUnit = timeUnit
        csv.accelerationUnit = accelerationUnit
        csv.gyroscopeColumns = gyroscopeColumns.map { $0.split(separator: ",").map { Self.selector(String($0)) } }
        csv.gyroscopeUnit = gyroscopeUnit
        if noHeader { csv.header = .absent }
        csv.delimiter = delimiter.flatMap(CSVDialect.Delimiter.init(naming:))
        csv.skipLines = skipLines
        csv.sampleRate = sampleRate
        options.accelerometerCSV = csv
        options.maxParsedBytes = limits.maxInputBytes
        options.maxSamplesPerLog = limits.maxSamples
        return options
    }
}

/// Raising the limits that keep one input's memory bounded, for long recordings.
struct InputLimitOptions: ParsableArguments {
    @Option(
        help: """
            Most bytes of one JSON or CSV input read into memory (after gunzip; default 25165824 = 24 MiB). \
            Parsing takes up to about 10 bytes of memory per input byte.
            """)
    var maxInputBytes: Int64?

    @Option(help: "Most samples of one motion log (default 1000000: 2.8 h at 100 Hz).")
    var maxSamples: Int?

    func validate() throws {
        if let bytes = maxInputBytes, !(1...(1 << 34)).contains(bytes) {
            throw ValidationError("--max-input-bytes must be 1…17179869184 (16 GiB), got \(bytes)")
        }
        if let samples = maxSamples, !(1...1_000_000_000).contains(samples) {
            throw ValidationError("--max-samples must be 1…1000000000, got \(samples)")
        }
    }
}

extension AnalysisOptions {
    /// The options the shared option groups of `analyze` and `batch` describe (the caller adds its own).
    /// - Throws: ``CommandFailure`` (65) when a calibrator recording cannot be measured.
    init(
        csv: CSVInputOptions, sound: SoundLevelOptions, tapping: TappingOptions, acceptTruncated: Bool,
        blockFrames: Int
    ) throws {
        self.init()
        loader = csv.loaderOptions
        audio.acceptTruncated = acceptTruncated
        audio.blockFrames = blockFrames
        do {
            audio.soundLevel = try sound.analysisOptions(blockFrames: blockFrames, acceptTruncated: acceptTruncated)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw CommandFailure.data("\(error)")
        }
        splMeterRule = sound.rule
        tappingVariant = tapping.variant
        depressThreshold = tapping.depressThreshold
    }
}
