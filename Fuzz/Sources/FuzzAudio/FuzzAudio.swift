// The audio path: bytes written as an audio file (the first byte picks the extension) and opened by libsndfile
// (WAV, FLAC, OGG/Vorbis/Opus, AIFF, CAF, AU, W64, RF64 headers and data), streamed in small blocks, then analysed
// as `taskproc analyze` does (file summary, spectrum, sound level). Files FFmpeg would decode (MP4 family, by magic
// bytes or extension) stop at the handoff: see FuzzFFprobe.
import Foundation
import FuzzSupport
import SensorSignal

let names = ["a.wav", "a.flac", "a.ogg", "a.aiff", "a.caf", "a.au", "a.w64", "a.rf64", "a.opus", "a.snd", "a.aifc"]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAudio(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    let selector = input.byte()
    withFuzzFile(input.rest(), named: names[Int(selector) % names.count]) { path in
        if let reader = try? AudioFileReader(
            path: path, acceptTruncated: selector >= 128, ffmpegDirectory: noFFmpegFolder)
        {
            _ = reader.info.duration
            try? reader.forEachBlock(frames: 1 + Int(selector % 64), as: Float.self) { block in
                _ = block.channels.count
            }
        }
        loadAnalyzeAndRender(path, format: selector / UInt8(names.count))
    }
    return 0
}
