internal import RealModule

/// The largest spectral peak above DC, refined between bins by quadratic interpolation of log-power.
///
/// With `k` the bin of the largest value and `a, b, c` the natural logs of the values at `k − 1, k, k + 1`,
/// the vertex of the parabola through them is at
///
/// ```
/// δ = ½·(a − c)/(a − 2b + c),   bin = k + δ,   frequency = bin·Δf  Hz,   value = exp(b − ¼·(a − c)·δ)
/// ```
///
/// ("Gaussian" or log-parabolic interpolation; J. O. Smith, *Spectral Audio Signal Processing*, "Quadratic
/// Interpolation of Spectral Peaks"). Fitting the log makes the result the same for magnitude and power
/// spectra, and it is exact for a Gaussian-shaped peak: for a sine under a Hann window the bias is below
/// 0.02 bin (Hamming 0.02, Blackman 0.007), while a rectangular window can be off by 0.2 bin. Interpolation is
/// skipped (δ = 0) when `k` is the last bin, when a neighbour is not positive, or when `k` is not a strict
/// local maximum of a concave parabola, so `|δ| ≤ ½` always.
public struct SpectralPeak: Sendable, Hashable {
    /// The interpolated peak frequency in Hz: `(k + δ)·Δf`.
    public var frequency: Double
    /// The interpolated position in (fractional) FFT bins, `k + δ`.
    public var bin: Double
    /// The interpolated peak height, in the units of the spectrum it was found in
    /// (units² for a power spectrum, units²/Hz for a density, units for a magnitude spectrum).
    public var value: Double

    /// Creates a peak from its parts.
    /// - Parameters:
    ///   - frequency: the peak frequency in Hz.
    ///   - bin: the fractional bin index.
    ///   - value: the peak height in the spectrum's units.
    public init(frequency: Double, bin: Double, value: Double) {
        self.frequency = frequency
        self.bin = bin
        self.value = value
    }

    /// Finds the interpolated maximum of `value(k)` over the bins above DC in `band`.
    ///
    /// Candidates are the bins `1..<count` whose `frequency(k)` lies in `band` (all of them when `band` is nil).
    /// DC (bin 0) is never a candidate but may serve as the left neighbour of bin 1. Returns nil when no
    /// candidate bin holds a positive finite value. Allocation-free.
    static func locate(
        count: Int, binWidth: Double, band: ClosedRange<Double>?,
        frequency: (Int) -> Double, value: (Int) -> Double
    ) -> SpectralPeak? {
        var best = -1
        var bestValue = 0.0
        if count >= 2 {
            for k in 1..<count {
                if let band, !band.contains(frequency(k)) { continue }
                let v = value(k)
                if v.isFinite, v > bestValue {
                    best = k
                    bestValue = v
                }
            }
        }
        guard best > 0 else { return nil }
        var delta = 0.0
        var height = bestValue
        if best + 1 < count {
            let left = value(best - 1)
            let right = value(best + 1)
            if left > 0, right > 0, left.isFinite, right.isFinite, bestValue > left, bestValue > right {
                let a = Double.log(left)
                let b = Double.log(bestValue)
                let c = Double.log(right)
                let denominator = a - 2 * b + c
                if denominator < 0 {
                    delta = min(max(0.5 * (a - c) / denominator, -0.5), 0.5)
                    height = Double.exp(b - 0.25 * (a - c) * delta)
                }
            }
        }
        let bin = Double(best) + delta
        return SpectralPeak(frequency: bin * binWidth, bin: bin, value: height)
    }
}
