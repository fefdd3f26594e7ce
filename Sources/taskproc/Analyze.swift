import ActiveTasks
import ArgumentParser
import Foundation

extension OutputFormat: ExpressibleByArgument {}

/// `taskproc analyze FILE`: summarise one recording or result.
struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse one recording, result file or task folder and print its summary.",
        discussion: """
            Audio files (WAV, FLAC, OGG/Vorbis, AIFF, CAF, RF64, W64, …): format, duration and, per channel, \
            RMS and peak level in dBFS, crest factor, DC offset, clipped-sample count, dominant frequency and \
            spectral flatness, decoded in streaming blocks (constant memory). Walking inputs (accelerometer or \
            device-motion logs in any dialect, accelerometer CSV, a walking task folder): one result per step \
            with stepCount, cadence and gait features.
            """)

    @Argument(help: "The file to analyse.", completion: .file())
    var file: String

    @OptionGroup(title: "Output")
    var out: OutputOptions

    @Flag(help: "Analyse what survives of a truncated audio file instead of failing (the result records the declared length).")
    var acceptTruncated = false

    @Option(help: "Frames decoded per block (memory use is proportional to this).")
    var blockFrames = 65_536

    func validate() throws {
        guard blockFrames > 0 else { throw ValidationError("--block-frames must be positive, got \(blockFrames)") }
    }

    @OptionGroup(title: "Accelerometer CSV")
    var csv: CSVInputOptions

    @OptionGroup(title: "Tapping")
    var tapping: TappingOptions

    @OptionGroup(title: "Sound level")
    var sound: SoundLevelOptions

    @OptionGroup(title: "Tone audiometry")
    var audiometry: AudiometryOptions

    func run() async throws {
        if InputLoader.isAudioFile(file) {
            try analyzeAudio()
            return
        }
        let input = try InputLoader.load(path: file, options: csv.loaderOptions)
        switch input.taskKind {
        case .walking:
            let results = WalkingProcessor.analyze(input)
            guard !results.isEmpty else { throw failure(input, "no walking recordings (accelerometer or device motion) in") }
            try out.emit(ResultList(results), input: input)
        case .tapping:
            try analyzeTapping(input)
        case .environmentSPLMeter:
            try analyzeSPLMeter(input)
        case .dBHLToneAudiometry, .toneAudiometry:
            try analyzeAudiometry(input)
        default:
            throw failure(
                input,
                "analysis of \(input.taskKind.rawValue) inputs is not available yet (see `taskproc inspect`) for")
        }
        if !input.errors.isEmpty {
            FileHandle.standardError.write(Data("taskproc: \(input.errors.count) part(s) of \(file) could not be read; run `taskproc inspect` for details\n".utf8))
            throw ExitCode(2)
        }
    }

    /// An error naming the input and listing its first problems.
    func failure(_ input: LoadedInput, _ what: String) -> ValidationError {
        let problems = input.errors.prefix(3).map { "\n  " + $0.description }.joined()
        return ValidationError("\(what) \(file)\(problems)")
    }
}
