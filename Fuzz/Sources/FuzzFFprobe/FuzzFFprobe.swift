// The FFmpeg handoff at its boundary. Fuzzing ffmpeg itself through a subprocess per input runs at a few hundred
// executions per second and tests FFmpeg, not taskproc; what taskproc trusts from it is ffprobe's `key=value` text
// (sampling rate, channels, duration, codec, bit depth: whatever the container declares) and an f32le stream whose
// every byte pattern is a valid float. This target feeds hostile ffprobe text (and exit status) to the parser the
// decoder uses, and checks that what it accepts is safe to size buffers with.
import Foundation

@testable import SensorSignal

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFFprobe(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    let status: Int32 = count > 0 && buffer[0] == UInt8(ascii: "!") ? 1 : 0
    let text = String(decoding: buffer.dropFirst(status == 0 ? 0 : 1), as: UTF8.self)
    let parts = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
    let output = String(parts.first ?? "")
    let errors = parts.count > 1 ? String(parts[1]) : ""
    guard let info = try? FFmpegAudioDecoder.probedInfo(path: "a.m4a", status: status, output: output, errors: errors)
    else { return 0 }
    _ = info.duration
    // forEachBlock sizes its buffers as blockFrames × channels: that product must exist.
    precondition(!65_536.multipliedReportingOverflow(by: info.channelCount).overflow)
    return 0
}
