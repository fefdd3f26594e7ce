import Foundation
import SensorSignal
import Synchronization
import TestSupport
import Testing

/// Deterministic multi-tone test signal: channel `c` is a sine at (440 + 110·c) Hz, amplitude 0.5 − 0.1·c.
func testTone(frames: Int, channels: Int, sampleRate: Double) -> [[Double]] {
    (0..<channels).map { c in
        let f = 440.0 + 110.0 * Double(c)
        let a = 0.5 - 0.1 * Double(c % 4)
        return (0..<frames).map { a * sin(2 * .pi * f * Double($0) / sampleRate) }
    }
}

@Suite struct SoundFileTests {
    /// Worst-case quantisation error for each lossless format (half an LSB, plus float rounding).
    static let losslessFormats: [(AudioFileFormat, String, String, Double)] = [
        (.wav16, "WAV", "PCM_16", 1.0 / 32768),
        (.wav24, "WAV", "PCM_24", 1.0 / 8_388_608),
        (.wavFloat, "WAV", "FLOAT", 1e-7),
        (.flac16, "FLAC", "PCM_16", 1.0 / 32768),
        (.flac24, "FLAC", "PCM_24", 1.0 / 8_388_608),
        (.aiff16, "AIFF", "PCM_16", 1.0 / 32768),
        (.caf16, "CAF", "PCM_16", 1.0 / 32768),
        (.rf64, "RF64", "PCM_16", 1.0 / 32768),
        (.w64, "W64", "PCM_16", 1.0 / 32768),
        (.au16, "AU", "PCM_16", 1.0 / 32768),
    ]

    /// Every format's extensions lead back to a format of the same container, and the default of an extension is
    /// its 16-bit (or Vorbis) encoding.
    @Test func extensionsNameTheContainer() {
        for format in AudioFileFormat.allCases {
            for ext in format.fileExtensions {
                let implied = AudioFileFormat.defaultFormat(forExtension: ext.uppercased())
                #expect(implied?.fileExtensions == format.fileExtensions, "\(format) .\(ext)")
            }
        }
        #expect(AudioFileFormat.defaultFormat(forExtension: "flac") == .flac16)
        #expect(AudioFileFormat.defaultFormat(forExtension: "aif") == .aiff16)
        #expect(AudioFileFormat.defaultFormat(forExtension: "ogg") == .oggVorbis)
        #expect(AudioFileFormat.defaultFormat(forExtension: "m4a") == nil)
        #expect(AudioFileFormat.defaultFormat(forExtension: "") == nil)
    }

    /// A sample type other than Float and Double is decoded and encoded through Double (the libsndfile bridge is
    /// internal, so it cannot be handed a buffer of the wrong element size).
    @Test(arguments: [1, 3])
    func otherSampleTypesGoThroughDouble(channels: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("half.wav")
        let frames = 20_000  // more than one 16 384-frame write block
        let signal = testTone(frames: frames, channels: channels, sampleRate: 16_000)
        try AudioFileWriter.write(signal.map { $0.map { Float16($0) } }, sampleRate: 16_000, to: path)
        let asDouble = try SoundFile.read(path: path, as: Double.self)
        let asHalf = try SoundFile.read(path: path, as: Float16.self)
        #expect(asHalf.channels.count == channels && asHalf.channels[0].count == frames)
        for c in 0..<channels {
            // Written from Float16 (11-bit significand), stored as 16-bit PCM.
            #expect(zip(asDouble.channels[c], signal[c]).allSatisfy { abs($0 - $1) < 1e-3 + 1.0 / 32768 })
            #expect(zip(asHalf.channels[c], asDouble.channels[c]).allSatisfy { abs(Double($0) - $1) < 1e-3 })
        }
        var blocks = 0
        try SoundFile(path: path).forEachBlock(frames: 4096, as: Float16.self) { block in
            blocks += 1
            #expect(block.channels.count == channels)
        }
        #expect(blocks == 5)
    }

