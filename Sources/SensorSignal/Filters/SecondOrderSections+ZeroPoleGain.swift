import ComplexModule

extension SecondOrderSections {
    /// Groups the zeros and poles of a digital filter into biquads, scipy `zpk2sos(z, p, k)` with its
    /// default `pairing='nearest'`.
    ///
    /// Same algorithm and tie-breaking as scipy, so the sections come out in the same order:
    /// - the shorter of zeros/poles is padded with roots at the origin, and an odd count gets one more
    ///   zero and pole at the origin; there are ⌈max(#zeros, #poles)/2⌉ sections;
    /// - conjugate pairs are matched (relative tolerance 100·ε) and sorted by real part, then by |imag|;
    /// - sections are filled from the last to the first: each takes the remaining pole closest to the
    ///   unit circle (with its conjugate, or the next such real pole), then the zero nearest to it (with
    ///   its conjugate, or the next nearest real zero), so the poles nearest the unit circle, the most
    ///   resonant, end up in the last section;
    /// - the gain `k` multiplies the numerator of the first section.
    ///
    /// - Parameter zeroPoleGain: a digital description (z-plane); complex roots in conjugate pairs.
    /// - Throws: ``FilterError/invalidZeroPoleGain(reason:)`` if a complex root has no conjugate or a
    ///   value is not finite.
    /// - Complexity: O(n²) in the number of roots; allocates a few arrays of that size.
    public init(_ zeroPoleGain: ZeroPoleGain) throws(FilterError) {
        typealias C = Complex<Double>
        let zpk = zeroPoleGain
        let allFinite =
            zpk.gain.isFinite
            && (zpk.zeros + zpk.poles).allSatisfy { $0.real.isFinite && $0.imaginary.isFinite }
        guard allFinite else { throw .invalidZeroPoleGain(reason: "a zero, pole or the gain is not finite") }
        if zpk.zeros.isEmpty && zpk.poles.isEmpty {
            self.init(normalisedSections: [Section(b0: zpk.gain, b1: 0, b2: 0, a1: 0, a2: 0)])
            return
        }

        var zeros = zpk.zeros
        var poles = zpk.poles
        let rootCount = max(zeros.count, poles.count)
        zeros.append(contentsOf: repeatElement(C(0, 0), count: rootCount - zeros.count))
        poles.append(contentsOf: repeatElement(C(0, 0), count: rootCount - poles.count))
        let sectionCount = (rootCount + 1) / 2
        if rootCount % 2 == 1 {
            zeros.append(C(0, 0))
            poles.append(C(0, 0))
        }
        // One representative (positive imaginary part) per conjugate pair, then the real roots.
        var z = try Self.conjugatePairsThenReals(zeros, kind: "zero")
        var p = try Self.conjugatePairsThenReals(poles, kind: "pole")

        func isReal(_ c: C) -> Bool { c.imaginary == 0 }
        func distanceToUnitCircle(_ c: C) -> Double { abs(1 - FilterComplexMath.modulus(c)) }
        /// Index of the first root closest to the unit circle (NumPy `argmin` keeps the first minimum).
        func worstIndex(_ roots: [C], among indices: [Int]) -> Int {
            var best = indices[0]
            for i in indices.dropFirst() where distanceToUnitCircle(roots[i]) < distanceToUnitCircle(roots[best]) {
                best = i
            }
            return best
        }
        enum Kind { case real, complex, any }
        /// Index of the root in `roots` nearest to `target` among those of `kind` (first of equals).
        func nearestIndex(_ roots: [C], to target: C, _ kind: Kind) throws(FilterError) -> Int {
            var best: Int?
            var bestDistance = Double.infinity
            for (i, r) in roots.enumerated() {
                switch kind {
                case .real where !isReal(r), .complex where isReal(r): continue
                default: break
                }
                let d = FilterComplexMath.modulus(r - target)
                if best == nil || d < bestDistance {
                    best = i
                    bestDistance = d
                }
            }
            guard let best else {
                throw .invalidZeroPoleGain(reason: "no \(kind) zero is left to pair with pole \(target)")
            }
            return best
        }

        var sections = [Section](repeating: Section(b0: 0, b1: 0, b2: 0, a1: 0, a2: 0), count: sectionCount)
        for si in stride(from: sectionCount - 1, through: 0, by: -1) {
            let p1 = p.remove(at: worstIndex(p, among: Array(p.indices)))
            let realPolesLeft = p.count(where: isReal)
            if isReal(p1) && realPolesLeft == 0 {
                // The last real pole: pair with the nearest real zero, plus a pole and zero at the origin.
                let z1 = z.remove(at: try nearestIndex(z, to: p1, .real))
                sections[si] = Self.section(zeros: [z1, C(0, 0)], poles: [p1, C(0, 0)])
            } else if p.count + 1 == z.count && !isReal(p1) && realPolesLeft == 1 && z.count(where: isReal) == 1 {
                // One real pole and one real zero remain besides this pair: take a complex zero now so the
                // real ones can pair with each other.
                let z1 = z.remove(at: try nearestIndex(z, to: p1, .complex))
                sections[si] = Self.section(zeros: [z1, z1.conjugate], poles: [p1, p1.conjugate])
            } else {
                let p2: C
                if isReal(p1) {
                    let realIndices = p.indices.filter { isReal(p[$0]) }
                    p2 = p.remove(at: worstIndex(p, among: realIndices))
                } else {
                    p2 = p1.conjugate
                }
                if z.isEmpty {
                    sections[si] = Self.section(zeros: [], poles: [p1, p2])
                } else {
                    let z1 = z.remove(at: try nearestIndex(z, to: p1, .any))
                    if !isReal(z1) {
                        sections[si] = Self.section(zeros: [z1, z1.conjugate], poles: [p1, p2])
                    } else if !z.isEmpty {
                        let z2 = z.remove(at: try nearestIndex(z, to: p1, .real))
                        sections[si] = Self.section(zeros: [z1, z2], poles: [p1, p2])
                    } else {
                        sections[si] = Self.section(zeros: [z1], poles: [p1, p2])
                    }
                }
            }
        }
        sections[0].b0 *= zpk.gain
        sections[0].b1 *= zpk.gain
        sections[0].b2 *= zpk.gain
        self.init(normalisedSections: sections)
    }

