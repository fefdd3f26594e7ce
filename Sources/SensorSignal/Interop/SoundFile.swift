internal import CSndfile
import Foundation

/// A sample type audio can be decoded to: `Float` or `Double`, normalised so integer full scale is ±1.0.
///
/// `Float` and `Double` are decoded and encoded by libsndfile directly; any other conforming type goes through
/// `Double` (one scratch buffer per call). The libsndfile bridge (the internal `sfReadFrames`/`sfWriteFrames`) takes
/// the C handle, so no public declaration mentions it.
public protocol AudioSample: BinaryFloatingPoint, Sendable {}

extension Float: AudioSample {}
extension Double: AudioSample {}

/// libsndfile's frame reads and writes for one sample type: `sf_readf_float` for `Float`, `sf_readf_double` for
/// `Double`. Internal members of a public protocol's extension: callers outside the module cannot see them.
///
/// The `Self.self == Float.self` tests fold to constants in code specialised for a concrete type (the decoding
/// loops are `@specialized` for both), leaving the same direct C call the former public protocol requirements made.
extension AudioSample {
    /// Reads up to `frames` interleaved frames from `handle` into `buffer`; returns the frames read.
    @inline(__always)
    static func sfReadFrames(_ handle: OpaquePointer, _ buffer: UnsafeMutablePointer<Self>, _ frames: Int) -> Int {
        if Self.self == Float.self {
            let floats = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: Float.self)
            return Int(sf_readf_float(handle, floats, sf_count_t(frames)))
        }
        if Self.self == Double.self {
            let doubles = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: Double.self)
            return Int(sf_readf_double(handle, doubles, sf_count_t(frames)))
        }
        return readConverting(handle, buffer, frames)
    }

    /// Writes `frames` interleaved frames from `buffer` to `handle`; returns the frames written.
    @inline(__always)
    static func sfWriteFrames(_ handle: OpaquePointer, _ buffer: UnsafePointer<Self>, _ frames: Int) -> Int {
        if Self.self == Float.self {
            let floats = UnsafeRawPointer(buffer).assumingMemoryBound(to: Float.self)
            return Int(sf_writef_float(handle, floats, sf_count_t(frames)))
        }
        if Self.self == Double.self {
            let doubles = UnsafeRawPointer(buffer).assumingMemoryBound(to: Double.self)
            return Int(sf_writef_double(handle, doubles, sf_count_t(frames)))
        }
        return writeConverting(handle, buffer, frames)
    }

    /// Another sample type: decodes to `Double`, then converts.
    private static func readConverting(_ handle: OpaquePointer, _ buffer: UnsafeMutablePointer<Self>, _ frames: Int)
        -> Int
    {
        let count = frames * channelCount(handle)
        var scratch = [Double](repeating: 0, count: count)
        let got = scratch.withUnsafeMutableBufferPointer {
            Int(sf_readf_double(handle, $0.baseAddress, sf_count_t(frames)))
        }
        let samples = max(0, got) * channelCount(handle)
        for i in 0..<samples { buffer[i] = Self(scratch[i]) }
        return got
    }

    /// Another sample type: converts to `Double`, then encodes.
    private static func writeConverting(_ handle: OpaquePointer, _ buffer: UnsafePointer<Self>, _ frames: Int)
        -> Int
    {
        let count = frames * channelCount(handle)
        let scratch = (0..<count).map { Double(buffer[$0]) }
        return scratch.withUnsafeBufferPointer { Int(sf_writef_double(handle, $0.baseAddress, sf_count_t(frames))) }
    }

    /// The channel count of an open file.
    private static func channelCount(_ handle: OpaquePointer) -> Int {
        var info = SF_INFO()
        _ = sf_command(handle, Int32(SFC_GET_CURRENT_SF_INFO), &info, Int32(MemoryLayout<SF_INFO>.size))
        return max(1, Int(info.channels))
    }
}

