import ActiveTasks
import ArgumentParser

/// `analyze` options for audio recordings and SPL-meter results.
struct SoundLevelOptions: ParsableArguments {}

extension Analyze {
    /// Analyses an audio recording.
    func analyzeAudio() throws {
        var options = AudioAnalysisOptions()
        options.acceptTruncated = acceptTruncated
        options.blockFrames = blockFrames
        try out.emit(try AudioFileAnalyzer.summarize(path: file, options: options))
    }

    /// Analyses a ResearchKit environment SPL-meter result.
    func analyzeSPLMeter(_ input: LoadedInput) throws {
        throw failure(input, "analysis of SPL-meter results is not available yet (see `taskproc inspect`) for")
    }
}
