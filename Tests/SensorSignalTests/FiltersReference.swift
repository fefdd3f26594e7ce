// scipy.signal reference values for FiltersTests, read from Reference/filters.json (written by
// Tools/reference/filters_reference.py; see Reference/README.md).

import SensorSignal
import TestSupport

/// scipy.signal reference values for ``FiltersTests``.
enum FiltersReference {
    /// One `scipy.signal.butter(order, cutoffs, btype, output='sos', fs=sampleRate)` result.
    struct Design: Sendable, CustomStringConvertible, Decodable {
        let name: String
        let order: Int
        let band: FilterBand
        let sampleRate: Double
        let sos: [[Double]]
        var description: String { name }
    }

    /// One long `sosfilt` check: the rows, and at every `longStride`-th sample of the test input of
    /// length `longLength` both scipy's output and an extended-precision one (scipy's own `sosfilt`
    /// in `np.longdouble`, 64-bit significand: about 2000 times less rounding than `Double`, so it
    /// stands for the exact output of these coefficients).
    struct LongCase: Sendable, CustomStringConvertible, Decodable {
        let name: String
        let sos: [[Double]]
        let scipy: [Double]
        let extended: [Double]
        var description: String { name }
    }

    private struct File: Decodable {
        var designs: [Design]
        var signalLength: Int
        var signalHead: [Double]
        var signalSum: Double
        var sosfiltLowpass4, sosfiltZiHighpass3, sosfiltHighpass3SteadyStart, sosfiltHighpass3FinalState: [Double]
        var sosfiltfiltLowpass4, sosfiltfiltBandpass3, sosfiltfiltLowpass1: [Double]
        var minimumZeroPhaseLength: [String: Int]
        var longLength, longStride: Int
        var longCases: [LongCase]
        var responseFrequencies, responseReal, responseImaginary: [Double]
        var zpk2sosExample: [[Double]]
        var aWeightingAnalogPoles: [Double]
        var aWeightingAnalogGain: Double
        var aWeighting48k: [[Double]]
    }

    private static let file = loadReference(File.self, "filters.json")
    static let designs = file.designs

    /// The design called `name`.
    static func design(_ name: String) -> Design { designs.first { $0.name == name }! }

    /// Length of the test input
    /// `x[n] = sin(0.19 n) + 0.5 cos(1.09 n + 0.4) + 0.25 sin(2.6 n) + 0.02 n − 0.3`.
    static let signalLength = file.signalLength
    /// `x[0..<4]`, to prove the Swift rebuild of the input is identical.
    static let signalHead = file.signalHead
    /// `x.sum()`.
    static let signalSum = file.signalSum

    /// `sosfilt(lp4_100, x)`.
    static let sosfiltLowpass4 = file.sosfiltLowpass4
    /// `sosfilt_zi(hp3_100)` flattened row by row.
    static let sosfiltZiHighpass3 = file.sosfiltZiHighpass3
    /// The output of `sosfilt(hp3_100, x, zi=sosfilt_zi(hp3_100) * x[0])`.
    static let sosfiltHighpass3SteadyStart = file.sosfiltHighpass3SteadyStart
    /// The final state `zf` of that call, flattened row by row.
    static let sosfiltHighpass3FinalState = file.sosfiltHighpass3FinalState
    /// `sosfiltfilt(lp4_100, x)`.
    static let sosfiltfiltLowpass4 = file.sosfiltfiltLowpass4
    /// `sosfiltfilt(bp3_100, x)`.
    static let sosfiltfiltBandpass3 = file.sosfiltfiltBandpass3
    /// `sosfiltfilt(lp1_100, x)` (first-order section: b2 == a2 == 0, so padlen is 6).
    static let sosfiltfiltLowpass1 = file.sosfiltfiltLowpass1
    /// The shortest signal scipy's `sosfiltfilt` accepts, by design name (found by trying lengths).
    static let minimumZeroPhaseLength = file.minimumZeroPhaseLength

    static let longLength = file.longLength
    static let longStride = file.longStride
    static let longCases = file.longCases

    /// Frequencies (Hz) for `freqz_sos(bp2_48k, worN=…, fs=48000)`.
    static let responseFrequencies = file.responseFrequencies
    /// Real parts of that response.
    static let responseReal = file.responseReal
    /// Imaginary parts of that response.
    static let responseImaginary = file.responseImaginary
    /// `zpk2sos([-1, -0.5-0.5j, -0.5+0.5j], [0.75, 0.8+0.1j, 0.8-0.1j], 1)` (scipy's docstring example).
    static let zpk2sosExample = file.zpk2sosExample
    /// The analog A-weighting poles in rad/s: −2π·f for f = 20.598997 (×2), 107.65265, 737.86223,
    /// 12194.217 (×2) Hz; the zeros are 4 × 0.
    static let aWeightingAnalogPoles = file.aWeightingAnalogPoles
    /// The analog A-weighting gain (2π·12194.217)²·10^(2/20), 0 dB at 1 kHz.
    static let aWeightingAnalogGain = file.aWeightingAnalogGain
    /// `zpk2sos(bilinear_zpk(z, p, k, fs=48000))` of that analog A-weighting filter.
    static let aWeighting48k = file.aWeighting48k
}

/// A design's band as scipy takes it: `{"btype": "lowpass", "cutoffs": [10.0]}` (`Wn`: one or two cutoffs in Hz).
extension FilterBand: Decodable {
    private enum CodingKeys: String, CodingKey { case btype, cutoffs }

    /// Decodes scipy's `btype` and `Wn`.
    ///
    /// - Parameter decoder: The decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let btype = try c.decode(String.self, forKey: .btype)
        switch (btype, try c.decode([Double].self, forKey: .cutoffs)) {
        case ("lowpass", let f) where f.count == 1: self = .lowpass(cutoff: f[0])
        case ("highpass", let f) where f.count == 1: self = .highpass(cutoff: f[0])
        case ("bandpass", let f) where f.count == 2: self = .bandpass(low: f[0], high: f[1])
        case ("bandstop", let f) where f.count == 2: self = .bandstop(low: f[0], high: f[1])
        default:
            throw DecodingError.dataCorruptedError(forKey: .cutoffs, in: c, debugDescription: "not a \(btype) band")
        }
    }
}
