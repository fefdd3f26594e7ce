import Foundation
import SensorSignal
import StudyInputs

/// Level and spectral summary of one audio channel. Levels are relative to digital full scale
/// (1.0 = the largest integer sample), not calibrated sound pressure.
public struct AudioChannelSummary: Sendable, Codable, Hashable {
    /// Zero-based channel index in the file.
    public var channel: Int
    /// Root-mean-square amplitude, full-scale units (a full-scale sine reads 1/√2).
    public var rms: Double
    /// RMS level, dBFS: `20·log10(rms)`; `nil` for digital silence (−∞).
    public var rmsDBFS: Double?
    /// Largest absolute sample value, full-scale units.
    public var peak: Double
    /// Peak level, dBFS: `20·log10(peak)`; `nil` for digital silence.
    public var peakDBFS: Double?
    /// Crest factor, dB: peak level minus RMS level (3.01 dB for a sine); `nil` for silence.
    public var crestFactorDB: Double?
    /// Mean sample value (DC offset), full-scale units.
    public var dcOffset: Double
    /// Samples at or beyond the clipping threshold (see ``AudioFileSummary/clippingThreshold``).
    public var clippedSamples: Int
    /// Frequency of the largest spectral peak above DC, Hz (Welch-averaged Hann spectrum with
    /// quadratic interpolation between bins); `nil` for silence or a pure DC signal. Meaningful only
    /// for tonal content: check ``spectralFlatness``.
    public var dominantFrequency: Double?
    /// Spectral flatness (Wiener entropy) of the Welch spectrum above DC, 0…1: the geometric over the
    /// arithmetic mean of the power. Near 0 for a tone, about 0.9 or more for white noise; `nil` for silence.
    public var spectralFlatness: Double?
    /// Samples that were NaN, ±∞ or beyond ±``AudioLimits/maximumSampleMagnitude`` full scale: replaced by 0
    /// (silence) for every measure and counted here; `nil` (key omitted) when there were none.
    public var excludedSamples: Int?
}

extension AudioChannelSummary {
    private enum CodingKeys: String, CodingKey {
        case channel, rms, rmsDBFS, peak, peakDBFS, crestFactorDB, dcOffset, clippedSamples, dominantFrequency
        case spectralFlatness, excludedSamples
    }

    /// Encodes every key, with `null` for undefined levels (silence), so the schema is the same for every file.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(channel, forKey: .channel)
        try c.encode(rms, forKey: .rms)
        try c.encode(rmsDBFS, forKey: .rmsDBFS)
        try c.encode(peak, forKey: .peak)
        try c.encode(peakDBFS, forKey: .peakDBFS)
        try c.encode(crestFactorDB, forKey: .crestFactorDB)
        try c.encode(dcOffset, forKey: .dcOffset)
        try c.encode(clippedSamples, forKey: .clippedSamples)
        try c.encode(dominantFrequency, forKey: .dominantFrequency)
        try c.encode(spectralFlatness, forKey: .spectralFlatness)
        try c.encodeIfPresent(excludedSamples, forKey: .excludedSamples)
    }
}

/// Summary of an audio recording: format, duration and per-channel levels.
public struct AudioFileSummary: Sendable, Codable, Hashable {
    /// Always `"audio"`: identifies the kind of result.
    public var kind: String = "audio"
    /// Path of the analysed file.
    public var file: String
    /// Container short name (`WAV`, `FLAC`, …).
    public var container: String
    /// Encoding short name (`PCM_16`, `FLOAT`, …).
    public var encoding: String
    /// Sampling rate, Hz.
    public var sampleRate: Double
    /// Number of channels.
    public var channelCount: Int
    /// Frames (samples per channel) analysed.
    public var frameCount: Int
    /// Duration analysed, seconds.
    public var duration: Double
    /// Absolute sample value at or above which a sample counts as clipped, full-scale units:
    /// the largest positive code of the integer encoding (e.g. 32767/32768 for 16-bit), or 1.0 for float.
    public var clippingThreshold: Double
    /// Frames the header declared when the file was truncated and analysed anyway; otherwise `nil`.
    public var declaredFrameCount: Int?
    /// One summary per channel, in file order.
    public var channels: [AudioChannelSummary]
    /// Spectral settings used for ``AudioChannelSummary/dominantFrequency``.
    public var spectrum: SpectrumSettings
    /// Sound levels (LAeq, LCeq, LAFmax, …, ResearchKit window series) of the analysed channel(s), measured in
    /// the same streaming pass; `nil` only in summaries decoded from older output.
    public var soundLevel: SoundLevelResult?
    /// The decoder used: `libsndfile`, or `ffmpeg` for MP4/M4A/AAC.
    public var decoder: String?
    /// What was excluded and why (non-finite or out-of-range samples); `nil` (key omitted) when nothing was.
    public var warnings: [String]?

    /// How the dominant frequency was estimated.
    public struct SpectrumSettings: Sendable, Codable, Hashable {
        /// Welch segment length, samples.
        public var segmentLength: Int
        /// Frequency resolution before interpolation, Hz (`sampleRate / segmentLength`).
        public var binWidth: Double
        /// Number of averaged segments.
        public var segments: Int
    }
}

/// Options for ``AudioFileAnalyzer``.
public struct AudioAnalysisOptions: Sendable, Hashable, Codable {
    /// Frames decoded per streaming block: memory use is proportional to this, not to the file.
    public var blockFrames: Int = 65_536
    /// Analyse a truncated file's surviving frames instead of failing.
    public var acceptTruncated = false
    /// Welch segment length for the dominant frequency, samples (shortened for short files).
    public var spectrumSegmentLength = 8192
    /// Sound-level options (channel, calibration, ResearchKit window series and threshold rule).
    public var soundLevel = SoundLevelAnalysisOptions()