/// Why an audio file could not be opened or decoded. Every case names the file.
public enum SoundFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file exists at `path`.
    case fileNotFound(path: String)
    /// The file exists but cannot be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The file is not in a format/encoding libsndfile decodes; `hint` says what to do.
    case unsupportedFormat(path: String, hint: String)
    /// The file is recognised but malformed, or empty.
    case corrupt(path: String, reason: String)
    /// The header promises more audio than the file holds: decoding stopped at `framesRead`.
    case truncated(path: String, expectedFrames: Int, framesRead: Int)
    /// A write failed (for ``AudioFileWriter``).
    case writeFailed(path: String, reason: String)
    /// The file needs an external decoder (FFmpeg, for MP4/M4A/AAC/ALAC) that is not installed or not runnable.
    case decoderUnavailable(path: String, decoder: String, hint: String)
    /// The external decoder ran but failed (its exit status and first error line in `reason`).
    case decodeFailed(path: String, decoder: String, reason: String)
    /// A header field is outside the bounds of ``AudioLimits`` (e.g. more than 64 channels): `field` names it,
    /// `value` is what the file declares, `limit` the bound (`max 64`).
    case outOfRange(path: String, field: String, value: String, limit: String)

    /// The path of the file concerned.
    public var path: String {
        switch self {
        case .fileNotFound(let p), .unreadable(let p, _), .unsupportedFormat(let p, _), .corrupt(let p, _),
            .truncated(let p, _, _), .writeFailed(let p, _), .decoderUnavailable(let p, _, _),
            .decodeFailed(let p, _, _), .outOfRange(let p, _, _, _):
            p
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let p): "\(p): no such file"
        case .unreadable(let p, let r): "\(p): cannot read file: \(r)"
        case .unsupportedFormat(let p, let h): "\(p): unsupported audio format: \(h)"
        case .corrupt(let p, let r): "\(p): corrupt or malformed audio file: \(r)"
        case .truncated(let p, let e, let r):
            "\(p): truncated audio file: header declares \(e) frames but only \(r) could be decoded"
        case .writeFailed(let p, let r): "\(p): cannot write audio file: \(r)"
        case .decoderUnavailable(let p, let d, let h): "\(p): needs \(d) to decode, which is not available: \(h)"
        case .decodeFailed(let p, let d, let r): "\(p): \(d) could not decode the file: \(r)"
        case .outOfRange(let p, let f, let v, let l): "\(p): \(f): \(v) out of range (\(l))"
        }
    }
}

/// Container and encoding of an audio file, with libsndfile's names.
public struct AudioFormat: Sendable, Hashable, Codable {
    /// Container short name, e.g. `WAV`, `FLAC`, `OGG`, `AIFF`, `CAF`, `RF64`, `W64`.
    public var container: String
    /// Sample encoding short name, e.g. `PCM_16`, `PCM_24`, `FLOAT`, `VORBIS`, `ALAC_16`.
    public var encoding: String
    /// Bits of resolution per sample of the stored encoding, if it is a fixed-width PCM/float code.
    public var bitsPerSample: Int?
    /// libsndfile's descriptive name of the container (e.g. "WAV (Microsoft)").
    public var containerDescription: String
    /// libsndfile's descriptive name of the encoding (e.g. "Signed 16 bit PCM").
    public var encodingDescription: String
}

/// What is known about an audio file before decoding it.
public struct AudioFileInfo: Sendable, Hashable, Codable {
    /// The file's path as given.
    public var path: String
    /// Sampling rate, Hz.
    public var sampleRate: Double
    /// Frames (samples per channel) declared by the file.
    public var frameCount: Int
    /// Number of interleaved channels.
    public var channelCount: Int
    /// Container and encoding.
    public var format: AudioFormat
    /// Duration, seconds: `frameCount / sampleRate`.
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / sampleRate : 0 }
}

/// One block of decoded audio, de-interleaved: `channels[c][i]` is frame `startFrame + i` of channel `c`.
public struct AudioBlock<Sample: AudioSample> {
    /// Index of the block's first frame in the file.
    public var startFrame: Int
    /// Frames in this block (the last block may be shorter than requested).
    public var frameCount: Int
    /// Per-channel samples; each array holds exactly `frameCount` values.
    public var channels: [[Sample]]
}

/// Decoded audio: all frames of every channel.
public struct AudioSignal<Sample: AudioSample>: Sendable {
    /// File metadata.
    public var info: AudioFileInfo
    /// Per-channel samples, normalised to ±1.0 full scale.
    public var channels: [[Sample]]
}

