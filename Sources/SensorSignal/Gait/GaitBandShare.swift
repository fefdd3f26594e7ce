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
}
