import Foundation

/// Correctly rounded decimal-to-`Double` conversion straight from UTF-8 bytes, without creating
/// strings: the hot path of every recorder-log and CSV reader.
///
/// Method: the significant digits (at most 19) form an exact 64-bit integer `w`; `w·10^q` is
/// approximated by one 64×64→128-bit product with a 64-bit normalised power of ten whose error is
/// known (< 1 unit in its last place). Both ends of the error interval are rounded to nearest-even;
/// when they agree, that double is the correctly rounded result. When they disagree (a value within
/// the error of a rounding boundary, exact ties included), when there are more than 19 significant
/// digits, or when the exponent is extreme, the bytes go to the C library's `strtod`, which is
/// correctly rounded. The result therefore always equals `strtod`'s.
enum DecimalParser {
    /// Normalised (top bit set) 64-bit truncations of 10^q for q in `minExponent…maxExponent`,
    /// with their binary exponents: 10^q ≈ mantissa · 2^binaryExponent.
    private static let minExponent = -342
    private static let maxExponent = 308
    private static let table: [(mantissa: UInt64, binaryExponent: Int)] = buildPowerTable()

    /// Parses a number occupying exactly `bytes` (sign, digits, fraction, exponent).
    /// Returns nil if the bytes are not a number in that grammar.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let (value, end) = scan(bytes, from: 0), end == bytes.count else { return nil }
        return value
    }

    /// Parses the longest number starting at `start`; returns the value and the index after it,
    /// or nil if no valid number starts there (e.g. `-`, `1.`, `1e`).
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Double, Int)? {
        var i = start
        let n = bytes.count
        guard i < n else { return nil }
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") {
            i += 1
        }
        var w: UInt64 = 0
        var digits = 0  // significant digits accumulated into w
        var dropped = 0  // integer digits beyond 19 (exponent adjustment)
        var truncated = false
        var sawDigit = false
        var exponent = 0
        // Integer part.
        while i < n {
            let d = bytes[i] &- 48
            if d >= 10 { break }
            sawDigit = true
            if w == 0 && d == 0 {
                // Leading zeros are not significant.
            } else if digits < 19 {
                w = w &* 10 &+ UInt64(d)
                digits += 1
            } else {
                dropped += 1
                if d != 0 { truncated = true }
            }
            i += 1
        }
        // Fraction.
        if i < n, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n {
                let d = bytes[i] &- 48
                if d >= 10 { break }
                if w == 0 && d == 0 {
                    exponent -= 1
                } else if digits < 19 {
                    w = w &* 10 &+ UInt64(d)
                    digits += 1
                    exponent -= 1
                } else if d != 0 {
                    truncated = true
                }
                i += 1
            }
            guard i > fractionStart else { return nil }
            sawDigit = true
        }
        guard sawDigit else { return nil }
        exponent += dropped
        // Exponent part.
        if i < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < n, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            let expStart = i
            while i < n {
                let d = bytes[i] &- 48
                if d >= 10 { break }
                if e < 100_000 { e = e * 10 + Int(d) }
                i += 1
            }
            guard i > expStart else { return nil }
            exponent += expNegative ? -e : e
        }
        if w == 0 { return (negative ? -0.0 : 0.0, i) }
        if !truncated, let v = fastPath(w: w, q: exponent) { return (negative ? -v : v, i) }
        guard let v = slowPath(UnsafeBufferPointer(rebasing: bytes[start..<i])) else { return nil }
        return (v, i)
    }

    /// Exact (Clinger) or error-bounded (128-bit product) conversion of w·10^q; nil if undecidable here.
    @inline(__always)
    private static func fastPath(w: UInt64, q: Int) -> Double? {
        // Exact: both w and 10^|q| are exactly representable doubles, so one IEEE operation rounds once.
        if w <= 1 << 53, q >= -22, q <= 22 {
            let p = exactPowersOfTen[q < 0 ? -q : q]
            return q < 0 ? Double(w) / p : Double(w) * p
        }
        guard q >= -300, q <= 300 else { return nil }
        let power = table[q - minExponent]
        let shift = w.leadingZeroBitCount
        let wn = w << UInt64(shift)
        var (hi, lo) = wn.multipliedFullWidth(by: power.mantissa)
        // Binary exponent of bit 0 of the 128-bit product P = hi·2^64 + lo.
        var e = power.binaryExponent - shift
        // Normalise so bit 127 is set (a product of two normalised factors has bit 126 or 127 set).
        if hi >> 63 == 0 {
            hi = (hi << 1) | (lo >> 63)
            lo <<= 1
            e -= 1
        }
        // The table entry is a truncation within 1 ulp, so the true product lies in [P, P + 2·wn):
        // after normalisation the high word is exact to within [−2, +4) (kept conservative). The result
        // is decidable when that interval neither crosses the halfway point of the 11 discarded bits nor
        // borrows from or carries into the 53-bit mantissa; otherwise strtod decides.
        let low = hi & 0x7FF
        guard low >= 3, low <= 0x7FF - 5, low < 0x400 - 5 || low > 0x400 + 3 else { return nil }
        var mantissa = hi >> 11
        var e2 = e + 75  // value = mantissa · 2^e2
        if low > 0x400 {
            mantissa += 1
            if mantissa == 1 << 53 {
                mantissa >>= 1
                e2 += 1
            }
        }
        let biased = e2 + 52 + 1023
        guard biased > 0, biased < 2047 else { return nil }
        return Double(bitPattern: UInt64(biased) << 52 | (mantissa & ((1 << 52) - 1)))
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { pow(10.0, Double($0)) }

    /// Correctly rounded conversion by the C library, for the rare hard cases.
    private static func slowPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            for k in 0..<bytes.count { buffer[k] = CChar(bitPattern: bytes[k]) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + bytes.count ? v : nil
        }
    }

    /// Builds 10^q for q in the table range by repeated ×10 and ÷10 on a 256-bit normalised
    /// fixed-point mantissa (errors stay below 2^-180 relative), keeping the top 64 bits.
    private static func buildPowerTable() -> [(mantissa: UInt64, binaryExponent: Int)] {
        var out = [(mantissa: UInt64, binaryExponent: Int)](
            repeating: (0, 0), count: maxExponent - minExponent + 1)
        // limbs[0] is most significant; value = 0.limbs · 2^(64·4) · 2^exp, normalised so the top bit is set.
        func normalise(_ limbs: inout [UInt64], _ exp: inout Int) {
            while limbs[0] & (1 << 63) == 0 {
                for k in 0..<4 { limbs[k] = (limbs[k] << 1) | (k < 3 ? limbs[k + 1] >> 63 : 0) }
                exp -= 1
            }
        }
        // 1 = 2^255 · 2^-255.
        var limbs: [UInt64] = [1 << 63, 0, 0, 0]
        var exp = -255
        out[-minExponent] = (limbs[0], exp + 192)
        for q in 1...maxExponent {
            // × 10 = ×5 then ×2 (the ×2 is exponent bookkeeping). ×5 may overflow into a fifth limb.
            var carry: UInt64 = 0
            for k in stride(from: 3, through: 0, by: -1) {
                let (h, l) = limbs[k].multipliedFullWidth(by: 5)
                let (sum, o) = l.addingReportingOverflow(carry)
                limbs[k] = sum
                carry = h &+ (o ? 1 : 0)
            }
            exp += 1
            // Shift right until the overflow limb is absorbed (truncating the lowest bits).
            while carry != 0 {
                for k in stride(from: 3, through: 1, by: -1) { limbs[k] = (limbs[k] >> 1) | (limbs[k - 1] << 63) }
                limbs[0] = (limbs[0] >> 1) | (carry << 63)
                carry >>= 1
                exp += 1
            }
            normalise(&limbs, &exp)
            out[q - minExponent] = (limbs[0], exp + 192)
        }
        limbs = [1 << 63, 0, 0, 0]
        exp = -255
        for q in 1...(-minExponent) {
            // ÷ 10 = ÷5 then ÷2.
            var remainder: UInt64 = 0
            for k in 0..<4 {
                let (quotient, r) = (5 as UInt64).dividingFullWidth((remainder, limbs[k]))
                limbs[k] = quotient
                remainder = r
            }
            exp -= 1
            normalise(&limbs, &exp)
            out[-q - minExponent] = (limbs[0], exp + 192)
        }
        return out
    }
}
