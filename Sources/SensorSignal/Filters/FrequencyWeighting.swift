import Foundation
import ComplexModule

/// The standard frequency weightings of sound level meters (IEC 61672-1:2002 clause 5.4 / 2013 Annex E).
///
/// - ``a``: A-weighting, the ear's sensitivity at moderate levels (−19.1 dB at 100 Hz, 0 dB at 1 kHz,
///   +1.3 dB at 2.5 kHz).
/// - ``c``: C-weighting, nearly flat from 31.5 Hz to 8 kHz; used for peak levels and low-frequency noise.
/// - ``z``: zero weighting: the signal unchanged (no filter; DC included).
///
/// The analogue definitions have two zeros at 0 Hz and double poles at f1 and f4 (C), plus two more zeros at
/// 0 Hz and single poles at f2 and f3 (A), with the pole frequencies derived from the standard's design
/// constants (``poleFrequencies``), normalised to 0 dB at 1 kHz. ``sections(sampleRate:)`` realises them
/// digitally with the bilinear transform, pole by pole, as a cascade of `Double` biquads renormalised so the
/// *digital* gain at 1 kHz is exactly 0 dB.
public enum FrequencyWeighting: String, Sendable, Hashable, CaseIterable, Codable {
    /// A-weighting.
    case a = "A"
    /// C-weighting.
    case c = "C"
    /// Z (zero) weighting: no filter.
    case z = "Z"

    /// The four pole frequencies f1…f4 in Hz (20.598997, 107.652649, 737.862231, 12194.217148), derived
    /// exactly as IEC 61672-1 clause 5.4.10–5.4.11 (2013: E.4.1–E.4.2) prescribes:
    /// `fr = 1 kHz`, `fL = 10^1.5`, `fH = 10^3.9`, `fA = 10^2.45`, `D² = 1/2`,
    /// `b = (fr² + fL²fH²/fr² − D(fL² + fH²))/(1 − D)`, `c = fL²fH²`,
    /// `f4² = (−b + √(b² − 4c))/2`, `f1² = c/f4²` (Vieta, which avoids cancellation),
    /// `f2,3 = (3 ∓ √5)/2 · fA`.
    public static let poleFrequencies: (f1: Double, f2: Double, f3: Double, f4: Double) = {
        let fr = 1000.0
        let fL = pow(10, 1.5)
        let fH = pow(10, 3.9)
        let fA = pow(10, 2.45)
        let d = (0.5).squareRoot()
        let b = (fr * fr + fL * fL * fH * fH / (fr * fr) - d * (fL * fL + fH * fH)) / (1 - d)
        let c = fL * fL * fH * fH
        let f4Squared = (-b + (b * b - 4 * c).squareRoot()) / 2
        let f1Squared = c / f4Squared
        let root5 = 5.0.squareRoot()
        return (f1Squared.squareRoot(), (3 - root5) / 2 * fA, (3 + root5) / 2 * fA, f4Squared.squareRoot())
    }()

    /// The unnormalised analogue gain at 1 kHz, dB: A1000 ≈ −1.99966 (the standard rounds to −2.000),
    /// C1000 ≈ −0.06190 (−0.062); 0 for Z. Subtracted by ``analogueDecibels(at:)``.
    public var gainAt1kHzDecibels: Double {
        switch self {
        case .z: 0
        case .a, .c: unnormalisedDecibels(at: 1000)
        }
    }

    /// The analogue (ideal) weighting at `frequency`, dB, normalised to 0 dB at 1 kHz:
    /// `C(f) = 20 lg[f4² f² / ((f² + f1²)(f² + f4²))] − C1000` and
    /// `A(f) = 20 lg[f4² f⁴ / ((f² + f1²)(f² + f2²)^½ (f² + f3²)^½ (f² + f4²))] − A1000`
    /// (IEC 61672-1 equations 6 and 7). This is the design target; the standard's Table 2 lists it rounded
    /// to 0.1 dB at the exact third-octave frequencies `1000·10^((n−30)/10)` Hz.
    /// - Parameter frequency: Hz, > 0.
    /// - Returns: dB (0 for Z).
    public func analogueDecibels(at frequency: Double) -> Double {
        switch self {
        case .z: 0
        case .a, .c: unnormalisedDecibels(at: frequency) - unnormalisedDecibels(at: 1000)
        }
    }

    private func unnormalisedDecibels(at f: Double) -> Double {
        let (f1, f2, f3, f4) = Self.poleFrequencies
        let f2s = f * f
        switch self {
        case .z: return 0
        case .c: return 20 * log10(f4 * f4 * f2s / ((f2s + f1 * f1) * (f2s + f4 * f4)))
        case .a:
            let denominator = (f2s + f1 * f1) * ((f2s + f2 * f2) * (f2s + f3 * f3)).squareRoot() * (f2s + f4 * f4)
            return 20 * log10(f4 * f4 * f2s * f2s / denominator)
        }
    }

