import StudyInputs

extension TaskKind {
    /// An audio recording.
    public static let audio = TaskKind("audio")
}

/// The audio analysis in the registry: format, per-channel levels and spectrum, and sound levels of a recording.
enum AudioRecordingAnalysis: TaskAnalysis {
    /// An audio recording.
    public static let kinds: [TaskKind] = [.audio]

    /// Audio, for an audio recording standing alone (``InputContent/audioRecording``); a recording a task result
    /// names belongs to that task.
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        input.content.contains(.audioRecording) ? [.audio] : []
    }
    /// Why an audio input gave no result.
    public static let nothingToAnalyse = "no readable audio recording"

    /// The summary of the input's recording (none when its header could not be read; the loader said why).
    /// - Throws: When the recording cannot be decoded or the sound-level options do not fit it.
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) throws -> [AudioFileSummary] {
        guard let path = input.audioFile else { return [] }
        return [try AudioFileAnalyzer.summarize(path: path, options: options.audio)]
    }
}