/// An open audio file read through libsndfile (WAV, FLAC, OGG/Vorbis/Opus, AIFF, CAF, RF64, W64, AU, …).
///
/// Integer encodings are normalised so that full scale is ±1.0. Not `Sendable`: one task at a time.
/// `.m4a`/`.mp4`/`.aac` (ResearchKit's recorder format) are rejected with a hint to decode them first.
public final class SoundFile {
    /// Metadata read from the header.
    public let info: AudioFileInfo
    let handle: OpaquePointer
    private var scratch: [Double] = []
    private var scratchFloat: [Float] = []
    var position = 0

    /// Frames the header declares when the data ends early (a truncated file opened with
    /// `acceptTruncated: true`); `nil` for an intact file. ``info`` holds the frames actually present.
    public let declaredFrameCount: Int?

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - path: the audio file.
    ///   - acceptTruncated: if false (the default), a file whose header promises more audio than it holds
    ///     is rejected; if true, it opens with the frames present and ``declaredFrameCount`` set.
    /// - Throws: ``SoundFileError`` naming the file and the reason.
    public init(path: String, acceptTruncated: Bool = false) throws(SoundFileError) {
        try Self.preflight(path)
        var sfinfo = SF_INFO()
        let opened = LibsndfileOpen.open(path, mode: Int32(SFM_READ), &sfinfo)
        guard let h = opened.handle else {
            throw Self.classifyOpenFailure(path: path, code: opened.code, message: opened.message)
        }
        handle = h
        guard sfinfo.channels > 0, sfinfo.samplerate > 0 else {
            sf_close(h)
            throw .corrupt(path: path, reason: "header declares \(sfinfo.channels) channels at \(sfinfo.samplerate) Hz")
        }
        do {
            try AudioLimits.check(path: path, channels: Int(sfinfo.channels), sampleRate: Double(sfinfo.samplerate))
        } catch {
            sf_close(h)
            throw error
        }
        info = AudioFileInfo(
            path: path, sampleRate: Double(sfinfo.samplerate), frameCount: Int(sfinfo.frames),
            channelCount: Int(sfinfo.channels), format: Self.describe(format: sfinfo.format))
        let format = info.format
        let bytesPerFrame: Int? =
            ["PCM_S8", "PCM_U8", "PCM_16", "PCM_24", "PCM_32", "FLOAT", "DOUBLE", "ULAW", "ALAW"].contains(
                format.encoding)
            ? format.bitsPerSample.map { $0 / 8 * Int(sfinfo.channels) } : nil
        declaredFrameCount = Self.declaredFrames(
            handle: h, framesPresent: Int(sfinfo.frames), bytesPerFrame: bytesPerFrame)
        if let declared = declaredFrameCount, !acceptTruncated {
            sf_close(h)
            throw .truncated(path: path, expectedFrames: declared, framesRead: Int(sfinfo.frames))
        }
    }

    /// libsndfile clamps a truncated PCM file to the data present and says so only in its log
    /// (`data : 96000 (should be 47978)`); recover the declared frame count from that line.
    private static func declaredFrames(handle: OpaquePointer, framesPresent: Int, bytesPerFrame: Int?) -> Int? {
        var log = [CChar](repeating: 0, count: 16_384)
        sf_command(handle, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = log.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("data") || trimmed.hasPrefix("SSND"),
                let open = trimmed.range(of: "(should be "),
                let colon = trimmed.firstIndex(of: ":")
            else { continue }
            let declaredText = trimmed[trimmed.index(after: colon)..<open.lowerBound].trimmingCharacters(
                in: .whitespaces)
            let actualText = trimmed[open.upperBound...].prefix { $0.isNumber }
            guard let declared = Int(declaredText), let actual = Int(actualText), actual > 0, declared > actual else {
                continue
            }
            if let bytesPerFrame, bytesPerFrame > 0 { return declared / bytesPerFrame }
            return Int(exactly: (Double(framesPresent) * Double(declared) / Double(actual)).rounded())
        }
        return nil
    }

    deinit { sf_close(handle) }

    /// Decodes the whole file into per-channel arrays.
    /// - Throws: ``SoundFileError/truncated(path:expectedFrames:framesRead:)`` if the data ends early.
    @specialized(where Sample == Double)
    @specialized(where Sample == Float)
    public static func read<Sample: AudioSample>(path: String, as: Sample.Type = Double.self) throws(SoundFileError)
        -> AudioSignal<Sample>
    {
        let file = try SoundFile(path: path)
        return AudioSignal(info: file.info, channels: try file.readRemaining(as: Sample.self))
    }

