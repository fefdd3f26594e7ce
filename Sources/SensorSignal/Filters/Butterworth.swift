import ComplexModule
import RealModule

/// Digital Butterworth filter design, scipy `butter(N, Wn, btype, output='sos', fs=fs)`.
///
/// The design follows scipy step by step, so coefficients agree to rounding (and section order and
/// pole-zero pairing agree exactly):
/// 1. analog prototype of order N with cutoff 1 rad/s: no zeros, poles `−exp(iπm/(2N))` for
///    `m = −N+1, −N+3, …, N−1`, gain 1 (scipy `buttap`);
/// 2. cutoffs prewarped for the bilinear transform: `Wn = f/(fs/2)`, `ω = 4·tan(π·Wn/2)` (rad/s at a
///    normalised rate of 2);
/// 3. lowpass-to-lowpass/highpass with `ω`, or to bandpass/bandstop with centre `√(ω₁ω₂)` and width
///    `ω₂ − ω₁` (scipy `lp2lp_zpk` … `lp2bs_zpk`);
/// 4. bilinear transform at fs = 2 (scipy `bilinear_zpk`);
/// 5. pairing into biquads with scipy's `zpk2sos(pairing='nearest')` (``SecondOrderSections/init(_:)``).
///
/// The magnitude response is maximally flat with `|H| = 1/√2` (−3.0103 dB) at each cutoff. A lowpass or
/// highpass of order N has ⌈N/2⌉ sections; a bandpass or bandstop has order 2N and N sections.
public enum Butterworth {
    /// Designs a digital Butterworth filter as second-order sections (scipy `butter(…, output='sos')`).
    ///
    /// - Parameters:
    ///   - order: the prototype order N ≥ 1 (band designs have order 2N).
    ///   - band: the band type and cutoff frequencies in Hz, each in (0, fs/2).
    ///   - sampleRate: the sampling rate fs in Hz.
    /// - Returns: the sections, normalised so `a0 == 1`.
    /// - Throws: ``FilterError/invalidOrder(_:)``, ``FilterError/invalidSampleRate(hertz:)``,
    ///   ``FilterError/invalidCutoff(hertz:sampleRate:)`` or ``FilterError/invalidBand(lowHertz:highHertz:)``.
    /// - Complexity: O(N²) for the pairing; allocates a few arrays of N elements. Design once, filter often.
    public static func design(order: Int, band: FilterBand, sampleRate: Double) throws(FilterError)
        -> SecondOrderSections
    {
        try SecondOrderSections(zeroPoleGain(order: order, band: band, sampleRate: sampleRate))
    }

    /// Designs a digital Butterworth filter as zeros, poles (in the z-plane) and gain (scipy
    /// `butter(…, output='zpk')`).
    ///
    /// - Parameters:
    ///   - order: the prototype order N ≥ 1 (band designs have order 2N).
    ///   - band: the band type and cutoff frequencies in Hz, each in (0, fs/2).
    ///   - sampleRate: the sampling rate fs in Hz.
    /// - Returns: N zeros and N poles (2N for band designs) and the gain.
    /// - Throws: the same errors as ``design(order:band:sampleRate:)``.
    /// - Complexity: O(N); allocates a few arrays of N elements.
    public static func zeroPoleGain(order: Int, band: FilterBand, sampleRate: Double) throws(FilterError)
        -> ZeroPoleGain
    {
        guard order >= 1 else { throw .invalidOrder(order) }
        guard sampleRate.isFinite && sampleRate > 0 else { throw .invalidSampleRate(hertz: sampleRate) }
        let cutoffs = band.cutoffs
        for f in cutoffs where !(f.isFinite && f > 0 && f < sampleRate / 2) {
            throw .invalidCutoff(hertz: f, sampleRate: sampleRate)
        }
        if cutoffs.count == 2 && !(cutoffs[0] < cutoffs[1]) {
            throw .invalidBand(lowHertz: cutoffs[0], highHertz: cutoffs[1])
        }
        // Normalise to Nyquist (scipy's Wn) and prewarp for the bilinear transform at fs = 2.
        let nyquist = sampleRate / 2
        let warped = cutoffs.map { f in
            let wn = f / nyquist
            return 2 * 2.0 * Double.tan(Double.pi * wn / 2.0)
        }
        // A cutoff within rounding of fs/2 can still fail after normalisation (Wn == 1).
        for (f, w) in zip(cutoffs, warped) where !(w.isFinite && w > 0) {
            throw .invalidCutoff(hertz: f, sampleRate: sampleRate)
        }

        let prototype = analogPrototype(order: order)
        let analog: ZeroPoleGain
        switch band {
        case .lowpass: analog = prototype.lowpassToLowpass(cutoff: warped[0])
        case .highpass: analog = prototype.lowpassToHighpass(cutoff: warped[0])
        case .bandpass:
            analog = prototype.lowpassToBandpass(
                center: (warped[0] * warped[1]).squareRoot(), bandwidth: warped[1] - warped[0])
        case .bandstop:
            analog = prototype.lowpassToBandstop(
                center: (warped[0] * warped[1]).squareRoot(), bandwidth: warped[1] - warped[0])
        }
        return analog.bilinear(sampleRate: 2)
    }

    /// The analog Butterworth lowpass prototype of order N with cutoff 1 rad/s (scipy `buttap`).
    ///
    /// Poles `−exp(iπm/(2N))`, `m = −N+1, −N+3, …, N−1` (the middle one exactly −1 for odd N), no zeros,
    /// gain 1. Allocates the pole array.
    static func analogPrototype(order n: Int) -> ZeroPoleGain {
        let poles = stride(from: -n + 1, through: n - 1, by: 2).map { m -> Complex<Double> in
            // (π·m)·(1/(2N)), not (π·m)/(2N): NumPy divides complex by real via a reciprocal.
            let theta = (Double.pi * Double(m)) * (1.0 / Double(2 * n))
            return Complex(-Double.cos(theta), -Double.sin(theta))
        }
        return ZeroPoleGain(zeros: [], poles: poles, gain: 1)
    }
}
