import Foundation

/// Opens any audio file taskproc can read: through libsndfile (``SoundFile``: WAV, FLAC, OGG, AIFF, CAF incl.
/// ALAC, RF64, W64, …) or, for MP4/M4A/AAC containers libsndfile cannot read (ResearchKit's `.m4a`
/// recordings, AAC or Apple Lossless), through FFmpeg (``FFmpegAudioDecoder``). Streams in constant memory.
///
/// Not `Sendable`: one task at a time.
public final class AudioFileReader {
    private enum Backend {
        case sndfile(SoundFile)
        case ffmpeg(FFmpegAudioDecoder)
    }

    private let backend: Backend

    /// Opens `path`, choosing the decoder from the file's magic bytes and extension.
    /// - Parameters:
    ///   - path: the audio file.
    ///   - acceptTruncated: analyse what survives of a truncated libsndfile file (see ``SoundFile``).
    ///   - ffmpegDirectory: where `ffmpeg`/`ffprobe` live; `nil` searches `PATH`.
    /// - Throws: ``SoundFileError``; for MP4/M4A/AAC without FFmpeg,
    ///   ``SoundFileError/decoderUnavailable(path:decoder:hint:)``.
    public init(path: String, acceptTruncated: Bool = false, ffmpegDirectory: String? = nil) throws(SoundFileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            SoundFile.compressedContainerHint(path: path) != nil
        {
            backend = .ffmpeg(try FFmpegAudioDecoder(path: path, executableDirectory: ffmpegDirectory))
        } else {
            backend = .sndfile(try SoundFile(path: path, acceptTruncated: acceptTruncated))
        }
    }

    /// File metadata (for FFmpeg input, the decoded frame count once streaming has finished).
    public var info: AudioFileInfo {
        switch backend {
        case .sndfile(let f): f.info
        case .ffmpeg(let d): d.info
        }
    }

    /// The declared frame count of a truncated file opened with `acceptTruncated`; otherwise `nil`.
    public var declaredFrameCount: Int? {
        if case .sndfile(let f) = backend { return f.declaredFrameCount }
        return nil
    }

    /// `"libsndfile"` or `"ffmpeg"`.
    public var decoder: String {
        if case .sndfile = backend { return "libsndfile" }
        return "ffmpeg"
    }

    /// The underlying libsndfile reader, when the file is read through libsndfile (for its 16-bit fast path).
    public var soundFile: SoundFile? {
        if case .sndfile(let f) = backend { return f }
        return nil
    }

    /// Streams the file in blocks of `blockFrames` frames, de-interleaved, in constant memory; the block's
    /// arrays are reused between calls.
    /// - Throws: ``SoundFileError`` (truncation, decoder failure) or what `body` throws.
    public func forEachBlock<Sample: AudioSample>(
        frames blockFrames: Int = 65_536, as type: Sample.Type, _ body: (borrowing AudioBlock<Sample>) throws -> Void
    ) throws {
        // Between blocks, the task's time limit (WorkDeadline): a long stream stops there, ffmpeg with it.
        let checked: (borrowing AudioBlock<Sample>) throws -> Void = { block in
            try WorkDeadline.check()
            try body(block)
        }
        switch backend {
        case .sndfile(let f): try f.forEachBlock(frames: blockFrames, as: type, checked)
        case .ffmpeg(let d): try d.forEachBlock(frames: blockFrames, as: type, checked)
        }
    }
}