    /// Decodes every remaining frame into per-channel arrays (one allocation per channel).
    @specialized(where Sample == Double)
    @specialized(where Sample == Float)
    public func readRemaining<Sample: AudioSample>(as: Sample.Type = Double.self) throws(SoundFileError) -> [[Sample]] {
        let remaining = max(0, info.frameCount - position)
        let nch = info.channelCount
        if nch == 1 {
            var got = 0
            let samples = [Sample](unsafeUninitializedCapacity: remaining) { buf, count in
                if remaining > 0 { got = Sample.sfReadFrames(handle, buf.baseAddress!, remaining) }
                // Zero what was not decoded so the array is fully initialised before we report it.
                if got < remaining { (buf.baseAddress! + got).initialize(repeating: 0, count: remaining - got) }
                count = remaining
            }
            position += got
            if got < remaining {
                throw .truncated(path: info.path, expectedFrames: info.frameCount, framesRead: position)
            }
            return [samples]
        }
        // Decode interleaved blocks into a scratch buffer and de-interleave straight into per-channel
        // storage allocated once at its final size.
        let block = 1 << 14
        var interleaved = [Sample](repeating: 0, count: block * nch)
        var channels = [[Sample]](repeating: [Sample](repeating: 0, count: remaining), count: nch)
        var left = remaining
        var written = 0
        while left > 0 {
            let want = min(block, left)
            let got = interleaved.withUnsafeMutableBufferPointer { Sample.sfReadFrames(handle, $0.baseAddress!, want) }
            if got <= 0 { break }
            interleaved.withUnsafeBufferPointer { src in
                for c in 0..<nch {
                    channels[c].withUnsafeMutableBufferPointer { dst in
                        var k = c
                        for i in written..<(written + got) {
                            dst[i] = src[k]
                            k += nch
                        }
                    }
                }
            }
            written += got
            left -= got
            position += got
        }
        if left > 0 { throw .truncated(path: info.path, expectedFrames: info.frameCount, framesRead: position) }
        return channels
    }

    /// Streams the file in blocks of `blockFrames` frames, de-interleaved, in constant memory.
    ///
    /// The block's channel arrays are reused from one call to the next: copy what you need to keep.
    /// - Parameters:
    ///   - blockFrames: frames per block (the last block may be shorter).
    ///   - body: called once per block, in file order.
    /// - Throws: ``SoundFileError/truncated(path:expectedFrames:framesRead:)`` after the last decodable
    ///   block if the data ends early, or whatever `body` throws.
    @specialized(where Sample == Double)
    @specialized(where Sample == Float)
    public func forEachBlock<Sample: AudioSample>(
        frames blockFrames: Int = 65_536, as: Sample.Type,
        _ body: (borrowing AudioBlock<Sample>) throws -> Void
    ) throws {
        precondition(blockFrames > 0, "SoundFile.forEachBlock: blockFrames must be positive, got \(blockFrames)")
        let nch = info.channelCount
        // Buffers hold min(frames left, block) frames: a one-frame file never allocates a whole block.
        let blockFrames = AudioLimits.bufferFrames(
            block: blockFrames, frameCount: info.frameCount - position, channels: nch)
        var interleaved = nch == 1 ? [] : [Sample](repeating: 0, count: blockFrames * nch)
        var block = AudioBlock<Sample>(
            startFrame: position, frameCount: 0,
            channels: [[Sample]](repeating: [Sample](repeating: 0, count: blockFrames), count: nch))
        while position < info.frameCount {
            let want = min(blockFrames, info.frameCount - position)
            var got = 0
            if nch == 1 {
                // Decode straight into the channel buffer: no interleave copy for mono.
                if block.channels[0].count != want { block.channels[0] = [Sample](repeating: 0, count: want) }
                got = block.channels[0].withUnsafeMutableBufferPointer {
                    Sample.sfReadFrames(handle, $0.baseAddress!, want)
                }
                if got < want { block.channels[0].removeLast(want - got) }
            } else {
                got = interleaved.withUnsafeMutableBufferPointer { Sample.sfReadFrames(handle, $0.baseAddress!, want) }
                for c in 0..<nch {
                    if block.channels[c].count != got { block.channels[c] = [Sample](repeating: 0, count: got) }
                    interleaved.withUnsafeBufferPointer { src in
                        block.channels[c].withUnsafeMutableBufferPointer { dst in
                            for i in 0..<got { dst[i] = src[i * nch + c] }
                        }
                    }
                }
            }
            if got <= 0 { break }
            block.startFrame = position
            block.frameCount = got
            position += got
            try body(block)
            if got < want { break }
        }
        if position < info.frameCount {
            throw SoundFileError.truncated(path: info.path, expectedFrames: info.frameCount, framesRead: position)
        }
    }

