// scipy/numpy reference values for the spectral tests, read from Reference/spectral.json (written by
// Tools/reference/spectral_reference.py; see Reference/README.md).

import TestSupport

/// A scipy window: `get_window(name, count)` (periodic) or `windows.<name>(count, sym=True)`.
struct WindowReference: Sendable, CustomStringConvertible, Decodable {
    let name: String
    let count: Int
    let symmetric: Bool
    let values: [Double]
    var description: String { "\(name)(\(count), sym=\(symmetric))" }
}

/// One `scipy.signal.welch(welchSignal(64), fs=50, …)` call and its result.
struct WelchReference: Sendable, CustomStringConvertible, Decodable {
    let label: String
    let window: String?  // scipy name; nil means `customWindow`
    let customWindow: [Double]
    let nperseg: Int?
    let noverlap: Int?
    let nfft: Int?
    let detrend: String  // 'constant', 'linear' or 'none' (detrend=False)
    let scaling: String
    let average: String
    let pxx: [Double]
    var description: String { label }
}

/// One `scipy.signal.periodogram(welchSignal(count), fs=50, window, nfft, detrend=False, scaling)` call.
struct PeriodogramReference: Sendable, CustomStringConvertible, Decodable {
    let count: Int
    let window: String
    let nfft: Int
    let scaling: String
    let pxx: [Double]
    var description: String { "periodogram(\(count), \(window), nfft=\(nfft), \(scaling))" }
}

enum SpectralReference {
    private struct File: Decodable {
        var windows: [WindowReference]
        var welchSignalLength: Int
        var welchSampleRate, welchSignalSum: Double
        var welch: [WelchReference]
        var periodograms: [PeriodogramReference]
        var detrendLinear12: [Double]
        var rfftInput8, rfftInput8Real, rfftInput8Imag, rfftInput7, rfftInput7Real, rfftInput7Imag: [Double]
        var correlateInput, correlateFull: [Double]
        /// `[n, next_fast_len(n, real=True)]` pairs.
        var nextFastLenReal: [[Int]]
    }

    private static let file = loadReference(File.self, "spectral.json")
    static let windows = file.windows

    /// `welchSignal(64)`, sampled at `welchSampleRate` Hz.
    static let welchSignalLength = file.welchSignalLength
    static let welchSampleRate = file.welchSampleRate
    static let welchSignalSum = file.welchSignalSum

    static let welch = file.welch
    static let periodograms = file.periodograms

    /// `scipy.signal.detrend(welchSignal(12), type='linear')`.
    static let detrendLinear12 = file.detrendLinear12

    static let rfftInput8 = file.rfftInput8
    /// `numpy.fft.rfft(rfftInput8)` real and imaginary parts.
    static let rfftInput8Real = file.rfftInput8Real
    static let rfftInput8Imag = file.rfftInput8Imag
    static let rfftInput7 = file.rfftInput7
    /// `numpy.fft.rfft(rfftInput7)` real and imaginary parts.
    static let rfftInput7Real = file.rfftInput7Real
    static let rfftInput7Imag = file.rfftInput7Imag

    static let correlateInput = file.correlateInput
    /// `numpy.correlate(correlateInput, correlateInput, 'full')` (2N − 1 values, lag −(N−1) first).
    static let correlateFull = file.correlateFull

    /// `(n, scipy.fft.next_fast_len(n, real=True))`: the 5-smooth length scipy picks for real FFTs.
    static let nextFastLenReal: [(Int, Int)] = file.nextFastLenReal.map { pair in
        precondition(pair.count == 2, "nextFastLenReal: \(pair) is not a pair")
        return (pair[0], pair[1])
    }
}
