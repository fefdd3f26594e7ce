import Foundation
import StudyInputs

/// How levels are referenced: to sound pressure (calibrated) or to digital full scale.
///
/// Conventions (ResearchKit's): `sensitivityOffset` is the level, in dB re full scale (10·lg of the mean
/// square, so a full-scale sine reads −3.01 dB), that a 94 dB SPL (1 Pa) tone produces; then
/// `L [dB SPL] = L [dBFS] − sensitivityOffset + 94`.
public struct SoundCalibration: Sendable, Codable, Hashable {
    /// The offset used, dB re full scale (ResearchKit `sensitivityOffset`).
    public var sensitivityOffset: Double
    /// Where it came from: `"iPhone"`, `"iPad"`, `"iPod touch"` (ResearchKit's device table), `"value"`
    /// (given as a number) or `"calibrator"`.
    public var source: String
    /// For a calibrator recording: the file.
    public var calibrationFile: String?
    /// For a calibrator recording: the calibrator's level, dB SPL (94 or 114).
    public var calibrationLevel: Double?
    /// For a calibrator recording: its C-weighted level measured in dB re full scale.
    public var measuredLevel: Double?

    /// Creates a calibration from a known sensitivity offset.
    public init(sensitivityOffset: Double, source: String) {
        self.sensitivityOffset = sensitivityOffset
        self.source = source
    }

    /// ResearchKit's `splMeter_sensitivity_offset.plist`, by `UIDevice.model`; ResearchKit falls back to
    /// the iPhone value for other models.
    public static let researchKitDevices: [(name: String, offset: Double)] = [
        ("iPhone", -23.3), ("iPod touch", -23.3), ("iPad", -29.3),
    ]

    /// Parses a `--sensitivity-offset` value: a number (dB) or a device name of ``researchKitDevices``
    /// (case-insensitive, spaces optional). `nil` when it is neither.
    public static func parse(_ text: String) -> SoundCalibration? {
        if let value = Double(text), value.isFinite { return SoundCalibration(sensitivityOffset: value, source: "value") }
        let key = text.lowercased().replacingOccurrences(of: " ", with: "")
        for device in researchKitDevices where device.name.lowercased().replacingOccurrences(of: " ", with: "") == key {
            return SoundCalibration(sensitivityOffset: device.offset, source: device.name)
        }
        return nil
    }

    /// dB added to a level in dB re full scale to give dB SPL: `94 − sensitivityOffset`.
    public var gain: Double { 94 - sensitivityOffset }
}

/// ResearchKit's SPL-meter rule applied to a window series.
public struct SPLThresholdRule: Sendable, Codable, Hashable {
    /// Threshold, in the series' unit (dB(A) SPL in ResearchKit; default 35).
    public var threshold: Double
    /// Consecutive windows below the threshold needed to pass (default 5).
    public var requiredContiguousSamples: Int

    /// Creates a rule.
    public init(threshold: Double = 35, requiredContiguousSamples: Int = 5) {
        self.threshold = threshold
        self.requiredContiguousSamples = requiredContiguousSamples
    }

    /// The longest run of consecutive values strictly below the threshold.
    public func longestRunBelow(_ values: [Double]) -> Int {
        var best = 0
        var run = 0
        for v in values {
            run = v < threshold ? run + 1 : 0
            best = max(best, run)
        }
        return best
    }

    /// Whether `values` pass: some run of ``requiredContiguousSamples`` consecutive values is below the
    /// threshold (the offline equivalent of ResearchKit's ring animation completing).
    public func passes(_ values: [Double]) -> Bool { longestRunBelow(values) >= requiredContiguousSamples }
}