    // MARK: Helpers

    /// Checks, before libsndfile opens it, that `path` is a readable, non-empty file in a container libsndfile
    /// can decode, with the specific error otherwise.
    private static func preflight(_ path: String) throws(SoundFileError) {
        try requireReadableFile(path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { throw .corrupt(path: path, reason: "file is empty (0 bytes)") }
        if let hint = compressedContainerHint(path: path) { throw .unsupportedFormat(path: path, hint: hint) }
        if let reason = LibsndfileListGuard.hazard(path: path) { throw .corrupt(path: path, reason: reason) }
    }

    /// Checks that `path` is an existing, readable file (not a folder), with the specific error otherwise.
    static func requireReadableFile(_ path: String) throws(SoundFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: "permission denied")
        }
    }

    /// MP4/M4A/AAC/MP3 containers libsndfile 1.2 cannot decode, detected by extension or magic bytes.
    static func compressedContainerHint(path: String) -> String? {
        let ext = (path as NSString).pathExtension.lowercased()
        var magic = [UInt8](repeating: 0, count: 12)
        if let fh = FileHandle(forReadingAtPath: path) {
            let data = (try? fh.read(upToCount: 12)) ?? Data()
            try? fh.close()
            magic = [UInt8](data) + [UInt8](repeating: 0, count: max(0, 12 - data.count))
        }
        let isMP4 = magic[4] == 0x66 && magic[5] == 0x74 && magic[6] == 0x79 && magic[7] == 0x70  // "ftyp"
        let isADTS = magic[0] == 0xFF && (magic[1] & 0xF6) == 0xF0
        if isMP4 || ["m4a", "mp4", "m4b", "aac", "3gp"].contains(ext) || (isADTS && ext != "mp3") {
            return "MP4/M4A/AAC audio (ResearchKit's recorder format) is not decodable by libsndfile; "
                + "convert it first, e.g. `ffmpeg -i input.m4a output.wav`"
        }
        return nil
    }

    private static func classifyOpenFailure(path: String, code: Int, message: String) -> SoundFileError {
        switch code {
        case Int(SF_ERR_UNRECOGNISED_FORMAT):
            .unsupportedFormat(path: path, hint: "libsndfile does not recognise the content (\(message))")
        case Int(SF_ERR_UNSUPPORTED_ENCODING):
            .unsupportedFormat(path: path, hint: "the container is known but its encoding is not (\(message))")
        case Int(SF_ERR_MALFORMED_FILE):
            .corrupt(path: path, reason: message)
        case Int(SF_ERR_SYSTEM):
            .unreadable(path: path, reason: message)
        default:
            // libsndfile reports most header problems with specific codes > 4.
            .corrupt(path: path, reason: message)
        }
    }

    static func describe(format: Int32) -> AudioFormat {
        let major = Int(format) & Int(SF_FORMAT_TYPEMASK)
        let sub = Int(format) & Int(SF_FORMAT_SUBMASK)
        func infoName(_ value: Int) -> String {
            var fi = SF_FORMAT_INFO()
            fi.format = Int32(value)
            guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &fi, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
                let n = fi.name
            else { return "unknown (0x\(String(value, radix: 16)))" }
            return String(cString: n)
        }
        let containers: [Int: String] = [
            Int(SF_FORMAT_WAV): "WAV", Int(SF_FORMAT_AIFF): "AIFF", Int(SF_FORMAT_AU): "AU",
            Int(SF_FORMAT_RAW): "RAW", Int(SF_FORMAT_PAF): "PAF", Int(SF_FORMAT_SVX): "SVX",
            Int(SF_FORMAT_NIST): "NIST", Int(SF_FORMAT_VOC): "VOC", Int(SF_FORMAT_IRCAM): "IRCAM",
            Int(SF_FORMAT_W64): "W64", Int(SF_FORMAT_MAT4): "MAT4", Int(SF_FORMAT_MAT5): "MAT5",
            Int(SF_FORMAT_PVF): "PVF", Int(SF_FORMAT_XI): "XI", Int(SF_FORMAT_HTK): "HTK",
            Int(SF_FORMAT_SDS): "SDS", Int(SF_FORMAT_AVR): "AVR", Int(SF_FORMAT_WAVEX): "WAVEX",
            Int(SF_FORMAT_SD2): "SD2", Int(SF_FORMAT_FLAC): "FLAC", Int(SF_FORMAT_CAF): "CAF",
            Int(SF_FORMAT_WVE): "WVE", Int(SF_FORMAT_OGG): "OGG", Int(SF_FORMAT_MPC2K): "MPC2K",
            Int(SF_FORMAT_RF64): "RF64", Int(SF_FORMAT_MPEG): "MPEG",
        ]
        let encodings: [Int: (String, Int?)] = [
            Int(SF_FORMAT_PCM_S8): ("PCM_S8", 8), Int(SF_FORMAT_PCM_16): ("PCM_16", 16),
            Int(SF_FORMAT_PCM_24): ("PCM_24", 24), Int(SF_FORMAT_PCM_32): ("PCM_32", 32),
            Int(SF_FORMAT_PCM_U8): ("PCM_U8", 8), Int(SF_FORMAT_FLOAT): ("FLOAT", 32),
            Int(SF_FORMAT_DOUBLE): ("DOUBLE", 64), Int(SF_FORMAT_ULAW): ("ULAW", 8),
            Int(SF_FORMAT_ALAW): ("ALAW", 8), Int(SF_FORMAT_IMA_ADPCM): ("IMA_ADPCM", nil),
            Int(SF_FORMAT_MS_ADPCM): ("MS_ADPCM", nil), Int(SF_FORMAT_GSM610): ("GSM610", nil),
            Int(SF_FORMAT_VOX_ADPCM): ("VOX_ADPCM", nil), Int(SF_FORMAT_G721_32): ("G721_32", nil),
            Int(SF_FORMAT_G723_24): ("G723_24", nil), Int(SF_FORMAT_G723_40): ("G723_40", nil),
            Int(SF_FORMAT_DWVW_12): ("DWVW_12", 12), Int(SF_FORMAT_DWVW_16): ("DWVW_16", 16),
            Int(SF_FORMAT_DWVW_24): ("DWVW_24", 24), Int(SF_FORMAT_DWVW_N): ("DWVW_N", nil),
            Int(SF_FORMAT_DPCM_8): ("DPCM_8", 8), Int(SF_FORMAT_DPCM_16): ("DPCM_16", 16),
            Int(SF_FORMAT_VORBIS): ("VORBIS", nil), Int(SF_FORMAT_OPUS): ("OPUS", nil),
            Int(SF_FORMAT_ALAC_16): ("ALAC_16", 16), Int(SF_FORMAT_ALAC_20): ("ALAC_20", 20),
            Int(SF_FORMAT_ALAC_24): ("ALAC_24", 24), Int(SF_FORMAT_ALAC_32): ("ALAC_32", 32),
            Int(SF_FORMAT_MPEG_LAYER_I): ("MPEG_LAYER_I", nil), Int(SF_FORMAT_MPEG_LAYER_II): ("MPEG_LAYER_II", nil),
            Int(SF_FORMAT_MPEG_LAYER_III): ("MPEG_LAYER_III", nil),
        ]
        let enc = encodings[sub] ?? ("0x" + String(sub, radix: 16), nil)
        return AudioFormat(
            container: containers[major] ?? "0x" + String(major, radix: 16), encoding: enc.0, bitsPerSample: enc.1,
            containerDescription: infoName(major), encodingDescription: infoName(sub))
    }
}

