import Foundation
import Testing

@testable import SensorSignal

/// The FFmpeg handoff's boundary: what `ffprobe` prints about a file is what its container declares, so any value
/// (fuzzed by `Fuzz/Sources/FuzzFFprobe`).
@Suite struct FFprobeBoundaryTests {
    static func probe(_ lines: String, status: Int32 = 0) throws(SoundFileError) -> AudioFileInfo {
        try FFmpegAudioDecoder.probedInfo(path: "a.m4a", status: status, output: lines, errors: "")
    }

    @Test func ordinaryOutputIsParsed() throws {
        let info = try Self.probe(
            "codec_name=aac\nsample_rate=44100\nchannels=2\nduration=2.000000\nformat_name=mov,mp4,m4a,3gp,3g2,mj2\n")
        #expect(info.sampleRate == 44_100)
        #expect(info.channelCount == 2)
        #expect(info.frameCount == 88_200)
        #expect(info.format.container == "MP4")
    }

    /// Fuzz finding (FuzzFFprobe): `Int((duration * rate).rounded())` trapped on a declared duration of 1e300 or
    /// `inf`; the estimate is now 0 when it cannot be an Int (the decoded count replaces it anyway).
    @Test func absurdDurationsGiveNoEstimateInsteadOfATrap() throws {
        for duration in ["1e300", "inf", "-inf", "nan", "-5", "N/A", "9.3e18"] {
            let info = try Self.probe("sample_rate=48000\nchannels=1\nduration=\(duration)\n")
            #expect(info.frameCount == 0, "duration=\(duration)")
        }
    }

    /// A non-finite rate or a channel count no buffer can hold is a decode failure, not a trap later on.
    @Test func unusableRatesAndChannelCountsAreRefused() {
        for fields in [
            "sample_rate=inf\nchannels=1\n", "sample_rate=nan\nchannels=1\n",
            "sample_rate=48000\nchannels=9223372036854775807\n",
            "sample_rate=48000\nchannels=\(AudioLimits.maximumChannels + 1)\n",
        ] {
            #expect(throws: SoundFileError.self, "\(fields)") { try Self.probe(fields) }
        }
        #expect(throws: SoundFileError.self) { try Self.probe("sample_rate=48000\nchannels=1\n", status: 1) }
    }
}
