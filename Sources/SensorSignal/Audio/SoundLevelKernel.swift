// The hot loop of `SoundLevelMeter`: A- and C-weighting of one signal with the weighting filters factored
// into FIR numerators and all-pole denominators, run on two independent stretches of the signal at once in
// two independent streams.
//
// Why two stretches: a recursive filter on one stream is bound by the latency of its recursion (one multiply
// and one subtraction per sample, ≈ 6 cycles here), not by arithmetic; two interleaved streams do twice
// the work in the same time. The second stretch starts from rest `warmUp` samples early, so
// its filter state has converged to the true state (to 2⁻⁵² of the signal, see `SoundLevelGeometry`) by the
// time its own samples begin.
//
// Everything here is internal; `SoundLevelMeter` is the API.

/// The factored weighting filter's coefficients.
///
/// With `u[n] = x[n] − 2x[n−2] + x[n−4]` (the C numerator `(1 − z⁻¹)²(1 + z⁻¹)²`, computed beforehand):
/// ```
/// p = u − 2p1·p[n−1] + p1²·p[n−2]            double pole p1 (f1 = 20.6 Hz)
/// v = p − 2p4·v[n−1] + p4²·v[n−2]            double pole p4 (f4 = 12.2 kHz)      C-weighted = gC·v
/// d = v − 2v[n−1] + v[n−2]                   two more zeros at z = 1
/// w = d + (p2 + p3)·w[n−1] − p2p3·w[n−2]    poles p2, p3 (107.7 Hz, 737.9 Hz)    A-weighted = gA·w
/// ```
struct WeightingCoefficients: Sendable {
    let a11: Double, a12: Double, a21: Double, a22: Double, a31: Double, a32: Double
}

/// The recursive state of the factored filter: the last two outputs of each all-pole stage.
struct WeightingState: Sendable {
    var p1: Double, p2: Double, v1: Double, v2: Double, w1: Double, w2: Double
}

/// One sample through the factored filter: returns the unscaled C (`v`) and A (`w`) outputs.
@inline(__always)
func weightingStep(_ u: Double, _ s: inout WeightingState, _ c: WeightingCoefficients) -> (v: Double, w: Double) {
    // Terms that do not depend on the previous sample are formed first, so the only recursion per stage is
    // one multiplication and one subtraction.
    let p = (u - c.a12 * s.p2) - c.a11 * s.p1
    s.p2 = s.p1
    s.p1 = p
    let v = (p - c.a22 * s.v2) - c.a21 * s.v1
    let d = (v + s.v2) - (s.v1 + s.v1)
    s.v2 = s.v1
    s.v1 = v
    let w = (d - c.a32 * s.w2) - c.a31 * s.w1
    s.w2 = s.w1
    s.w1 = w
    return (v, w)
}

/// What the kernel records per cell (a fixed stretch of `cellSize` samples), for both streams.
///
/// The two streams' values of each quantity are adjacent (`energyA0`, `energyA1`, …): LLVM's SLP vectoriser
/// starts from such pairs of adjacent stores and then runs the two streams' arithmetic in the lanes of one
/// register. With the streams' records in separate arrays it did not, and the kernel took 7.6 ms instead of
/// 4.1 ms for 2.88 M samples.
struct CellRecord: Sendable {
    /// Σ w² per stream (unscaled A-weighted energy).
    var energyA0 = 0.0, energyA1 = 0.0
    /// Σ v² per stream (unscaled C-weighted energy).
    var energyC0 = 0.0, energyC1 = 0.0
    /// Σ αF^(g−1−i)·w²ᵢ (Horner): the cell's contribution to the F-weighted mean square.
    var fast0 = 0.0, fast1 = 0.0
    /// The same with αS.
    var slow0 = 0.0, slow1 = 0.0
    /// Largest v² (the C peak, squared and unscaled).
    var peakSquared0 = 0.0, peakSquared1 = 0.0
    /// Filter state of each stream at the start of the cell, so the cell can be replayed sample by sample.
    var start0 = WeightingState(p1: 0, p2: 0, v1: 0, v2: 0, w1: 0, w2: 0)
    var start1 = WeightingState(p1: 0, p2: 0, v1: 0, v2: 0, w1: 0, w2: 0)

    /// One stream's values.
    func lane(_ lane: Int) -> CellLane {
        lane == 0
            ? CellLane(energyA: energyA0, energyC: energyC0, fast: fast0, slow: slow0, peakSquared: peakSquared0, start: start0)
            : CellLane(energyA: energyA1, energyC: energyC1, fast: fast1, slow: slow1, peakSquared: peakSquared1, start: start1)
    }
}

