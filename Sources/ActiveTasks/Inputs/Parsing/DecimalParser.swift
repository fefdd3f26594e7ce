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

    /// Parses a JSON-grammar number occupying exactly `bytes` (sign, digits, fraction, exponent).
    /// Returns nil if the bytes are not a number in that grammar.
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = bytes.count
        guard n > 0 else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") {
            negative = true
            i = 1
        } else if bytes[0] == UInt8(ascii: "+") {
            i = 1
        }
        var w: UInt64 = 0
        var digits = 0  // significant digits accumulated into w
        var dropped = 0  // integer digits beyond 19 (exponent adjustment)
        var truncated = false
        var sawDigit = false
        var exponent = 0
        // Integer part.
        while i < n, bytes[i] &- 48 < 10 {
            let d = UInt64(bytes[i] &- 48)
            sawDigit = true
            if w == 0 && d == 0 {
                // Leading zeros are not significant.
            } else if digits < 19 {
                w = w &* 10 &+ d
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
            var fractionDigits = 0
            while i < n, bytes[i] &- 48 < 10 {
                let d = UInt64(bytes[i] &- 48)
                fractionDigits += 1
                if w == 0 && d == 0 {
                    exponent -= 1
                } else if digits < 19 {
                    w = w &* 10 &+ d
                    digits += 1
                    exponent -= 1
                } else if d != 0 {
                    truncated = true
                }
                i += 1
            }
            guard fractionDigits > 0 else { return nil }
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
            var expDigits = 0
            while i < n, bytes[i] &- 48 < 10 {
                if e < 100_000 { e = e * 10 + Int(bytes[i] &- 48) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0 else { return nil }
            exponent += expNegative ? -e : e
        }
        guard i == n else { return nil }
        if w == 0 { return negative ? -0.0 : 0.0 }
        if !truncated, let v = fastPath(w: w, q: exponent) { return negative ? -v : v }
        return slowPath(bytes)
    }

    /// Exact (Clinger) or error-bounded (128-bit product) conversion of w·10^q; nil if undecidable here.
    @inline(__always)
    private static func fastPath(w: UInt64, q: Int) -> Double? {
        // Exact: both w and 10^|q| are exactly representable doubles.
        if w <= 1 << 53, q >= -22, q <= 22 {
            let p = exactPowersOfTen[q < 0 ? -q : q]
            return q < 0 ? Double(w) / p : Double(w) * p
        }
        guard q >= -300, q <= 300 else { return nil }
        let power = table[q - minExponent]
        let shift = w.leadingZeroBitCount
        let wn = w << UInt64(shift)
        let (hi, lo) = wn.multipliedFullWidth(by: power.mantissa)
        // True product lies in [P − wn, P + 2·wn): the table entry is a truncation within 1 ulp
        // (widened to [−1, +2) ulp for safety), so P's high word is exact to within −1/+2.
        guard hi >= 2, hi < UInt64.max - 2 else { return nil }
        // Binary exponent of bit 0 of the 128-bit product P = hi·2^64 + lo.
        let e = power.binaryExponent - shift
        guard let a = roundToDouble(hi: hi - 1, lo: lo, exponent: e),
            let b = roundToDouble(hi: hi + 2, lo: lo, exponent: e),
            a == b
        else { return nil }
        return a
    }

    /// Rounds the 128-bit integer (hi, lo)·2^exponent to the nearest double, ties to even.
    /// Returns nil for results outside the normal range (left to strtod).
    @inline(__always)
    private static func roundToDouble(hi: UInt64, lo: UInt64, exponent: Int) -> Double? {
        let lz = hi.leadingZeroBitCount  // 0 or 1 for normalised inputs
        let h = lz == 0 ? hi : (hi << UInt64(lz)) | (lo >> UInt64(64 - lz))
        let l = lo << UInt64(lz)
        var mantissa = h >> 11
        let roundBit = (h >> 10) & 1
        let sticky = (h & 0x3FF) != 0 || l != 0
        var e2 = exponent - lz + 128 - 53  // value = mantissa · 2^e2
        if roundBit == 1 && (sticky || mantissa & 1 == 1) {
            mantissa += 1
            if mantissa == 1 << 53 {
                mantissa >>= 1
                e2 += 1
            }
        }
        let unbiased = e2 + 52
        guard unbiased > -1022, unbiased < 1023 else { return nil }
        return Double(sign: .plus, exponent: e2, significand: Double(mantissa))
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