/// Sound levels of one channel of a recording (IEC 61672-1 quantities plus ResearchKit's window series).
///
/// Every level is in ``SoundLevelResult/unit``: dB SPL (re 20 µPa) when calibrated, otherwise dB re full scale
/// (10·lg of the mean square; a full-scale sine is −3.01). `nil` (JSON `null`) when undefined: digital
/// silence (−∞), or a recording shorter than the settling time of a time weighting.
public struct SoundLevelChannel: Sendable, Codable, Hashable {
    /// Zero-based channel index in the file.
    public var channel: Int
    /// Duration analysed, s.
    public var duration: Double
    /// A-weighted equivalent continuous level `10·lg(mean(p_A²)/p0²)` over the whole recording.
    public var LAeq: Double?
    /// C-weighted equivalent continuous level.
    public var LCeq: Double?
    /// Z-weighted (unfiltered, DC included) equivalent continuous level.
    public var LZeq: Double?
    /// Maximum A-weighted, Fast (τ = 0.125 s) time-weighted level, after the first 0.625 s.
    public var LAFmax: Double?
    /// Maximum A-weighted, Slow (τ = 1 s) time-weighted level, after the first 5 s.
    public var LASmax: Double?
    /// Minimum A-weighted, Fast time-weighted level, after the first 1.25 s (10τ).
    public var LAFmin: Double?
    /// C-weighted peak level `20·lg(max|p_C|/p0)`, after the first 0.1 s.
    public var LCpeak: Double?
    /// Level exceeded 10 % of the time (LAF history on a 10 ms grid after the first 1.25 s; 0.01 dB bins).
    public var LA10: Double?
    /// Level exceeded 50 % of the time.
    public var LA50: Double?
    /// Level exceeded 90 % of the time.
    public var LA90: Double?
    /// ResearchKit-style A-weighted window levels: one per (N+1)·⌊fs/10⌋ frames (1.1 s by default), each the
    /// energy mean of the last N = ⌊10·samplingInterval⌋ buffers: `10·lg((ΣE/samplingInterval)/fs) + gain`.
    public var splMeterSamples: [Double?]
    /// Whether ``splMeterSamples`` pass the threshold rule; `nil` when uncalibrated (a dB SPL threshold means
    /// nothing for dBFS values).
    public var splMeterPassed: Bool?
    /// Longest run of consecutive windows below the threshold.
    public var splMeterLongestRunBelow: Int
    /// Z-weighted third-octave band levels, low to high; only with `--third-octaves`.
    public var bands: [BandLevel]? = nil
}

/// The equivalent continuous level of one third-octave band (IEC 61260-1 base-10 band, 6th-order Butterworth).
public struct BandLevel: Sendable, Codable, Hashable {
    /// Nominal mid-band frequency, Hz (the band's name: 25, 31.5, …, 20 000).
    public var nominal: Double
    /// Exact mid-band frequency `1000·10^(x/10)`, Hz.
    public var centre: Double
    /// Lower band edge, Hz (−3.01 dB).
    public var lower: Double
    /// Upper band edge, Hz (−3.01 dB).
    public var upper: Double
    /// Band level `10·lg(mean(p_band²)/p0²)`, in the result's unit; `null` for a silent band.
    public var Leq: Double?
}

/// The sound-level analysis of a recording.
public struct SoundLevelResult: Sendable, Codable, Hashable {
    /// Always `"soundLevel"`.
    public var kind = "soundLevel"
    /// The file analysed.
    public var file: String
    /// Sampling rate, Hz.
    public var sampleRate: Double
    /// Duration analysed, s.
    public var duration: Double
    /// `"dB SPL"` when calibrated (re 20 µPa), `"dBFS"` otherwise (10·lg mean square re full scale).
    public var unit: String
    /// The calibration applied, if any.
    public var calibration: SoundCalibration?
    /// Frequency weighting design: `"IEC 61672-1 A/C, bilinear, 0 dB at 1 kHz"`.
    public var weightingDesign: String
    /// Step of the F-weighted level history behind LA10/LA50/LA90, s (10 ms at common rates).
    public var exceedanceGrid: Double
    /// ResearchKit window series settings: sampling interval, s.
    public var samplingInterval: Double
    /// Buffers per window N, and buffer length ⌊fs/10⌋ frames.
    public var windowBuffers: Int
    /// ResearchKit buffer length, frames.
    public var bufferFrames: Int
    /// The threshold rule applied to the window series.
    public var rule: SPLThresholdRule
    /// One entry per analysed channel.
    public var channels: [SoundLevelChannel]
    /// Notes on the accuracy of these levels (low sampling rate, lossy codec, short recording, …).
    public var warnings: [String]
}
