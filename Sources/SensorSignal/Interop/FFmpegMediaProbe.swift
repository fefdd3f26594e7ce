import Foundation

/// The duration of any media file FFmpeg reads (a video, a recording with or without audio), from `ffprobe`'s
/// container `format=duration`.
public enum FFmpegMediaProbe {
    /// Longest duration accepted, s (115 days): a container may declare anything.
    public static let maximumDuration = 1e7

    /// The container's duration, s; nil when `ffprobe` is not found, fails, or declares no finite duration in
    /// 0…``maximumDuration``.
    ///
    /// - Parameters:
    ///   - path: The media file.
    ///   - executableDirectory: Where `ffprobe` lives; nil searches `PATH`.
    public static func duration(path: String, executableDirectory: String? = nil) -> Double? {
        guard let ffprobe = FFmpegAudioDecoder.locate("ffprobe", in: executableDirectory) else { return nil }
        let (status, output, _) = FFmpegAudioDecoder.run(
            ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", path])
        return status == 0 ? parsedDuration(output) : nil
    }

    /// The duration in what `ffprobe -show_entries format=duration` printed: a finite number in
    /// 0…``maximumDuration``, else nil (`N/A`, `inf`, `1e300`).
    static func parsedDuration(_ output: String) -> Double? {
        guard let line = output.split(whereSeparator: \.isNewline).first,
            let seconds = Double(line.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0,
            seconds <= maximumDuration
        else { return nil }
        return seconds
    }
}
