import Foundation
import SensorSignal
import TestSupport
import Testing

/// libsndfile 1.2 never returns from `sf_open` on a WAV whose `LIST` chunk holds a sub-chunk declaring a size so
/// close to 2³² that its 32-bit bounds check wraps (the skip then goes through a C `int` and seeks backwards; at −8
/// it re-reads the same sub-chunk forever). `FuzzAudio` found it (session 16); `SoundFile` must refuse such files, naming the chunk, and still open
/// WAVs with ordinary `LIST`/`INFO` metadata.
@Suite struct LibsndfileListGuardTests {
    /// The fuzzer's input, minus its first byte (the harness's format selector): 128 bytes, a WAVE_FORMAT_EXTENSIBLE
    /// header, a `fact` chunk and a 26-byte `LIST` chunk whose sub-chunk `IN\0\0` declares 0xFFFFFFF8 bytes.
    static let fuzzFinding: [UInt8] = [
        0x52, 0x49, 0x46, 0x46, 0xEA, 0x02, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6D, 0x74, 0x20,
        0x28, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0x02, 0x00, 0x40, 0x1F, 0x00, 0x00, 0x00, 0xFA, 0x00, 0x00,
        0x08, 0x00, 0x20, 0x00, 0x16, 0x00, 0x20, 0x00, 0x03, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71, 0x66, 0x61, 0x63, 0x74,
        0x04, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, 0x4C, 0x49, 0x53, 0x54, 0x1A, 0x00, 0x00, 0x00,
        0x49, 0x4E, 0x00, 0x00, 0xF8, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20,
        0x00, 0x00, 0x01, 0x40, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x1F, 0x68, 0xBD, 0x2E, 0xB8, 0xFB,
    ]

    /// Opens `path` on another thread and waits up to 60 s, so that a regression fails the test instead of hanging
    /// the suite (the thread then spins until the process ends).
    func open(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Result<
        AudioFileInfo, SoundFileError
    >? {
        final class Box: @unchecked Sendable { var result: Result<AudioFileInfo, SoundFileError>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            do throws(SoundFileError) {
                box.result = .success(try SoundFile(path: path).info)
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 60) == .success else {
            Issue.record("opening \(path) did not return within 60 s", sourceLocation: sourceLocation)
            return nil
        }
        return box.result
    }

    /// The refusal's reason, or nil (recording an issue) when the file opened or failed otherwise.
    func refusal(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        switch open(path, sourceLocation: sourceLocation) {
        case .failure(.corrupt(let p, let reason))?:
            #expect(p == path, sourceLocation: sourceLocation)
            return reason
        case let other?:
            Issue.record("expected a corrupt-file refusal, got \(other)", sourceLocation: sourceLocation)
            return nil
        case nil:
            return nil
        }
    }

    @Test func theFuzzFindingIsRefusedNamingTheSubChunk() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("finding.wav")
        try Data(Self.fuzzFinding).write(to: URL(fileURLWithPath: path))
        let reason = refusal(path)
        #expect(
            reason
                == "LIST chunk at byte 72: sub-chunk 'IN\\x00\\x00' at byte 80 declares 4294967288 bytes, which "
                + "libsndfile 1.2 takes as a backward seek and would never finish opening the file (libsndfile "
                + "issue #1118)")
    }

    /// `value`'s bytes in the file's byte order.
    static func bytes<T: FixedWidthInteger>(_ value: T, bigEndian: Bool) -> [UInt8] {
        withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { Array($0) }
    }

