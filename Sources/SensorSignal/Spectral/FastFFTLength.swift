/// The smallest length ≥ `n` whose only prime factors are 2, 3, 5 and 7 (a 7-smooth number).
///
/// FFTW has hard-coded kernels for the radices 2, 3, 5 and 7, so zero-padding a transform to such a
/// length (for a linear convolution or an autocorrelation of ≥ 2N − 1 points) is never much slower than the
/// next power of two and often faster. Follows `scipy.fft.next_fast_len(n)` semantics — lengths 0…6 are
/// returned unchanged, the result is the *smallest* fast length ≥ n — but with FFTW's radix set: scipy's
/// `real=True` variant uses pocketfft's 2, 3, 5 (so it maps 7 → 8, 49 → 50), and its `real=False`
/// variant adds 11 (so it maps 11 → 11). Every value returned here is ≤ scipy's `real=True` value.
///
/// - Parameter n: the minimum length, 0 ≤ n ≤ 2⁶⁰.
/// - Returns: the fast length, in `n…2n`.
/// - Complexity: O(log⁴ n), allocation-free.
public func nextFastFFTLength(_ n: Int) -> Int {
    precondition(n >= 0 && n <= 1 << 60, "nextFastFFTLength: n = \(n) must be in 0…2⁶⁰")
    if n <= 6 { return n }
    var best = 1
    while best < n { best <<= 1 }  // a power of two is always a candidate
    var p7 = 1
    while p7 < best {
        var p75 = p7
        while p75 < best {
            var p753 = p75
            while p753 < best {
                var candidate = p753
                while candidate < n { candidate <<= 1 }
                if candidate < best { best = candidate }
                if candidate == n { return n }
                p753 *= 3
            }
            p75 *= 5
        }
        p7 *= 7
    }
    return best
}
