import Foundation
import StudyInputs
public import SensorSignal

/// Options for sound-level analysis (``SoundLevelAnalyzer`` and the sound-level part of ``AudioFileAnalyzer``).
public struct SoundLevelAnalysisOptions: Sendable, Hashable, Codable {
    /// The channel to analyse (0-based); `nil` analyses every channel. ResearchKit's meter uses channel 0.
    public var channel: Int?
    /// Calibration to dB SPL; `nil` reports dBFS.
    public var calibration: SoundCalibration?
    /// ResearchKit `samplingInterval` for the window series, s (default 1: 1 s windows every 1.1 s).
    public var samplingInterval: Double = 1
    /// The pass rule for the window series.
    public var rule = SPLThresholdRule()
    /// Frames decoded per streaming block (memory is proportional to this; results do not depend on it).
    public var blockFrames = 65_536
    /// Analyse a truncated file's surviving frames instead of failing.
    public var acceptTruncated = false
    /// Where `ffmpeg`/`ffprobe` live for MP4/M4A/AAC input; `nil` searches `PATH`.
    public var ffmpegDirectory: String?
    /// Also measure Z-weighted third-octave band levels (IEC 61260-1 base-10 bands, 25 Hz up to the highest band
    /// below 0.45·fs); off by default because it costs one 6th-order filter pass per band.
    public var thirdOctaveBands = false

    /// Default options.
    public init() {}
}