    @Test(arguments: losslessFormats.indices, [1, 2, 6])
    func losslessRoundTrip(formatIndex: Int, channels: Int) throws {
        let (format, container, encoding, tolerance) = Self.losslessFormats[formatIndex]
        let dir = TemporaryDirectory()
        let path = dir.path("tone.\(format.rawValue)")
        let frames = 10_007
        let signal = testTone(frames: frames, channels: channels, sampleRate: 44_100)
        try AudioFileWriter.write(signal, sampleRate: 44_100, to: path, format: format)

        let decoded = try SoundFile.read(path: path, as: Double.self)
        #expect(decoded.info.sampleRate == 44_100)
        #expect(decoded.info.frameCount == frames)
        #expect(decoded.info.channelCount == channels)
        #expect(decoded.info.format.container == container)
        #expect(decoded.info.format.encoding == encoding)
        #expect(abs(decoded.info.duration - Double(frames) / 44_100) < 1e-12)
        try #require(decoded.channels.count == channels)
        for c in 0..<channels {
            try #require(decoded.channels[c].count == frames)
            let worst = zip(decoded.channels[c], signal[c]).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= tolerance, "channel \(c) max error \(worst) > \(tolerance)")
        }
        // Float decoding agrees with Double decoding to Float precision.
        let asFloat = try SoundFile.read(path: path, as: Float.self)
        try #require(asFloat.channels.count == channels)
        for c in 0..<channels {
            try #require(asFloat.channels[c].count == frames)
            let worst = zip(asFloat.channels[c], decoded.channels[c]).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(worst < 1e-7)
        }
    }

    @Test func oggVorbisIsLossyButClose() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("tone.ogg")
        let signal = testTone(frames: 48_000, channels: 2, sampleRate: 48_000)
        try AudioFileWriter.write(signal, sampleRate: 48_000, to: path, format: .oggVorbis)
        let decoded = try SoundFile.read(path: path)
        #expect(decoded.info.format.container == "OGG")
        #expect(decoded.info.format.encoding == "VORBIS")
        #expect(decoded.info.frameCount == 48_000)
        for c in 0..<2 {
            // RMS of a sine of amplitude a is a/√2; a lossy codec keeps it within 0.2 dB.
            let rms = (decoded.channels[c].map { $0 * $0 }.reduce(0, +) / 48_000).squareRoot()
            let expected = (0.5 - 0.1 * Double(c)) / 2.0.squareRoot()
            #expect(abs(20 * log10(rms / expected)) < 0.2)
        }
    }

    @Test func sixteenBitFullScaleMapsToUnity() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("fs.wav")
        try AudioFileWriter.write([[1.0, -1.0, 2.0, -2.0, 0.5]], sampleRate: 8000, to: path, format: .wav16)
        let x = try SoundFile.read(path: path).channels[0]
        // 16-bit full scale is +32767/32768 and −1; out-of-range values clip rather than wrap.
        #expect(x == [32767.0 / 32768, -1, 32767.0 / 32768, -1, 0.5])
    }

    @Test(arguments: [1, 7, 4096, 100_000])
    func blockStreamingEqualsWholeFile(blockFrames: Int) throws {
        let dir = TemporaryDirectory()
        for channels in [1, 3] {
            let path = dir.path("s\(channels).wav")
            let signal = testTone(frames: 20_011, channels: channels, sampleRate: 16_000)
            try AudioFileWriter.write(signal, sampleRate: 16_000, to: path, format: .wav24)
            let whole = try SoundFile.read(path: path).channels
            var streamed = [[Double]](repeating: [], count: channels)
            var expectedStart = 0
            try SoundFile(path: path).forEachBlock(frames: blockFrames, as: Double.self) { block in
                #expect(block.startFrame == expectedStart)
                #expect(block.frameCount <= blockFrames)
                for c in 0..<channels {
                    #expect(block.channels[c].count == block.frameCount)
                    streamed[c].append(contentsOf: block.channels[c])
                }
                expectedStart += block.frameCount
            }
            #expect(streamed == whole)
        }
    }

    @Test func refusesToOverwrite() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("a.wav")
        try AudioFileWriter.write([[0.1, 0.2]], sampleRate: 8000, to: path)
        #expect(throws: SoundFileError.self) { try AudioFileWriter.write([[0.3]], sampleRate: 8000, to: path) }
        #expect(try SoundFile.read(path: path).info.frameCount == 2)
        try AudioFileWriter.write([[0.3]], sampleRate: 8000, to: path, overwrite: true)
        #expect(try SoundFile.read(path: path).info.frameCount == 1)
    }

    @Test func versionsAreReported() {
        #expect(libsndfileVersion.hasPrefix("libsndfile-"))
        #expect(fftwVersion.hasPrefix("fftw-3"))
    }
}

/// The bad-input corpus for audio files: each case must produce its specific, path-naming error.
@Suite struct SoundFileErrorTests {
    func expectError(_ path: String, _ matches: (SoundFileError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
    {
        do {
            _ = try SoundFile(path: path)
            Issue.record("opening \(path) should fail", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "unexpected error \(error)", sourceLocation: sourceLocation)
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix(path), sourceLocation: sourceLocation)
        }
    }

    @Test func missingFile() {
        expectError("/nonexistent/dir/none.wav") { if case .fileNotFound = $0 { true } else { false } }
    }

    @Test func directory() {
        let dir = TemporaryDirectory()
        expectError(dir.url.path) { if case .unreadable(_, let r) = $0 { r.contains("directory") } else { false } }
    }

    @Test func emptyFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("empty.wav")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        expectError(path) { if case .corrupt(_, let r) = $0 { r.contains("0 bytes") } else { false } }
    }

