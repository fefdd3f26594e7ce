import ActiveTasks
import ArgumentParser
import Foundation

extension OutputFormat: ExpressibleByArgument {}

/// `taskproc analyze FILE`: summarise one recording or result.
struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse one recording, result file or task folder and print its summary.",
        discussion: """
            Audio files (WAV, FLAC, OGG/Vorbis, AIFF, CAF, RF64, W64, m4a/AAC/ALAC, …): format and, per \
            channel, RMS/peak dBFS, crest factor, DC, clipping, dominant frequency and flatness, plus sound levels \
            (LAeq, LCeq, LZeq, LAFmax, LASmax, LAFmin, LCpeak, LA10/50/90, ResearchKit window series; dB SPL when \
            calibrated), in streaming blocks. Walking inputs (any dialect, a walking task folder): one result per \
            step with stepCount, cadence and gait features. Tapping inputs: the mhealthtools features (or \
            --tapping-variant mpower2016) and ResearchKit extras. SPL-meter results: energy mean, extremes, pass/fail. \
            dB HL tone audiometry: recorded and re-derived thresholds, dB SPL, volume defect, PTA, WHO grade \
            (--plot for an SVG audiogram). --format researchkit|mork|fhir exports instead of printing.
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
