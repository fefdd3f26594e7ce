import ComplexModule

/// The share of a signal's energy that a band-passed copy of it holds over a stretch: the gait-band checks of
/// ``StepDetector`` (``StepDetector/Configuration/minimumChainBandFraction``) and ``GaitSequenceDetector``
/// (``GaitSequenceDetector/Configuration/minimumGaitBandFraction``).
enum GaitBandShare {
    /// Σ banded² / Σ (signal − mean)² over `range`, 0…1.
    ///
    /// 0 for a flat or one-sample range, at most 1 (a zero-phase filter's edge transients can add energy). White
    /// noise gives (band width) / (rate / 2).
    ///
    /// - Parameters:
    ///   - signal: The samples, any unit.
    ///   - banded: `signal` band-passed, same unit and count.
    ///   - range: The stretch, within both.
    static func of(_ signal: [Double], banded: [Double], range: ClosedRange<Int>) -> Double {
        guard range.count > 1 else { return 0 }
        var mean = 0.0
        for i in range { mean += signal[i] }
        mean /= Double(range.count)
        var total = 0.0
        var inBand = 0.0
        for i in range {
            total += (signal[i] - mean) * (signal[i] - mean)
            inBand += banded[i] * banded[i]
        }
        return total > 0 ? min(1, inBand / total) : 0
    }

    /// The share of white noise's energy that `sections` run forward and backward (zero phase) keep at `rate`:
    /// the mean of |H(f)|⁴ over 0…rate / 2, 0…1 (midpoint rule on 2,048 frequencies).
    ///
    /// - Parameters:
    ///   - sections: The band-pass, designed for `rate`.
    ///   - rate: Sampling rate, Hz.
    static func whiteNoise(_ sections: SecondOrderSections, rate: Double) -> Double {
        let count = 2048
        guard rate.isFinite, rate > 0 else { return 0 }
        var sum = 0.0
        for k in 0..<count {
            let h = sections.response(at: (Double(k) + 0.5) * rate / 2 / Double(count), sampleRate: rate)
            let power = h.real * h.real + h.imaginary * h.imaginary
            sum += power * power
        }
        return min(1, sum / Double(count))
    }
}