    /// A mono 16-bit PCM WAV (`RIFF`, little-endian) or RIFX (big-endian) at 8 kHz with `extra` chunks between
    /// `fmt ` and `data`.
    static func wav(bigEndian: Bool, extra: [UInt8], samples: [Int16]) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { Self.bytes(v, bigEndian: bigEndian) }
        func u16(_ v: UInt16) -> [UInt8] { Self.bytes(v, bigEndian: bigEndian) }
        let fmt = u16(1) + u16(1) + u32(8000) + u32(16000) + u16(2) + u16(16)
        let data = samples.flatMap { u16(UInt16(bitPattern: $0)) }
        let body =
            Array("WAVE".utf8) + Array("fmt ".utf8) + u32(UInt32(fmt.count)) + fmt + extra + Array("data".utf8)
            + u32(UInt32(data.count)) + data
        return Array((bigEndian ? "RIFX" : "RIFF").utf8) + u32(UInt32(body.count)) + body
    }

    /// A `LIST`/`INFO` chunk: a title (`INAM`), then one unknown sub-chunk `abcd` declaring `size` bytes and
    /// holding four.
    static func infoList(bigEndian: Bool, unknownSize: UInt32) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] { Self.bytes(v, bigEndian: bigEndian) }
        let content =
            Array("INFO".utf8) + Array("INAM".utf8) + u32(8) + Array("taskproc".utf8) + Array("abcd".utf8)
            + u32(unknownSize) + [1, 2, 3, 4]
        return Array("LIST".utf8) + u32(UInt32(content.count)) + content
    }

    static let samples: [Int16] = (0..<400).map { Int16(truncatingIfNeeded: $0 * 97 - 16_000) }

    /// An ordinary sub-chunk, and one declaring 2³¹ bytes: libsndfile's bounds check catches the latter (the sum
    /// does not wrap) and skips to the end of the chunk, so the file opens.
    @Test(arguments: [false, true], [UInt32(4), 0x8000_0000])
    func ordinaryMetadataStillOpens(bigEndian: Bool, unknownSize: UInt32) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("titled.wav")
        let bytes = Self.wav(
            bigEndian: bigEndian, extra: Self.infoList(bigEndian: bigEndian, unknownSize: unknownSize),
            samples: Self.samples)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard case .success(let info)? = open(path) else {
            Issue.record("the file should open")
            return
        }
        #expect(info.frameCount == Self.samples.count)
        let decoded = try SoundFile.read(path: path).channels[0]
        #expect(decoded == Self.samples.map { Double($0) / 32_768 })
    }

    /// Sizes that wrap libsndfile's 32-bit bounds check (28 bytes of the chunk read so far): −8, −16 and −28 as a
    /// C `int`.
    @Test(arguments: [false, true], [UInt32(0xFFFF_FFF8), 0xFFFF_FFF0, 0xFFFF_FFE4])
    func aWrappingSubChunkSizeIsRefused(bigEndian: Bool, size: UInt32) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("hostile.wav")
        let bytes = Self.wav(
            bigEndian: bigEndian, extra: Self.infoList(bigEndian: bigEndian, unknownSize: size), samples: Self.samples)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // fmt chunk: 12 + 8 + 16 bytes → the LIST chunk starts at byte 36; INFO, INAM + 4 + 8 → abcd at 36 + 28.
        let reason = try #require(refusal(path))
        #expect(reason.hasPrefix("LIST chunk at byte 36: sub-chunk 'abcd' at byte 64 declares \(size) bytes"))
    }

    /// The guard replays walks from every `LIST`/`INFO` in the file, audio data included: one that libsndfile would
    /// never make, through ordinary sizes, must not refuse the file.
    @Test func aListMarkerInTheAudioIsNotRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("spelled.wav")
        // "LIST", a size of 12, then "INFO" and an ordinary sub-chunk, spelled by 16-bit little-endian samples.
        let spelled: [Int16] = [0x494C, 0x5453, 12, 0, 0x4E49, 0x4F46, 0x6261, 0x6463, 2, 0, 5, 6]
        let samples = Self.samples + spelled + Self.samples
        try Data(Self.wav(bigEndian: false, extra: [], samples: samples)).write(to: URL(fileURLWithPath: path))
        guard case .success(let info)? = open(path) else {
            Issue.record("the file should open")
            return
        }
        #expect(info.frameCount == samples.count)
    }
}
