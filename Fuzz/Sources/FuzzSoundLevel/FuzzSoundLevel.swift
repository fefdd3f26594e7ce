// The sound-level processor fed decoded-but-hostile audio: a 32-bit float or 16-bit WAV written from the input
// (any sampling rate a WAV header can hold, 1–8 channels, samples NaN, ±infinity, ±3.4e38, denormal) and analysed
// by SoundLevelAnalyzer with the options the CLI accepts (channel, sampling interval 0.1–3600 s, third-octave
// bands, block size), then the whole-file audio analysis; a rendering (a trailing byte picks the format).
import Foundation
import FuzzSupport

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs
@testable import StudyOutputs

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundLevel(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    let channels = 1 + input.count(max: 7)
    let rates: [UInt32] = [1000, 8000, 22_050, 44_100, 48_000, 96_000, 999, 1, 0, 2_000_000_000, .max]
    let r = Int(input.byte())
    let rate = r < rates.count * 16 ? rates[r % rates.count] : UInt32(truncatingIfNeeded: input.word())
    let pcm16 = input.byte() % 3 == 0
    let frames = input.count(max: 12_000)
    let pattern = input.hostileDoubles(max: 64)
    var options = SoundLevelAnalysisOptions()
    options.ffmpegDirectory = noFFmpegFolder
    options.channel = input.byte() % 4 == 0 ? input.count(max: 9) : nil
    options.samplingInterval = [0.1, 0.125, 1, 3600][Int(input.byte() % 4)]
    options.thirdOctaveBands = input.byte() % 2 == 0
    options.blockFrames = [1, 7, 4096, 65_536][Int(input.byte() % 4)]
    // Blocks of 1 or 7 frames cost a per-call overhead in every band filter (5 s under ASan for 5 channels × 22 699
    // frames with third-octave bands: linear, not a hang, but over the 10 s timeout on a loaded machine); keep
    // those inputs short so that the time goes to the values, not the block size.
    // At most 8192 samples in all channels (8 s of one channel, or 1 s of eight, at 1 kHz: every interval and band
    // path still completes at the low rates the input can pick); until 2026-11-26 up to 12 000 frames of each of
    // 8 channels, which held the target near 60 executions per second without reaching other code.
    let wav = makeWAV(
        channels: channels, rate: rate, pcm16: pcm16,
        frames: min(options.blockFrames < 64 ? min(frames, 2048) : frames, 8192 / channels),
        sample: { pattern.isEmpty ? 0 : pattern[$0 % pattern.count] + sin(Double($0) / 5) })
    // One byte after the rest picks the output format (JSON, table, CSV, researchkit, mork, fhir).
    let format = input.byte()
    // And one more which entry point reads the file: 0 (as the committed corpus, which ends before it) both, 1
    // SoundLevelAnalyzer (`analyze-sound`), 2 the whole-file analysis (`analyze`); each run alone halves the time.
    let entry = input.byte() % 3
    withFuzzFile(wav, named: "sound.wav") { path in
        if entry != 2, let result = try? SoundLevelAnalyzer.analyze(path: path, options: options) {
            renderOneFormat(result, format: format)
        }
        guard entry != 1 else { return }
        var analysis = fuzzAnalysisOptions()
        analysis.audio.soundLevel = options
        analysis.audio.blockFrames = options.blockFrames
        loadAnalyzeAndRender(path, options: analysis, format: format)
    }
    return 0
}

/// A canonical WAV file: IEEE float 32-bit or PCM 16-bit, interleaved, `sample(k)` for the k-th value.
func makeWAV(channels: Int, rate: UInt32, pcm16: Bool, frames: Int, sample: (Int) -> Double) -> [UInt8] {
    var out: [UInt8] = []
    func u32(_ v: UInt32) { out += withUnsafeBytes(of: v.littleEndian, Array.init) }
    func u16(_ v: UInt16) { out += withUnsafeBytes(of: v.littleEndian, Array.init) }
    let bytesPerSample = pcm16 ? 2 : 4
    let dataBytes = UInt32(frames * channels * bytesPerSample)
    out += Array("RIFF".utf8)
    u32(36 + dataBytes)
    out += Array("WAVEfmt ".utf8)
    u32(16)
    u16(pcm16 ? 1 : 3)
    u16(UInt16(channels))
    u32(rate)
    u32(rate &* UInt32(channels * bytesPerSample))
    u16(UInt16(channels * bytesPerSample))
    u16(UInt16(bytesPerSample * 8))
    out += Array("data".utf8)
    u32(dataBytes)
    for k in 0..<(frames * channels) {
        let value = sample(k)
        if pcm16 {
            let clamped = value.isFinite ? max(-32_768, min(32_767, value * 32_768)) : 0
            u16(UInt16(bitPattern: Int16(clamped)))
        } else {
            u32(Float(value).bitPattern)
        }
    }
    return out
}