/// The containers/encodings ``AudioFileWriter`` can produce.
public enum AudioFileFormat: String, Sendable, CaseIterable, Codable {
    /// WAV, signed 16-bit PCM.
    case wav16
    /// WAV, signed 24-bit PCM.
    case wav24
    /// WAV, 32-bit float.
    case wavFloat
    /// FLAC, 16-bit.
    case flac16
    /// FLAC, 24-bit.
    case flac24
    /// AIFF, signed 16-bit PCM.
    case aiff16
    /// CAF, signed 16-bit PCM.
    case caf16
    /// RF64, signed 16-bit PCM.
    case rf64
    /// Sony W64, signed 16-bit PCM.
    case w64
    /// Ogg Vorbis (lossy).
    case oggVorbis
    /// Sun/NeXT AU, signed 16-bit PCM.
    case au16

    /// The file-name extensions (lower case, without the dot) of this format's container.
    public var fileExtensions: [String] {
        switch self {
        case .wav16, .wav24, .wavFloat: ["wav", "wave"]
        case .flac16, .flac24: ["flac"]
        case .aiff16: ["aiff", "aif"]
        case .caf16: ["caf"]
        case .rf64: ["rf64"]
        case .w64: ["w64"]
        case .oggVorbis: ["ogg", "oga"]
        case .au16: ["au", "snd"]
        }
    }

