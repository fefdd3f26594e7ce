import ComplexModule
import RealModule

/// Analog frequency transforms of a lowpass prototype with cutoff 1 rad/s (scipy `lp2lp_zpk`,
/// `lp2hp_zpk`, `lp2bp_zpk`, `lp2bs_zpk`). Frequencies are analog, in rad/s; call on analog
/// descriptions only.
extension ZeroPoleGain {
    typealias C = Complex<Double>

    /// Poles minus zeros: the number of zeros at infinity.
    var relativeDegree: Int { poles.count - zeros.count }

    /// Lowpass with cutoff `wo` (rad/s): `s → s/wo`; zeros and poles scale by `wo`, the gain by `wo^degree`.
    func lowpassToLowpass(cutoff wo: Double) -> ZeroPoleGain {
        ZeroPoleGain(
            zeros: zeros.map { scaled($0, by: wo) }, poles: poles.map { scaled($0, by: wo) },
            gain: gain * Double.pow(wo, Double(relativeDegree)))
    }

    /// Highpass with cutoff `wo` (rad/s): `s → wo/s`; the zeros at infinity move to the origin and the
    /// gain is multiplied by `Re(∏(−zᵢ) / ∏(−pⱼ))`.
    func lowpassToHighpass(cutoff wo: Double) -> ZeroPoleGain {
        typealias M = FilterComplexMath
        let w = C(wo, 0)
        var newZeros = zeros.map { M.divide(w, $0) }
        newZeros.append(contentsOf: repeatElement(C(0, 0), count: relativeDegree))
        let ratio = M.divide(M.product(zeros.map { -$0 }), M.product(poles.map { -$0 }))
        return ZeroPoleGain(zeros: newZeros, poles: poles.map { M.divide(w, $0) }, gain: gain * ratio.real)
    }

    /// Bandpass with centre `wo` and width `bw` (rad/s): `s → (s² + wo²)/(s·bw)`; each root `r` becomes
    /// `r·bw/2 ± √((r·bw/2)² − wo²)`, `degree` zeros go to the origin, the gain is multiplied by `bw^degree`.
    func lowpassToBandpass(center wo: Double, bandwidth bw: Double) -> ZeroPoleGain {
        func split(_ roots: [C]) -> [C] {
            // (r·bw)/2 with NumPy's complex division, which turns an imaginary −0 into +0; the sign of
            // that zero picks the branch of the square root below and so the order of the new roots.
            let half = roots.map { FilterComplexMath.divide(scaled($0, by: bw), C(2, 0)) }
            let offsets = half.map { shiftedRoot($0, wo) }
            return zip(half, offsets).map { $0 + $1 } + zip(half, offsets).map { $0 - $1 }
        }
        var newZeros = split(zeros)
        newZeros.append(contentsOf: repeatElement(C(0, 0), count: relativeDegree))
        return ZeroPoleGain(
            zeros: newZeros, poles: split(poles), gain: gain * Double.pow(bw, Double(relativeDegree)))
    }

    /// Bandstop with centre `wo` and width `bw` (rad/s): `s → s·bw/(s² + wo²)`; each root `r` becomes
    /// `(bw/2)/r ± √(((bw/2)/r)² − wo²)`, the zeros at infinity move to `±j·wo`, and the gain is
    /// multiplied by `Re(∏(−zᵢ) / ∏(−pⱼ))`.
    func lowpassToBandstop(center wo: Double, bandwidth bw: Double) -> ZeroPoleGain {
        typealias M = FilterComplexMath
        let halfWidth = C(bw / 2, 0)
        func split(_ roots: [C]) -> [C] {
            let inverted = roots.map { M.divide(halfWidth, $0) }
            let offsets = inverted.map { shiftedRoot($0, wo) }
            return zip(inverted, offsets).map { $0 + $1 } + zip(inverted, offsets).map { $0 - $1 }
        }
        var newZeros = split(zeros)
        newZeros.append(contentsOf: repeatElement(C(0, wo), count: relativeDegree))
        newZeros.append(contentsOf: repeatElement(C(0, -wo), count: relativeDegree))
        let ratio = M.divide(M.product(zeros.map { -$0 }), M.product(poles.map { -$0 }))
        return ZeroPoleGain(zeros: newZeros, poles: split(poles), gain: gain * ratio.real)
    }

    /// `√(r² − wo²)` (principal branch), the offset of the two roots a band transform makes from `r`.
    private func shiftedRoot(_ r: C, _ wo: Double) -> C {
        let square = FilterComplexMath.fusedMultiply(r, r)
        return FilterComplexMath.squareRoot(C(square.real - wo * wo, square.imaginary))
    }

    /// `z · w` for real `w`, computed as NumPy does after promoting `w` to complex.
    private func scaled(_ z: C, by w: Double) -> C {
        FilterComplexMath.multiply(z, C(w, 0))
    }
}
