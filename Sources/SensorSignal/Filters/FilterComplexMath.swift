import ComplexModule
import RealModule

/// Complex arithmetic with the same operation order as NumPy's complex128 loops, so that filter designs
/// reproduce `scipy.signal` down to the last bits wherever the libm functions agree.
///
/// NumPy 2 multiplies arrays with fused multiply-adds (`re = fma(a.re, b.re, −a.im·b.im)`) but reduces
/// products (`prod`) naively, divides with Smith's algorithm, takes `abs` as `max·√(fma(r, r, 1))` with
/// `r = min/max`, and `sqrt` with C99 `csqrt`. ComplexModule's operators round differently, which is just
/// as accurate but not bit-identical, and bit-identity decides exact ties in scipy's pole-zero pairing
/// (symmetric band designs, whose poles come in mirror pairs at equal distance from the unit circle).
enum FilterComplexMath {
    typealias C = Complex<Double>

    /// `a · b`, naive formula (NumPy `prod`, a reduction).
    @inline(__always)
    static func multiply(_ a: C, _ b: C) -> C {
        C(a.real * b.real - a.imaginary * b.imaginary, a.real * b.imaginary + a.imaginary * b.real)
    }

    /// `a · b` with fused multiply-adds, as NumPy's SIMD loop for element-wise `multiply` and `square`.
    @inline(__always)
    static func fusedMultiply(_ a: C, _ b: C) -> C {
        C(
            (-(a.imaginary * b.imaginary)).addingProduct(a.real, b.real),
            (a.imaginary * b.real).addingProduct(a.real, b.imaginary))
    }

    /// `a / b` with Smith's algorithm (NumPy `divide` for complex128).
    static func divide(_ a: C, _ b: C) -> C {
        let (ar, ai, br, bi) = (a.real, a.imaginary, b.real, b.imaginary)
        if abs(br) >= abs(bi) {
            if br == 0 && bi == 0 {
                return C(ar / abs(br), ai / abs(br))
            }
            let ratio = bi / br
            let scale = 1.0 / (br + bi * ratio)
            return C((ar + ai * ratio) * scale, (ai - ar * ratio) * scale)
        } else {
            let ratio = br / bi
            let scale = 1.0 / (bi + br * ratio)
            return C((ar * ratio + ai) * scale, (ai * ratio - ar) * scale)
        }
    }

    /// `|z|` as NumPy's SIMD `abs` computes it: `larger · √(fma(r, r, 1))` with `r = smaller/larger`.
    static func modulus(_ z: C) -> Double {
        let (x, y) = (abs(z.real), abs(z.imaginary))
        let larger = max(x, y)
        let smaller = min(x, y)
        guard larger != 0, smaller != .infinity else { return larger + smaller }
        let ratio = smaller / larger
        return (1.0).addingProduct(ratio, ratio).squareRoot() * larger
    }

    /// Principal square root with the C99 `csqrt` recipe (glibc): the root of the larger of
    /// `(|z| ± Re z)/2` first, the other part from `2·Re·Im = Im z` to avoid cancellation.
    static func squareRoot(_ z: C) -> C {
        let (x, y) = (z.real, z.imaginary)
        if y == 0 {
            if x < 0 { return C(0, Double(signOf: y, magnitudeOf: (-x).squareRoot())) }
            return C(x.squareRoot(), y)
        }
        if x == 0 {
            let r = (0.5 * abs(y)).squareRoot()
            return C(r, Double(signOf: y, magnitudeOf: r))
        }
        let d = Double.hypot(x, y)
        let r: Double
        let s: Double
        if x > 0 {
            r = (0.5 * (d + x)).squareRoot()
            s = 0.5 * (y / r)
        } else {
            s = (0.5 * (d - x)).squareRoot()
            r = abs(0.5 * (y / s))
        }
        return C(r, Double(signOf: y, magnitudeOf: s))
    }

    /// `∏ values`, multiplied left to right (NumPy `prod`); 1 for an empty list.
    static func product(_ values: [C]) -> C {
        var result = C(1, 0)
        for v in values { result = multiply(result, v) }
        return result
    }
}