    /// The format written for a file-name extension (case-insensitive, without the dot) when none is named: the
    /// 16-bit PCM (or, for Ogg, Vorbis) encoding of that container; nil for an extension of no known container.
    public static func defaultFormat(forExtension ext: String) -> AudioFileFormat? {
        let e = ext.lowercased()
        return allCases.first { $0.fileExtensions.contains(e) }
    }

    var sfFormat: Int32 {
        let v: Int
        switch self {
        case .wav16: v = Int(SF_FORMAT_WAV) | Int(SF_FORMAT_PCM_16)
        case .wav24: v = Int(SF_FORMAT_WAV) | Int(SF_FORMAT_PCM_24)
        case .wavFloat: v = Int(SF_FORMAT_WAV) | Int(SF_FORMAT_FLOAT)
        case .flac16: v = Int(SF_FORMAT_FLAC) | Int(SF_FORMAT_PCM_16)
        case .flac24: v = Int(SF_FORMAT_FLAC) | Int(SF_FORMAT_PCM_24)
        case .aiff16: v = Int(SF_FORMAT_AIFF) | Int(SF_FORMAT_PCM_16)
        case .caf16: v = Int(SF_FORMAT_CAF) | Int(SF_FORMAT_PCM_16)
        case .rf64: v = Int(SF_FORMAT_RF64) | Int(SF_FORMAT_PCM_16)
        case .w64: v = Int(SF_FORMAT_W64) | Int(SF_FORMAT_PCM_16)
        case .oggVorbis: v = Int(SF_FORMAT_OGG) | Int(SF_FORMAT_VORBIS)
        case .au16: v = Int(SF_FORMAT_AU) | Int(SF_FORMAT_PCM_16)
        }
        return Int32(v)
    }
}

/// Writes audio files through libsndfile (used for generated test signals and sample data).
///
/// Samples are ±1.0 full scale; integer encodings clip out-of-range values instead of wrapping.
public enum AudioFileWriter {
    /// Writes per-channel samples to `path`, replacing nothing: an existing file is an error unless
    /// `overwrite` is true.
    /// - Parameters:
    ///   - channels: one array per channel, all the same length.
    ///   - sampleRate: Hz (integer rates only, as every container stores them).
    /// - Throws: ``SoundFileError/writeFailed(path:reason:)``.
    public static func write<Sample: AudioSample>(
        _ channels: [[Sample]], sampleRate: Int, to path: String, format: AudioFileFormat = .wav16,
        overwrite: Bool = false
    ) throws(SoundFileError) {
        guard let first = channels.first, channels.allSatisfy({ $0.count == first.count }) else {
            throw .writeFailed(path: path, reason: "need at least one channel, all of equal length")
        }
        try write(
            frames: first.count, channelCount: channels.count, sampleRate: sampleRate, to: path, format: format,
            overwrite: overwrite, as: Sample.self
        ) { channel, start, out in
            for i in 0..<out.count { out[i] = channels[channel][start + i] }
        }
    }

