/// The bounds every audio path (reading, analysing, synthesising) enforces, so that a few bytes of header cannot
/// make taskproc allocate gigabytes, and no option the command line accepts can trap.
///
/// A file or option outside a bound is an error naming the file (or option), the field and the bound, e.g.
/// `tone.wav: channels: 1024 out of range (max 64)`; see ``SoundFileError/outOfRange(path:field:value:limit:)``.
public enum AudioLimits {
    /// Most channels an audio file may have: 64.
    ///
    /// Analysis state is per channel (≈ 2 MB for a sound-level meter at 48 kHz), so the channel count bounds
    /// memory; ResearchKit records mono.
    public static let maximumChannels = 64
    /// Lowest sampling rate analysed or synthesised, Hz: 1000 (the sound-level meter's floor).
    public static let minimumSampleRate = 1000
    /// Highest sampling rate analysed or synthesised, Hz: 768 000 (the highest rate audio interfaces offer).
    ///
    /// The sound-level meter's buffers grow with the rate, so the rate bounds memory.
    public static let maximumSampleRate = 768_000
    /// Largest streaming block, frames: 1 048 576 (2²⁰); also the most samples (frames × channels) one block holds.
    ///
    /// Buffers are sized by `min(frames in the file, block, 2²⁰ / channels)`; results do not depend on the block
    /// size, only memory does (at most 16 MiB of `Double` block buffers per file).
    public static let maximumBlockFrames = 1 << 20
    /// Largest sample magnitude analysed, full-scale units: 10⁶.
    ///
    /// Beyond it (or NaN, ±∞, which a float file can hold) a sample is not audio: analyses replace it by 0, count it
    /// and say so.
    public static let maximumSampleMagnitude = 1e6
    /// Longest synthesised signal, s: 86 400 (a day; written in blocks, in constant memory).
    public static let maximumSynthDuration = 86_400.0

    /// The frames to buffer for blocks of `blockFrames` frames of a file with `frameCount` frames (nil when unknown)
    /// and `channels` channels: at least 1, at most ``maximumBlockFrames`` samples in all, never more frames than
    /// the file holds.
    public static func bufferFrames(block blockFrames: Int, frameCount: Int?, channels: Int) -> Int {
        let block = min(max(1, blockFrames), maximumBlockFrames / max(1, min(channels, maximumChannels)))
        guard let frameCount else { return block }
        return max(1, min(block, frameCount))
    }

    /// Checks a file's declared channel count and sampling rate against the bounds.
    /// - Throws: ``SoundFileError/outOfRange(path:field:value:limit:)``.
    static func check(path: String, channels: Int, sampleRate: Double) throws(SoundFileError) {
        if channels > maximumChannels {
            throw .outOfRange(path: path, field: "channels", value: "\(channels)", limit: "max \(maximumChannels)")
        }
        if !(sampleRate <= Double(maximumSampleRate)) {
            throw .outOfRange(
                path: path, field: "sampleRate", value: "\(sampleRate) Hz", limit: "max \(maximumSampleRate) Hz")
        }
    }
}