/// Why a sound-level analysis cannot run, naming the file and what was expected.
public enum SoundLevelAnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--channel` names a channel the file does not have.
    case channelOutOfRange(path: String, channel: Int, channelCount: Int)
    /// The calibrator recording is silent, so no sensitivity can be derived.
    case silentCalibration(path: String)
    /// The calibration level is not a positive finite dB SPL value.
    case invalidCalibrationLevel(Double)
    /// The meter rejected the file's parameters.
    case meter(path: String, SoundLevelError)
    /// The third-octave band filters cannot be designed for the file's rate.
    case bands(path: String, String)

    public var description: String {
        switch self {
        case .channelOutOfRange(let p, let c, let n):
            "\(p): channel \(c) does not exist (the file has \(n) channel\(n == 1 ? "" : "s"), numbered from 0)"
        case .silentCalibration(let p): "\(p): the calibration recording is digital silence; expected a calibrator tone"
        case .invalidCalibrationLevel(let l):
            "calibration level \(l) dB SPL: expected a positive level such as 94 or 114"
        case .meter(let p, let e): "\(p): \(e)"
        case .bands(let p, let e): "\(p): third-octave band filters: \(e)"
        }
    }
}

/// Measures sound levels of recordings (IEC 61672-1 A/C/Z, F/S, peak, exceedance levels, ResearchKit window
/// series) in one streaming pass, in constant memory. Stateless; safe from any task.
public enum SoundLevelAnalyzer {
    /// Analyses one recording: WAV/FLAC/… through libsndfile (16-bit PCM read as integers, without
    /// conversion), MP4/M4A/AAC/ALAC through FFmpeg.
    /// - Throws: ``SoundFileError`` (unreadable, unsupported, truncated, FFmpeg missing or failing) or
    ///   ``SoundLevelAnalysisError``.
    public static func analyze(path: String, options: SoundLevelAnalysisOptions = .init()) throws -> SoundLevelResult {
        let reader = try AudioFileReader(
            path: path, acceptTruncated: options.acceptTruncated, ffmpegDirectory: options.ffmpegDirectory)
        let info = reader.info
        let selected = try channels(info: info, options: options)
        if let file = reader.soundFile, file.isPCM16 {
            var configuration = SoundLevelMeter.Configuration()
            configuration.fullScale = 32_768
            configuration.samplingInterval = options.samplingInterval
            let meters = try makeMeters(path: path, info: info, count: selected.count, configuration: configuration)
            let bandMeters = try makeBandMeters(path: path, info: info, count: selected.count, options: options)
            let nch = info.channelCount
            let scratchFrames = AudioLimits.bufferFrames(
                block: options.blockFrames, frameCount: info.frameCount, channels: nch)
            var scratch = [Int16](repeating: 0, count: nch == 1 ? 0 : scratchFrames)
            try file.forEachPCM16Block(frames: options.blockFrames) { interleaved, frames in
                if nch == 1 {
                    meters[0].add(pcm16: interleaved.span)
                    bandMeters?[0].add(pcm16: interleaved.span)
                    return
                }
                for (k, c) in selected.enumerated() {
                    scratch.withUnsafeMutableBufferPointer { dst in
                        for i in 0..<frames { dst[i] = interleaved[i * nch + c] }
                    }
                    scratch.withUnsafeBufferPointer {
                        let block = UnsafeBufferPointer(rebasing: $0[0..<frames]).span
                        meters[k].add(pcm16: block)
                        bandMeters?[k].add(pcm16: block)
                    }
                }
            }
            return result(
                path: path, info: info, format: info.format, selected: selected,
                measurements: meters.map { $0.finish() },
                bands: bandMeters, options: options)
        }
        var configuration = SoundLevelMeter.Configuration()
        configuration.samplingInterval = options.samplingInterval
        let meters = try makeMeters(path: path, info: info, count: selected.count, configuration: configuration)
        let bandMeters = try makeBandMeters(path: path, info: info, count: selected.count, options: options)
        var excluded = [Int](repeating: 0, count: selected.count)
        var scratch: [Float] = []
        try reader.forEachBlock(frames: options.blockFrames, as: Float.self) { block in
            for (k, c) in selected.enumerated() {
                block.channels[c].withUnsafeBufferPointer { raw in
                    withUsableSamples(raw, scratch: &scratch, excluded: &excluded[k]) {
                        meters[k].add($0.span)
                        bandMeters?[k].add($0.span)
                    }
                }
            }
        }
        var level = result(
            path: path, info: reader.info, format: info.format, selected: selected,
            measurements: meters.map { $0.finish() }, bands: bandMeters, options: options)
        for (k, c) in selected.enumerated() where excluded[k] > 0 {
            level.warnings.append(excludedWarning(channel: c, count: excluded[k]))
        }
        return level
    }

    /// Calls `body` with samples that are all finite and within ±``AudioLimits/maximumSampleMagnitude``.
    ///
    /// That is `raw` itself, or, when it holds other samples, a copy in `scratch` where they are 0 (silence); their
    /// number is added to `excluded`. Filters and sums never see NaN or ∞.
    static func withUsableSamples<Sample: AudioSample>(
        _ raw: UnsafeBufferPointer<Sample>, scratch: inout [Sample], excluded: inout Int,
        _ body: (UnsafeBufferPointer<Sample>) -> Void
    ) {
        let bound = Sample(AudioLimits.maximumSampleMagnitude)
        guard raw.contains(where: { !($0.magnitude <= bound) }) else { return body(raw) }
        if scratch.count != raw.count { scratch = [Sample](repeating: 0, count: raw.count) }
        for i in 0..<raw.count {
            if raw[i].magnitude <= bound {
                scratch[i] = raw[i]
            } else {
                scratch[i] = 0
                excluded += 1
            }
        }
        scratch.withUnsafeBufferPointer(body)
    }

    /// The warning for `count` excluded samples of `channel`.
    static func excludedWarning(channel: Int, count: Int) -> String {
        "channel \(channel): \(count) sample(s) not finite or beyond ±\(ResultEncoding.number(AudioLimits.maximumSampleMagnitude)) "
            + "full scale (AudioLimits.maximumSampleMagnitude) replaced by 0 (silence)"
    }

    /// Derives a calibration from a recording of an acoustic calibrator (a steady tone, usually 1 kHz at
    /// 94 or 114 dB SPL) made with the same microphone and gain: `sensitivityOffset = LCeq[dBFS] + 94 − level`.
    ///
    /// C-weighting is used because it is flat (±0.1 dB) at the calibrator frequencies (250 Hz, 1 kHz) and
    /// rejects DC and infrasonic handling noise; channel `options.channel ?? 0` is measured.
    /// - Throws: ``SoundFileError``, or ``SoundLevelAnalysisError`` for a silent recording or a bad level.
    public static func calibration(
        fromCalibrator path: String, level: Double, options: SoundLevelAnalysisOptions = .init()
    ) throws -> SoundCalibration {
        guard level.isFinite, level > 0 else { throw SoundLevelAnalysisError.invalidCalibrationLevel(level) }
        var single = options
        single.channel = options.channel ?? 0
        single.calibration = nil
        let measured = try analyze(path: path, options: single)
        guard let lc = measured.channels.first?.LCeq else {
            throw SoundLevelAnalysisError.silentCalibration(path: path)
        }
        var calibration = SoundCalibration(sensitivityOffset: lc + 94 - level, source: "calibrator")
        calibration.calibrationFile = path
        calibration.calibrationLevel = level
        calibration.measuredLevel = lc
        return calibration
    }

    // MARK: Shared with AudioFileAnalyzer

    /// The channels to analyse.
    static func channels(info: AudioFileInfo, options: SoundLevelAnalysisOptions) throws -> [Int] {
        guard let c = options.channel else { return Array(0..<info.channelCount) }
        guard c >= 0, c < info.channelCount else {
            throw SoundLevelAnalysisError.channelOutOfRange(
                path: info.path, channel: c, channelCount: info.channelCount)
        }
        return [c]
    }

    /// One meter per analysed channel.
    static func makeMeters(
        path: String, info: AudioFileInfo, count: Int, configuration: SoundLevelMeter.Configuration
    ) throws -> [SoundLevelMeter] {
        do {
            return try (0..<count).map { _ in
                try SoundLevelMeter(sampleRate: info.sampleRate, configuration: configuration)
            }
        } catch let error as SoundLevelError {
            throw SoundLevelAnalysisError.meter(path: path, error)
        }
    }

    /// Third-octave band meters, one per analysed channel, when the options ask for them.
    static func makeBandMeters(
        path: String, info: AudioFileInfo, count: Int, options: SoundLevelAnalysisOptions
    ) throws -> [ThirdOctaveBandMeter]? {
        guard options.thirdOctaveBands else { return nil }
        do {
            return try (0..<count).map { _ in try ThirdOctaveBandMeter(sampleRate: info.sampleRate) }
        } catch {
            throw SoundLevelAnalysisError.bands(path: path, "\(error)")
        }
    }

    /// Converts meter measurements to levels in the result's unit.
    static func result(
        path: String, info: AudioFileInfo, format: AudioFormat, selected: [Int], measurements: [SoundLevelMeasurement],
        bands: [ThirdOctaveBandMeter]? = nil, options: SoundLevelAnalysisOptions
    ) -> SoundLevelResult {
        let gain = options.calibration?.gain ?? 0
        func level(_ meanSquare: Double?) -> Double? {
            guard let meanSquare, meanSquare > 0 else { return nil }
            return 10 * log10(meanSquare) + gain
        }
        let channels = zip(selected, measurements).enumerated().map { k, pair -> SoundLevelChannel in
            let (channel, m) = pair
            let samples = m.windowMeanSquares.map { level($0) }
            let finite = samples.map { $0 ?? -.infinity }
            let calibrated = options.calibration != nil
            return SoundLevelChannel(
                channel: channel, duration: m.duration, LAeq: level(m.meanSquareA), LCeq: level(m.meanSquareC),
                LZeq: level(m.meanSquareZ), LAFmax: level(m.maxFast), LASmax: level(m.maxSlow),
                LAFmin: level(m.minFast), LCpeak: m.peakC.flatMap { $0 > 0 ? 20 * log10($0) + gain : nil },
                LA10: m.exceedance.exceeded(percent: 10).map { $0 + gain },
                LA50: m.exceedance.exceeded(percent: 50).map { $0 + gain },
                LA90: m.exceedance.exceeded(percent: 90).map { $0 + gain }, splMeterSamples: samples,
                splMeterPassed: calibrated ? options.rule.passes(finite) : nil,
                splMeterLongestRunBelow: options.rule.longestRunBelow(finite),
                bands: bands.map { meters in
                    let meter = meters[k]
                    let squares = meter.meanSquares ?? []
                    return meter.bands.enumerated().map { i, band in
                        BandLevel(
                            nominal: band.nominal, centre: band.centre, lower: band.lower, upper: band.upper,
                            Leq: i < squares.count ? level(squares[i]) : nil)
                    }
                })
        }
        let first = measurements.first
        let duration = first?.duration ?? 0
        var warnings: [String] = []
        if info.sampleRate < 36_960 {
            warnings.append(
                "sampling rate \(Int(info.sampleRate)) Hz: the bilinear A/C filters meet IEC 61672-1 class 1 only at "
                    + "≥ 36.96 kHz; high-frequency content is over-attenuated")
        }
        if ["AAC", "VORBIS", "OPUS", "MP3", "MPEG_LAYER_III"].contains(format.encoding) {
            warnings.append("\(format.encoding) is a lossy codec: levels are only as accurate as the encoder")
        }
        if let first, first.minFast == nil {
            warnings.append(
                String(
                    format: "recording shorter than %.3f s: LAFmin and LA10/50/90 need the Fast weighting to settle",
                    first.fastMinimumSettling))
        }
        if let first, first.maxSlow == nil || first.maxFast == nil {
            warnings.append(
                String(
                    format: "recording shorter than %.3f s: LAFmax, LASmax and LCpeak start after the filters' "
                        + "start-up", first.slowSettling))
        }
        if options.calibration == nil {
            warnings.append(
                "uncalibrated: levels are dBFS (10·lg mean square re full scale); pass --sensitivity-offset or "
                    + "--calibration-file for dB SPL and the threshold rule")
        }
        return SoundLevelResult(
            file: path, sampleRate: info.sampleRate, duration: duration,
            unit: options.calibration == nil ? "dBFS" : "dB SPL", calibration: options.calibration,
            weightingDesign: "IEC 61672-1 A/C poles, bilinear transform, digital gain 0 dB at 1 kHz",
            exceedanceGrid: first?.geometry.historyInterval ?? 0.01, samplingInterval: options.samplingInterval,
            windowBuffers: first?.windowBuffers ?? max(1, Int(options.samplingInterval * 10)),
            bufferFrames: max(1, Int(info.sampleRate / 10)), rule: options.rule, channels: channels,
            warnings: warnings)
    }
}