    /// Writes `frames` frames of `channelCount` channels to `path` in blocks, in constant memory.
    ///
    /// `fill(channel, startFrame, buffer)` supplies each channel's samples for frames
    /// `startFrame ..< startFrame + buffer.count`. An existing file is an error unless `overwrite` is true.
    /// - Parameters:
    ///   - frames: frames to write (samples per channel).
    ///   - channelCount: channels, 1…``AudioLimits/maximumChannels``.
    ///   - sampleRate: Hz (integer rates only, as every container stores them), within ``AudioLimits``.
    /// - Throws: ``SoundFileError/writeFailed(path:reason:)``.
    public static func write<Sample: AudioSample>(
        frames: Int, channelCount: Int, sampleRate: Int, to path: String, format: AudioFileFormat = .wav16,
        overwrite: Bool = false, as: Sample.Type,
        fill: (_ channel: Int, _ startFrame: Int, _ buffer: inout [Sample]) -> Void
    ) throws(SoundFileError) {
        guard frames >= 0, (1...AudioLimits.maximumChannels).contains(channelCount),
            (AudioLimits.minimumSampleRate...AudioLimits.maximumSampleRate).contains(sampleRate)
        else {
            throw .writeFailed(
                path: path,
                reason: "\(channelCount) channels at \(sampleRate) Hz is outside 1…\(AudioLimits.maximumChannels) "
                    + "channels at \(AudioLimits.minimumSampleRate)…\(AudioLimits.maximumSampleRate) Hz")
        }
        if !overwrite && FileManager.default.fileExists(atPath: path) {
            throw .writeFailed(path: path, reason: "file exists (refusing to overwrite)")
        }
        var sfinfo = SF_INFO()
        sfinfo.samplerate = Int32(sampleRate)
        sfinfo.channels = Int32(channelCount)
        sfinfo.format = format.sfFormat
        guard sf_format_check(&sfinfo) != 0 else {
            throw .writeFailed(
                path: path, reason: "libsndfile rejects \(format.rawValue) at \(sampleRate) Hz, \(channelCount) ch")
        }
        let opened = LibsndfileOpen.open(path, mode: Int32(SFM_WRITE), &sfinfo)
        guard let h = opened.handle else { throw .writeFailed(path: path, reason: opened.message) }
        let clip: Int32 = 1  // SF_TRUE
        sf_command(h, Int32(SFC_SET_CLIPPING), nil, clip)
        let nch = channelCount
        let block = 1 << 14
        var interleaved = [Sample](repeating: 0, count: min(block, max(frames, 1)) * nch)
        var channelBuffer = [Sample]()
        var start = 0
        while start < frames {
            let n = min(block, frames - start)
            for c in 0..<nch {
                if channelBuffer.count != n { channelBuffer = [Sample](repeating: 0, count: n) }
                fill(c, start, &channelBuffer)
                for i in 0..<n { interleaved[i * nch + c] = channelBuffer[i] }
            }
            let written = interleaved.withUnsafeBufferPointer { Sample.sfWriteFrames(h, $0.baseAddress!, n) }
            guard written == n else {
                let reason = String(cString: sf_strerror(h))
                sf_close(h)
                throw .writeFailed(path: path, reason: reason)
            }
            start += n
        }
        // Closing writes the header's final sizes: a failure here is a failed write too.
        guard sf_close(h) == 0 else { throw .writeFailed(path: path, reason: "cannot finish the file (close failed)") }
    }
}

/// Every `sf_open` of the process, serialised with the reading of its error.
///
/// libsndfile keeps the error of a failed open in one process-wide variable (`sf_errno`, read by `sf_error(NULL)`
/// and `sf_strerror(NULL)`) that every `sf_open`, on any thread, resets to 0 as it starts. Unserialised, a failed
/// open running beside another open can read that open's "No Error." (code 0) instead of its own reason, so the
/// same corrupt file gets a different message (and possibly a different ``SoundFileError`` case) depending on
/// what another thread opens at that moment.
enum LibsndfileOpen {
    private static let lock = NSLock()

    /// Opens `path` in `mode`; the handle, or nil with the code and message of this open's failure.
    static func open(_ path: String, mode: Int32, _ sfinfo: inout SF_INFO) -> (
        handle: OpaquePointer?, code: Int, message: String
    ) {
        lock.lock()
        defer { lock.unlock() }
        if let handle = sf_open(path, mode, &sfinfo) { return (handle, 0, "") }
        return (nil, Int(sf_error(nil)), String(cString: sf_strerror(nil)))
    }
}

/// The libsndfile version string, e.g. `libsndfile-1.2.0`.
public var libsndfileVersion: String {
    var buffer = [CChar](repeating: 0, count: 128)
    sf_command(nil, Int32(SFC_GET_LIB_VERSION), &buffer, Int32(buffer.count))
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