    /// Default options.
    public init() {}
}

/// Summarises audio files in one streaming pass, in constant memory.
public enum AudioFileAnalyzer {
    /// Decodes `path` block by block (libsndfile, or FFmpeg for MP4/M4A/AAC) and summarises each channel,
    /// with the sound levels of the selected channel(s) from the same pass.
    /// - Throws: ``SoundFileError`` for unreadable, unsupported, corrupt or truncated files (or FFmpeg missing),
    ///   ``SoundLevelAnalysisError`` for a channel the file does not have.
    public static func summarize(path: String, options: AudioAnalysisOptions = .init()) throws -> AudioFileSummary {
        let file = try AudioFileReader(
            path: path, acceptTruncated: options.acceptTruncated, ffmpegDirectory: options.soundLevel.ffmpegDirectory)
        let info = file.info
        var levelOptions = options.soundLevel
        levelOptions.acceptTruncated = options.acceptTruncated
        let selected = try SoundLevelAnalyzer.channels(info: info, options: levelOptions)
        var meterConfiguration = SoundLevelMeter.Configuration()
        meterConfiguration.samplingInterval = levelOptions.samplingInterval
        let meters = try SoundLevelAnalyzer.makeMeters(
            path: path, info: info, count: selected.count, configuration: meterConfiguration)
        let bandMeters = try SoundLevelAnalyzer.makeBandMeters(
            path: path, info: info, count: selected.count, options: levelOptions)
        let threshold = clippingThreshold(for: info.format)
        // FFmpeg input has no exact frame count before decoding: use the full segment length then.
        let segment = file.decoder == "ffmpeg"
            ? options.spectrumSegmentLength : min(options.spectrumSegmentLength, max(info.frameCount, 1))
        var levels = (0..<info.channelCount).map { _ in LevelAccumulator(clipThreshold: threshold) }
        var spectra = try (0..<info.channelCount).map { _ in
            try WelchAccumulator<Double>(segmentLength: segment, sampleRate: info.sampleRate)
        }
        var slot = [Int?](repeating: nil, count: info.channelCount)
        for (k, c) in selected.enumerated() { slot[c] = k }
        var excluded = [Int](repeating: 0, count: info.channelCount)
        var scratch: [Double] = []
        try file.forEachBlock(frames: options.blockFrames, as: Double.self) { block in
            for c in 0..<info.channelCount {
                block.channels[c].withUnsafeBufferPointer { raw in
                    SoundLevelAnalyzer.withUsableSamples(raw, scratch: &scratch, excluded: &excluded[c]) { samples in
                        levels[c].add(samples.span)
                        spectra[c].add(samples.span)
                        if let k = slot[c] {
                            meters[k].add(samples.span)
                            bandMeters?[k].add(samples.span)
                        }
                    }
                }
            }
        }
        let decoded = file.info
        let channels = (0..<info.channelCount).map { c -> AudioChannelSummary in
            let l = levels[c]
            let rmsDB = decibels(l.rms)
            let peakDB = decibels(l.peak)
            return AudioChannelSummary(
                channel: c, rms: l.rms, rmsDBFS: rmsDB, peak: l.peak, peakDBFS: peakDB,
                crestFactorDB: rmsDB.flatMap { r in peakDB.map { $0 - r } }, dcOffset: l.mean,
                clippedSamples: l.clippedCount,
                dominantFrequency: l.peak > 0 ? spectra[c].dominantFrequency() : nil,
                spectralFlatness: l.peak > 0 ? spectra[c].spectrum(scaling: .spectrum).flatness() : nil,
                excludedSamples: excluded[c] > 0 ? excluded[c] : nil)
        }
        let warnings = (0..<info.channelCount).filter { excluded[$0] > 0 }.map {
            SoundLevelAnalyzer.excludedWarning(channel: $0, count: excluded[$0])
        }
        return AudioFileSummary(
            file: path, container: info.format.container, encoding: info.format.encoding,
            sampleRate: info.sampleRate, channelCount: info.channelCount, frameCount: decoded.frameCount,
            duration: decoded.duration, clippingThreshold: threshold, declaredFrameCount: file.declaredFrameCount,
            channels: channels,
            spectrum: .init(
                segmentLength: segment, binWidth: info.sampleRate / Double(segment),
                segments: spectra.first?.segmentCount ?? 0),
            soundLevel: SoundLevelAnalyzer.result(
                path: path, info: decoded, format: info.format, selected: selected,
                measurements: meters.map { $0.finish() }, bands: bandMeters, options: levelOptions),
            decoder: file.decoder, warnings: warnings.isEmpty ? nil : warnings)
    }

    /// The largest positive code of a PCM encoding in full-scale units; 1.0 for float and lossy codecs.
    static func clippingThreshold(for format: AudioFormat) -> Double {
        let integerEncodings: Set<String> = [
            "PCM_S8", "PCM_U8", "PCM_16", "PCM_24", "PCM_32", "ALAC_16", "ALAC_20", "ALAC_24", "ALAC_32",
        ]
        guard integerEncodings.contains(format.encoding), let bits = format.bitsPerSample else { return 1.0 }
        let scale = Double(sign: .plus, exponent: bits - 1, significand: 1)
        return (scale - 1) / scale
    }

    /// `20·log10(x)` for x > 0; `nil` for 0 (−∞ dB has no JSON representation).
    static func decibels(_ amplitude: Double) -> Double? {
        amplitude > 0 ? 20 * log10(amplitude) : nil
    }
}
