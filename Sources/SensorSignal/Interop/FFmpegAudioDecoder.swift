import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes audio that libsndfile cannot read — MP4/M4A (AAC or Apple Lossless, ResearchKit's recorder format),
/// raw AAC, and anything else FFmpeg knows — by running `ffmpeg` as a subprocess and streaming its output as
/// raw little-endian 32-bit float PCM through a pipe, in constant memory.
///
/// `ffprobe` (installed with FFmpeg) supplies the codec, sampling rate and channel count first. Lossless
/// codecs (ALAC, FLAC, PCM) decode exactly for ≤ 24-bit sources (a 24-bit integer fits a `Float`); AAC is
/// lossy and no sound level read from it is better than the encoder. Not `Sendable`: one task at a time.
public final class FFmpegAudioDecoder {
    /// Metadata from `ffprobe`; ``AudioFileInfo/frameCount`` is the frame count ffprobe estimates from the
    /// stream duration until ``forEachBlock(frames:as:_:)`` has run, then the frames actually decoded.
    public private(set) var info: AudioFileInfo
    private let ffmpeg: String

    /// Probes `path` with `ffprobe`.
    /// - Parameters:
    ///   - path: the audio file.
    ///   - executableDirectory: where `ffmpeg` and `ffprobe` live; `nil` searches `PATH`.
    /// - Throws: ``SoundFileError/decoderUnavailable(path:decoder:hint:)`` when FFmpeg is not installed,
    ///   ``SoundFileError/decodeFailed(path:decoder:reason:)`` when ffprobe finds no audio stream, or the
    ///   usual missing/unreadable-file errors.
    public init(path: String, executableDirectory: String? = nil) throws(SoundFileError) {
        try SoundFile.requireReadableFile(path)
        guard let ffprobe = Self.locate("ffprobe", in: executableDirectory),
            let ffmpeg = Self.locate("ffmpeg", in: executableDirectory)
        else {
            throw .decoderUnavailable(
                path: path, decoder: "FFmpeg",
                hint: "`ffmpeg` and `ffprobe` were not found"
                    + (executableDirectory.map { " in \($0)" } ?? " on PATH")
                    + "; install FFmpeg (Debian/Ubuntu: `apt-get install ffmpeg`; macOS: `brew install ffmpeg`), "
                    + "or convert the file to WAV/FLAC first")
        }
        self.ffmpeg = ffmpeg
        let (status, output, errors) = Self.run(
            ffprobe,
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries",
                "stream=codec_name,sample_rate,channels,bits_per_raw_sample,duration:format=format_name",
                "-of", "default=noprint_wrappers=1", path,
            ])
        info = try Self.probedInfo(path: path, status: status, output: output, errors: errors)
    }

    /// The metadata in what `ffprobe` printed for `path` (`key=value` lines): the boundary of the FFmpeg handoff,
    /// where what the file's container declares comes back as text (fuzzed by `Fuzz/Sources/FuzzFFprobe`).
    /// - Throws: ``SoundFileError/decodeFailed(path:decoder:reason:)`` when ffprobe failed or found no usable
    ///   audio stream, or a channel count or rate outside ``AudioLimits``.
    static func probedInfo(path: String, status: Int32, output: String, errors: String) throws(SoundFileError)
        -> AudioFileInfo
    {
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        guard status == 0, let rate = fields["sample_rate"].flatMap(Double.init), rate.isFinite, rate > 0,
            let channels = fields["channels"].flatMap(Int.init), channels > 0
        else {
            let reason = errors.split(separator: "\n").first.map(String.init) ?? "no audio stream found"
            throw .decodeFailed(path: path, decoder: "ffprobe", reason: "exit status \(status): \(reason)")
        }
        try AudioLimits.check(path: path, channels: channels, sampleRate: rate)
        let codec = (fields["codec_name"] ?? "unknown").uppercased()
        let bits = fields["bits_per_raw_sample"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        // The duration is what the container declares: any number, `N/A`, or so long that the frame count does not
        // fit an Int (fuzz finding: `duration=1e300` trapped). Only an estimate: the decoded count replaces it.
        let estimate = (fields["duration"].flatMap(Double.init) ?? 0) * rate
        let frameCount = estimate.isFinite && estimate >= 0 ? Int(exactly: estimate.rounded()) ?? 0 : 0
        let container = (fields["format_name"] ?? "unknown").split(separator: ",").first.map(String.init) ?? "unknown"
        return AudioFileInfo(
            path: path, sampleRate: rate, frameCount: frameCount, channelCount: channels,
            format: AudioFormat(
                container: container == "mov" ? "MP4" : container.uppercased(), encoding: codec, bitsPerSample: bits,
                containerDescription: fields["format_name"] ?? container,
                encodingDescription: "\(codec) decoded by FFmpeg"))
    }

    /// Decodes the whole stream in blocks of `blockFrames` frames, de-interleaved, in constant memory.
    ///
    /// The block's channel arrays are reused between calls. Afterwards ``info`` holds the decoded frame count.
    /// - Throws: ``SoundFileError/decodeFailed(path:decoder:reason:)`` if ffmpeg fails or exits non-zero,
    ///   or what `body` throws (ffmpeg is then stopped).
    public func forEachBlock<Sample: AudioSample>(
        frames blockFrames: Int = 65_536, as: Sample.Type, _ body: (borrowing AudioBlock<Sample>) throws -> Void
    ) throws {
        precondition(
            blockFrames > 0, "FFmpegAudioDecoder.forEachBlock: blockFrames must be positive, got \(blockFrames)")
        let path = info.path
        // The frame count is not known before decoding: the block is bounded by AudioLimits.maximumBlockFrames.
        let blockFrames = AudioLimits.bufferFrames(block: blockFrames, frameCount: nil, channels: info.channelCount)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:a:0", "-f", "f32le", "-acodec", "pcm_f32le", "-",
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw SoundFileError.decoderUnavailable(
                path: path, decoder: "FFmpeg", hint: "cannot start \(ffmpeg): \(error.localizedDescription)")
        }
        // Collect stderr concurrently so a chatty ffmpeg never blocks on a full pipe.
        let errors = ErrorCollector(err.fileHandleForReading)
        let nch = info.channelCount
        let fd = out.fileHandleForReading.fileDescriptor
        var raw = [Float](repeating: 0, count: blockFrames * nch)
        var block = AudioBlock<Sample>(
            startFrame: 0, frameCount: 0,
            channels: [[Sample]](repeating: [Sample](repeating: 0, count: blockFrames), count: nch))
        var frames = 0
        var failure: (any Error)?
        reading: while true {
            // Fill one block (pipes deliver partial reads).
            var bytes = 0
            let capacity = blockFrames * nch * 4
            while bytes < capacity {
                let n = raw.withUnsafeMutableBytes { read(fd, $0.baseAddress! + bytes, capacity - bytes) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                bytes += n
            }
            let got = bytes / (4 * nch)
            if got == 0 { break }
            raw.withUnsafeBufferPointer { src in
                for c in 0..<nch {
                    if block.channels[c].count != got { block.channels[c] = [Sample](repeating: 0, count: got) }
                    block.channels[c].withUnsafeMutableBufferPointer { dst in
                        for i in 0..<got { dst[i] = Sample(src[i * nch + c]) }
                    }
                }
            }
            block.startFrame = frames
            block.frameCount = got
            frames += got
            do { try body(block) } catch {
                failure = error
                break reading
            }
            if got < blockFrames { break }
        }
        if failure != nil { process.terminate() }
        try? out.fileHandleForReading.close()
        process.waitUntilExit()
        info.frameCount = frames
        if let failure { throw failure }
        let message = errors.text()
        guard process.terminationStatus == 0 else {
            let first = message.split(separator: "\n").first.map(String.init) ?? "no message"
            throw SoundFileError.decodeFailed(
                path: path, decoder: "ffmpeg", reason: "exit status \(process.terminationStatus): \(first)")
        }
        if frames == 0 {
            throw SoundFileError.corrupt(path: path, reason: "ffmpeg decoded no audio frames")
        }
    }

    // MARK: Helpers

    /// `name` in `directory`, or the first executable `name` on `PATH`.
    static func locate(_ name: String, in directory: String?) -> String? {
        let directories =
            directory.map { [$0] }
            ?? (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin:/usr/local/bin").split(separator: ":")
            .map(String.init)
        for dir in directories {
            let candidate = (dir as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// True when FFmpeg (`ffmpeg` and `ffprobe`) is found on `PATH`.
    public static var isAvailable: Bool { locate("ffmpeg", in: nil) != nil && locate("ffprobe", in: nil) != nil }

    /// Runs a short command to completion: exit status, stdout, stderr.
    static func run(_ executable: String, _ arguments: [String]) -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "", "cannot start \(executable): \(error.localizedDescription)") }
        let errors = ErrorCollector(err.fileHandleForReading)
        let output = (try? out.fileHandleForReading.readToEnd()) ?? Data()  // readDataToEndOfFile traps on an error
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), errors.text())
    }
}

/// Reads a pipe to its end on a background thread (so the writer never blocks) and returns the text.
private final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let all = (try? handle.readToEnd()) ?? Data()  // readDataToEndOfFile traps on a read error
            lock.lock()
            data = all
            lock.unlock()
            done.signal()
        }
    }

    /// Waits for the end of the pipe and returns what was written (UTF-8, lossy).
    func text() -> String {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