/// One stream's part of a ``CellRecord``.
struct CellLane: Sendable {
    var energyA: Double
    var energyC: Double
    var fast: Double
    var slow: Double
    var peakSquared: Double
    var start: WeightingState
}

/// Runs two streams for `steps` samples: stream 0 reads `u[base0 + k]`, stream 1 `u[base1 + k]`; writes one
/// ``CellRecord`` per `cellSize` samples (the last cell may be shorter).
///
/// The two streams are written out as scalar code (which LLVM pairs into `SIMD2` lanes itself): measured on
/// 2.88 M samples, 4.1 ms, against 6.4 ms for the same arithmetic written with `SIMD2<Double>` (whose code
/// LLVM fills with lane shuffles and spills) and 8.3 ms for four streams (spills). Each stream applies
/// `weightingStep`'s operations in its order, so a scalar replay reproduces its samples bit for bit.
/// No allocation; O(steps).
@inline(never)
func runWeightingStreams(
    _ u: UnsafePointer<Double>, base0: Int, base1: Int, steps: Int, cellSize: Int,
    coefficients c: WeightingCoefficients, alphaFast af: Double, alphaSlow aS: Double,
    state0: inout WeightingState, state1: inout WeightingState, cells: UnsafeMutablePointer<CellRecord>
) {
    let ua = u + base0
    let ub = u + base1
    let a11 = c.a11, a12 = c.a12, a21 = c.a21, a22 = c.a22, a31 = c.a31, a32 = c.a32
    var p1a = state0.p1, p2a = state0.p2, v1a = state0.v1, v2a = state0.v2, w1a = state0.w1, w2a = state0.w2
    var p1b = state1.p1, p2b = state1.p2, v1b = state1.v1, v2b = state1.v2, w1b = state1.w1, w2b = state1.w2
    var k = 0
    var cell = 0
    while k < steps {
        let end = min(k + cellSize, steps)
        cells[cell].start0 = WeightingState(p1: p1a, p2: p2a, v1: v1a, v2: v2a, w1: w1a, w2: w2a)
        cells[cell].start1 = WeightingState(p1: p1b, p2: p2b, v1: v1b, v2: v2b, w1: w1b, w2: w2b)
        var eAa = 0.0, eCa = 0.0, fa = 0.0, sa = 0.0, ma = 0.0
        var eAb = 0.0, eCb = 0.0, fb = 0.0, sb = 0.0, mb = 0.0
        while k < end {
            let xa = ua[k]
            let xb = ub[k]
            let pa = (xa - a12 * p2a) - a11 * p1a
            p2a = p1a
            p1a = pa
            let pb = (xb - a12 * p2b) - a11 * p1b
            p2b = p1b
            p1b = pb
            let va = (pa - a22 * v2a) - a21 * v1a
            let da = (va + v2a) - (v1a + v1a)
            v2a = v1a
            v1a = va
            let vb = (pb - a22 * v2b) - a21 * v1b
            let db = (vb + v2b) - (v1b + v1b)
            v2b = v1b
            v1b = vb
            let wa = (da - a32 * w2a) - a31 * w1a
            w2a = w1a
            w1a = wa
            let wb = (db - a32 * w2b) - a31 * w1b
            w2b = w1b
            w1b = wb
            let qa = wa * wa
            let qb = wb * wb
            eAa += qa
            eAb += qb
            let vva = va * va
            let vvb = vb * vb
            eCa += vva
            eCb += vvb
            fa = fa * af + qa
            fb = fb * af + qb
            sa = sa * aS + qa
            sb = sb * aS + qb
            ma = max(ma, vva)
            mb = max(mb, vvb)
            k += 1
        }
        cells[cell].energyA0 = eAa
        cells[cell].energyA1 = eAb
        cells[cell].energyC0 = eCa
        cells[cell].energyC1 = eCb
        cells[cell].fast0 = fa
        cells[cell].fast1 = fb
        cells[cell].slow0 = sa
        cells[cell].slow1 = sb
        cells[cell].peakSquared0 = ma
        cells[cell].peakSquared1 = mb
        cell += 1
    }
    state0 = WeightingState(p1: p1a, p2: p2a, v1: v1a, v2: v2a, w1: w1a, w2: w2a)
    state1 = WeightingState(p1: p1b, p2: p2b, v1: v1b, v2: v2b, w1: w1b, w2: w2b)
}