    @Test func binaryGarbage() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("garbage.wav")
        _ = FileManager.default.createFile(atPath: path, contents: Data((0..<2560).map { UInt8($0 % 251) }))
        expectError(path) { if case .unsupportedFormat = $0 { true } else { false } }
    }

    @Test func headerWithoutData() throws {
        let dir = TemporaryDirectory()
        let good = dir.path("good.wav")
        try AudioFileWriter.write([[Double](repeating: 0.25, count: 1000)], sampleRate: 8000, to: good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let path = dir.path("header-only.wav")
        _ = FileManager.default.createFile(atPath: path, contents: bytes.prefix(30))
        expectError(path) { if case .corrupt = $0 { true } else { false } }
    }

    /// libsndfile keeps a failed open's error in one process-wide variable that every open resets: a corrupt file
    /// opened while other files open on other threads must still get its own reason, every time (not "No Error.").
    @Test func aFailedOpenKeepsItsReasonWhileOtherFilesOpen() throws {
        let dir = TemporaryDirectory()
        let good = dir.path("good.wav")
        try AudioFileWriter.write([[Double](repeating: 0.25, count: 1000)], sampleRate: 8000, to: good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        // A RIFF/WAVE header without a 'data' chunk, as the broken recordings of the batch tests' generated exports.
        let path = dir.path("no-data-chunk.wav")
        _ = FileManager.default.createFile(atPath: path, contents: Data("RIFF\0\0\0\0WAVEjunk".utf8) + bytes[44..<200])
        let reasons = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 20_000) { i in
            if i % 2 == 0 {
                _ = try? SoundFile(path: good)
                return
            }
            do {
                _ = try SoundFile(path: path)
                reasons.withLock { $0["opened", default: 0] += 1 }
            } catch {
                reasons.withLock { $0[String(describing: error), default: 0] += 1 }
            }
        }
        let seen = reasons.withLock { $0 }
        let reason = path + ": corrupt or malformed audio file: Error in WAV file. No 'data' chunk marker."
        #expect(seen == [reason: 10_000])
    }

    @Test func truncatedDataIsRefusedUnlessAccepted() throws {
        let dir = TemporaryDirectory()
        let good = dir.path("good.wav")
        try AudioFileWriter.write([[Double](repeating: 0.25, count: 48_000)], sampleRate: 48_000, to: good)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let path = dir.path("truncated.wav")
        _ = FileManager.default.createFile(atPath: path, contents: bytes.prefix(bytes.count / 2))
        expectError(path) {
            if case .truncated(_, let expected, let read) = $0 {
                expected == 48_000 && read > 23_000 && read < 25_000
            } else { false }
        }
        let partial = try SoundFile(path: path, acceptTruncated: true)
        #expect(partial.declaredFrameCount == 48_000)
        #expect(partial.info.frameCount < 48_000)
        #expect(try SoundFile(path: good).declaredFrameCount == nil)
    }

    @Test(arguments: ["recording.m4a", "recording.mp4", "recording.aac"])
    func compressedContainersGetADecodeHint(name: String) throws {
        let dir = TemporaryDirectory()
        let path = dir.path(name)
        // An MP4 'ftyp' box, as ResearchKit's AVAudioRecorder writes.
        var bytes: [UInt8] = [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0, 0, 0]
        bytes += [UInt8](repeating: 0, count: 64)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        expectError(path) { if case .unsupportedFormat(_, let hint) = $0 { hint.contains("ffmpeg") } else { false } }
    }

    @Test func mp4MagicWithWavExtension() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("misnamed.wav")
        let bytes: [UInt8] = [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [UInt8](repeating: 0, count: 80)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        expectError(path) { if case .unsupportedFormat(_, let hint) = $0 { hint.contains("MP4") } else { false } }
    }
}

/// Plan-cache lifetime: plans may be released only when no transform holds them.
@Suite(.serialized) struct FFTPlanLifetimeTests {
    @Test func plansAreNotReleasedUnderALiveTransform() throws {
        let fft = try RealFFT<Double>(count: 4099)
        #expect(RealFFT<Double>.releaseCachedPlans() == false)
        // The live transform still works (its plans were kept).
        let x = (0..<4099).map { Double($0 % 17) }
        let y = fft.inverse(fft.forward(x))
        #expect(y.count == x.count)
        #expect(zip(x, y).allSatisfy { abs($0 - $1) < 1e-9 })
    }
}

extension Float16: AudioSample {}