    /// The digital weighting filter at `sampleRate` as biquads, or `nil` for Z (no filter).
    ///
    /// Each analogue pole `−2πfᵢ` maps to the real digital pole `pᵢ = (2fs − 2πfᵢ)/(2fs + 2πfᵢ)` (bilinear
    /// transform), each zero at 0 Hz to `z = 1`, and the surplus poles put zeros at Nyquist (`z = −1`):
    /// - A: `[LP: (1 + z⁻¹)²/(1 − p4 z⁻¹)², HP: (1 − z⁻¹)²/((1 − p2 z⁻¹)(1 − p3 z⁻¹)),
    ///   HP: (1 − z⁻¹)²/(1 − p1 z⁻¹)²]`;
    /// - C: `[LP: (1 + z⁻¹)²/(1 − p4 z⁻¹)², HP: (1 − z⁻¹)²/(1 − p1 z⁻¹)²]`.
    ///
    /// The sections after the first keep their bilinear gains; the first is scaled so the cascade's digital
    /// gain at 1 kHz is exactly 1 (0 dB). Plain bilinear without pre-warping: it is exact below 1 kHz
    /// (≤ 0.005 dB at 44.1 kHz) and attenuates too much near Nyquist (A at 48 kHz: −0.04 dB at 4 kHz,
    /// −1.2 dB at 10 kHz, −6.2 dB at 16 kHz), inside the class-1 limits at every table frequency below
    /// fs/2 for fs ≥ 36.96 kHz; pre-warping would move error into 1–5 kHz, where the limits are tightest.
    /// - Parameter sampleRate: Hz; must exceed 2·f4 ≈ 24.4 kHz for the LP pole to be meaningful, and
    ///   36.96 kHz for class-1 accuracy (lower rates work but are only approximately A/C-weighted).
    /// - Throws: ``FilterError/invalidSampleRate(hertz:)`` for a non-finite or non-positive rate.
    /// - Complexity: O(1); allocates the sections.
    public func sections(sampleRate: Double) throws(FilterError) -> SecondOrderSections? {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(hertz: sampleRate) }
        guard self != .z else { return nil }
        let d = DigitalWeightingPoles(sampleRate: sampleRate)
        let k = 2 * sampleRate
        let (w1, w2, w3, w4) = d.angularFrequencies
        // Bilinear gains of the high-pass sections: K²/((K + ωa)(K + ωb)).
        let hp23 = SecondOrderSections.Section(
            b0: 1, b1: -2, b2: 1, a1: -(d.p2 + d.p3), a2: d.p2 * d.p3
        ).scaled(by: k * k / ((k + w2) * (k + w3)))
        let hp1 = SecondOrderSections.Section(b0: 1, b1: -2, b2: 1, a1: -2 * d.p1, a2: d.p1 * d.p1)
            .scaled(by: k * k / ((k + w1) * (k + w1)))
        let lp4 = SecondOrderSections.Section(b0: 1, b1: 2, b2: 1, a1: -2 * d.p4, a2: d.p4 * d.p4)
            .scaled(by: w4 * w4 / ((k + w4) * (k + w4)))
        let cascade = self == .a ? [lp4, hp23, hp1] : [lp4, hp1]
        let unnormalised = SecondOrderSections(normalisedSections: cascade)
        let h = unnormalised.response(at: 1000, sampleRate: sampleRate)
        let gain = 1 / (h.real * h.real + h.imaginary * h.imaginary).squareRoot()
        var sections = cascade
        sections[0] = sections[0].scaled(by: gain)
        return SecondOrderSections(normalisedSections: sections)
    }
}

extension SecondOrderSections.Section {
    /// The section with its numerator multiplied by `factor`.
    func scaled(by factor: Double) -> Self {
        .init(b0: b0 * factor, b1: b1 * factor, b2: b2 * factor, a0: a0, a1: a1, a2: a2)
    }
}

/// The digital (bilinear) poles of the A/C weighting at one sampling rate, shared by
/// ``FrequencyWeighting/sections(sampleRate:)`` and the level meter's factored kernel.
struct DigitalWeightingPoles: Sendable {
    /// Digital poles of f1 (double), f2, f3, f4 (double).
    let p1: Double, p2: Double, p3: Double, p4: Double
    /// 2π·fᵢ, rad/s.
    let angularFrequencies: (Double, Double, Double, Double)

    init(sampleRate: Double) {
        let (f1, f2, f3, f4) = FrequencyWeighting.poleFrequencies
        let k = 2 * sampleRate
        let w = (2 * Double.pi * f1, 2 * Double.pi * f2, 2 * Double.pi * f3, 2 * Double.pi * f4)
        angularFrequencies = w
        p1 = (k - w.0) / (k + w.0)
        p2 = (k - w.1) / (k + w.1)
        p3 = (k - w.2) / (k + w.2)
        p4 = (k - w.3) / (k + w.3)
    }
}
