import ActiveTasks
import ArgumentParser
import Foundation

extension OutputFormat: ExpressibleByArgument {}

/// `taskproc analyze FILE`: summarise one recording or result.
struct Analyze: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse one recording or result file and print its summary.",
        discussion: """
            Audio files (WAV, FLAC, OGG/Vorbis, AIFF, CAF, RF64, W64, …): format, duration and, per channel, \
            RMS and peak level in dBFS, crest factor, DC offset, clipped-sample count and dominant frequency. \
            The file is decoded in streaming blocks, so any length fits in constant memory.
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

    func run() async throws {
        var options = AudioAnalysisOptions()
        options.acceptTruncated = acceptTruncated
        options.blockFrames = blockFrames
        let summary = try AudioFileAnalyzer.summarize(path: file, options: options)
        try out.emit(summary)
    }
}
