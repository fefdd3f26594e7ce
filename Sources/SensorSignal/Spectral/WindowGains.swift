/// The power sums of a window, S₁ = Σw and S₂ = Σw², and the gains derived from them.
///
/// - Coherent gain `S₁/N`: the factor by which a windowed sine's DFT peak shrinks (0.5 for Hann).
/// - Equivalent noise bandwidth `ENBW = N·S₂/S₁²` bins (1.5 for periodic Hann), or `fs·S₂/S₁²` Hz:
///   the width of the rectangular filter passing the same white-noise power as one window-shaped bin.
///
/// These are the two normalisations of `scipy.signal.welch`/`periodogram`: `scaling='spectrum'` divides
/// |X|² by S₁² and `scaling='density'` by `fs·S₂` (Heinzel, Rüdiger & Schilling 2002, "Spectrum and
/// spectral density estimation by the DFT", §9–10). Sums are accumulated in `Double`.
public struct WindowGains: Sendable, Hashable {
    /// The window length N.
    public let count: Int
    /// S₁ = Σ w[n] (dimensionless); `S₁²` normalises a power *spectrum*.
    public let sum: Double
    /// S₂ = Σ w[n]² (dimensionless); `fs·S₂` normalises a power spectral *density*.
    public let sumOfSquares: Double

    /// Measures the window `w`.
    ///
    /// - Parameter window: the N window coefficients.
    /// - Complexity: O(N), allocation-free.
    public init<Scalar: BinaryFloatingPoint>(_ window: Span<Scalar>) {
        var s1 = 0.0
        var s2 = 0.0
        for i in window.indices {
            let w = Double(window[i])
            s1 += w
            s2 += w * w
        }
        count = window.count
        sum = s1
        sumOfSquares = s2
    }

    /// Coherent gain `S₁/N`: the mean window value (1 for rectangular, 0.5 for periodic Hann).
    public var coherentGain: Double { sum / Double(count) }

    /// Equivalent noise bandwidth in bins, `N·S₂/S₁²` (1 for rectangular, 1.5 for periodic Hann).
    public var equivalentNoiseBandwidthBins: Double { Double(count) * sumOfSquares / (sum * sum) }

    /// Equivalent noise bandwidth in Hz, `fs·S₂/S₁²`, for a DFT of N samples at `sampleRate`.
    ///
    /// - Parameter sampleRate: the sampling frequency fs in Hz.
    /// - Returns: the bandwidth in Hz (`ENBW bins × fs/N`).
    public func equivalentNoiseBandwidth(sampleRate: Double) -> Double { sampleRate * sumOfSquares / (sum * sum) }
}