    /// One biquad from up to two zeros and exactly two poles (each a conjugate pair or two reals):
    /// monic polynomials, right-aligned as scipy's `_single_zpksos` does (one zero gives `[0, 1, −z]`).
    private static func section(zeros: [Complex<Double>], poles: [Complex<Double>]) -> Section {
        let b = monicCoefficients(zeros)
        let a = monicCoefficients(poles)
        let bPadded = [Double](repeating: 0, count: 3 - b.count) + b
        let aPadded = [Double](repeating: 0, count: 3 - a.count) + a
        return Section(
            b0: bPadded[0], b1: bPadded[1], b2: bPadded[2], a0: aPadded[0], a1: aPadded[1], a2: aPadded[2])
    }

    /// Coefficients of `∏(x − rᵢ)` for zero to two roots that are real or a conjugate pair (NumPy `poly`).
    private static func monicCoefficients(_ roots: [Complex<Double>]) -> [Double] {
        switch roots.count {
        case 0: return [1]
        case 1: return [1, -roots[0].real]
        default:
            let (r, s) = (roots[0], roots[1])
            // Expanding (1, −r) ∗ (1, −s): the real part of the complex product, exactly as NumPy computes it.
            let product = FilterComplexMath.multiply(-r, -s)
            return [1, -s.real + -r.real, product.real]
        }
    }

    /// Splits roots into conjugate-pair representatives followed by real roots (scipy `_cplxreal`).
    ///
    /// One representative per complex-conjugate pair (positive imaginary part, averaged with its partner),
    /// then the real roots, each group sorted by real part and, for equal real parts, by |imag|. A root is
    /// real if `|imag| ≤ 100·ε·|z|`.
    static func conjugatePairsThenReals(_ roots: [Complex<Double>], kind: String) throws(FilterError)
        -> [Complex<Double>]
    {
        typealias C = Complex<Double>
        let tolerance = 100 * Double.ulpOfOne
        // Stable sort by (real, |imag|), like NumPy `lexsort`.
        let sorted = roots.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.real != b.real { return a.real < b.real }
            if abs(a.imaginary) != abs(b.imaginary) { return abs(a.imaginary) < abs(b.imaginary) }
            return lhs.offset < rhs.offset
        }.map(\.element)
        func isNearlyReal(_ c: C) -> Bool { abs(c.imaginary) <= tolerance * FilterComplexMath.modulus(c) }
        let reals = sorted.filter(isNearlyReal).map { C($0.real, 0) }
        let complex = sorted.filter { !isNearlyReal($0) }
        var positive = complex.filter { $0.imaginary > 0 }
        var negative = complex.filter { $0.imaginary < 0 }
        guard positive.count == negative.count else {
            throw .invalidZeroPoleGain(reason: "a complex \(kind) has no matching conjugate")
        }
        // Within runs of (nearly) equal real parts, order by |imag| so partners line up.
        var start = 0
        while start < positive.count {
            var stop = start
            while stop + 1 < positive.count
                && positive[stop + 1].real - positive[stop].real
                    <= tolerance * FilterComplexMath.modulus(positive[stop])
            {
                stop += 1
            }
            if stop > start {
                let run = start...stop
                positive[run] = ArraySlice(Self.stableSortedByImaginaryMagnitude(Array(positive[run])))
                negative[run] = ArraySlice(Self.stableSortedByImaginaryMagnitude(Array(negative[run])))
            }
            start = stop + 1
        }
        var pairs: [C] = []
        pairs.reserveCapacity(positive.count + reals.count)
        for (plus, minus) in zip(positive, negative) {
            guard FilterComplexMath.modulus(plus - minus.conjugate) <= tolerance * FilterComplexMath.modulus(minus)
            else { throw .invalidZeroPoleGain(reason: "a complex \(kind) has no matching conjugate") }
            pairs.append(C((plus.real + minus.real) / 2, (plus.imaginary - minus.imaginary) / 2))
        }
        return pairs + reals
    }

    /// `values` stably sorted by |imag| (NumPy `lexsort` on one key).
    private static func stableSortedByImaginaryMagnitude(_ values: [Complex<Double>]) -> [Complex<Double>] {
        values.enumerated().sorted { lhs, rhs in
            let (a, b) = (abs(lhs.element.imaginary), abs(rhs.element.imaginary))
            return a != b ? a < b : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
