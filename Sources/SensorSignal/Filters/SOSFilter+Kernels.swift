// The hot loops of `SOSFilter`: each second-order section in direct form II transposed with its state
// update rearranged so that the output is not part of the recursion (`BiquadSection`), and a wavefront
// schedule that runs up to four sections on consecutive samples at once (`runSectionGroup`).
//
// Everything here is internal; `SOSFilter` is the API. The loops take `UnsafeMutablePointer`s: measured
// on the 4-section loop (2^20 samples, release build), indexing a `MutableSpan` inside it instead made it
// 40 % slower, so the bounds are established once by the caller (`0..<count` of the buffer it was
// handed) and the loops index `0..<count` only.

/// A sample type `SOSFilter` runs on: widened to `Double` on load, rounded once on store.
protocol SOSSample {
    /// The sample as a `Double` (exact for `Float` and `Double`).
    var widened: Double { get }
    /// `value` rounded to the sample type.
    init(rounding value: Double)
}

extension Double: SOSSample {
    @inline(__always) var widened: Double { self }
    @inline(__always) init(rounding value: Double) { self = value }
}

extension Float: SOSSample {
    @inline(__always) var widened: Double { Double(self) }
    @inline(__always) init(rounding value: Double) { self.init(value) }
}

/// One second-order section with its state: the unit every schedule in this file is built from.
///
/// Direct form II transposed (scipy's) computes, per sample,
/// ```
/// y   = b0·x + z0
/// z0' = b1·x − a1·y + z1
/// z1' = b2·x − a2·y
/// ```
/// so the recursion runs through `y`: `z0 → y → a1·y → z0'`, two multiply-add steps per sample.
/// Substituting `y` gives the same state update without it, with `c1 = b1 − a1·b0`, `c2 = b2 − a2·b0`:
/// ```
/// y   = b0·x + z0
/// z0' = (c1·x + z1) − a1·z0
/// z1' = c2·x − a2·z0
/// ```
/// Now only `a1·z0` and one subtraction lie on the `z0 → z0'` recursion (`c1·x + z1` is ready before
/// `z0` is), and `y` is off it. The states `z0`, `z1` are exactly scipy's `zi` (the same quantities, not
/// a rescaled set), so no conversion is needed at the API. The rounding differs from scipy's, so outputs
/// agree with scipy to rounding, not bit for bit: against an extended-precision computation the error is
/// the size of scipy's own (0.01 to 1.3 times it in `FiltersTests`).
///
/// **Determinism.** Every schedule in this file applies exactly `step(_:)` — these operations in this
/// order, with `Double` intermediates, each rounded as written (Swift never fuses `a * b + c`) — to each
/// (section, sample) pair, in sample order per section. The lane-wise `SIMD2` arithmetic of
/// ``BiquadPair`` is the same IEEE operation per lane, and where a kernel skips the multiplication by
/// `b0` it only does so when `b0 == 1` (multiplying by 1 is exact). So the output does not depend on
/// block sizes or on which kernel ran.
struct BiquadSection {
    let b0: Double
    let c1: Double
    let c2: Double
    let a1: Double
    let a2: Double
    var z0: Double
    var z1: Double

    /// The coefficients `b0, c1, c2, a1, a2` of one section, in the order ``SOSFilter`` stores them.
    ///
    /// `c1 = b1 − a1·b0` and `c2 = b2 − a2·b0` are formed with one rounding each (fused multiply-add), so
    /// they are the `Double`s nearest the exact values; they can be much smaller than `b1`, `b2` (for
    /// `b0 == 1`, `c2 = 1 − a2` with `a2` close to 1), and an extra rounding would perturb them relatively
    /// more than any coefficient of scipy's form.
    static func coefficients(of section: SecondOrderSections.Section) -> [Double] {
        [
            section.b0, section.b1.addingProduct(-section.a1, section.b0),
            section.b2.addingProduct(-section.a2, section.b0), section.a1, section.a2,
        ]
    }

    /// Section `s` of packed coefficients (5 per section) and packed state (2 per section).
    @inline(__always)
    init(_ coefficients: UnsafeBufferPointer<Double>, _ state: UnsafeMutableBufferPointer<Double>, section s: Int) {
        b0 = coefficients[5 * s]
        c1 = coefficients[5 * s + 1]
        c2 = coefficients[5 * s + 2]
        a1 = coefficients[5 * s + 3]
        a2 = coefficients[5 * s + 4]
        z0 = state[2 * s]
        z1 = state[2 * s + 1]
    }

    /// Writes the state back as section `s` of the packed state.
    @inline(__always)
    func store(into state: UnsafeMutableBufferPointer<Double>, section s: Int) {
        state[2 * s] = z0
        state[2 * s + 1] = z1
    }

    /// One sample through the section: returns `y = b0·x + z0` and advances `z0, z1`.
    @inline(__always)
    mutating func step(_ x: Double) -> Double {
        let y = b0 * x + z0
        let next = (c1 * x + z1) - a1 * z0
        z1 = c2 * x - a2 * z0
        z0 = next
        return y
    }
}

/// Two sections in the two lanes of `SIMD2<Double>`, updated together by ``step(input:scaledInput:)``.
struct BiquadPair {
    let b0: SIMD2<Double>
    let c1: SIMD2<Double>
    let c2: SIMD2<Double>
    let a1: SIMD2<Double>
    let a2: SIMD2<Double>
    var z0: SIMD2<Double>
    var z1: SIMD2<Double>

    @inline(__always)
    init(_ first: BiquadSection, _ second: BiquadSection) {
        b0 = SIMD2(first.b0, second.b0)
        c1 = SIMD2(first.c1, second.c1)
        c2 = SIMD2(first.c2, second.c2)
        a1 = SIMD2(first.a1, second.a1)
        a2 = SIMD2(first.a2, second.a2)
        z0 = SIMD2(first.z0, second.z0)
        z1 = SIMD2(first.z1, second.z1)
    }

    /// Copies the lanes' states back into the two sections.
    @inline(__always)
    func split(into first: inout BiquadSection, _ second: inout BiquadSection) {
        (first.z0, first.z1) = (z0[0], z1[0])
        (second.z0, second.z1) = (z0[1], z1[1])
    }

    /// ``BiquadSection/step(_:)`` in both lanes, with `b0·x` supplied by the caller as `scaledInput`
    /// (the kernels either multiply, or pass `x` itself when `b0 == 1`).
    @inline(__always)
    mutating func step(input x: SIMD2<Double>, scaledInput bx: SIMD2<Double>) -> SIMD2<Double> {
        let y = bx + z0
        let next = (c1 * x + z1) - a1 * z0
        z1 = c2 * x - a2 * z0
        z0 = next
        return y
    }
}

// MARK: - Schedules
//
// A group of S ≤ 4 sections runs as a wavefront: at step t, section s works on sample t − s, so the S
// updates of one step are independent and overlap in the CPU. The steady-state loops keep every section
// in a lane of a `BiquadPair` (sections 0 and 2 in one pair, 1 and 3 in the other, so the second pair
// takes the first pair's output as its input without a shuffle; a lone section fills both lanes of its
// pair with itself). Written as plain scalar code instead, LLVM's SLP vectorizer packs each section's
// (z0, z1) into one vector and puts two shuffles on the recursion (measured: 1 and 2 sections about
// 1.7 × slower). The fill before the loop and the drain after it run the same steps with
// `BiquadSection`.
//
// `unitTail` says that every section of the group after the first has `b0 == 1`, as every section but
// the first of a `zpk2sos`/``Butterworth`` design does. The loops then pass a section's input itself
// as `b0·x` (exactly equal), so a sample crosses from one section to the next with one addition
// instead of a multiplication and an addition. The first section's `b0·x` is formed from the input
// sample, off the recursion, either way.

/// Runs `sectionCount` (1…4) consecutive sections, starting at section `first`, over `p[0..<n]` in place
/// (`n ≥ 1`), reading their coefficients and state from the packed arrays and writing the state back.
@inline(__always)
func runSectionGroup<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int, coefficients: UnsafeBufferPointer<Double>,
    state: UnsafeMutableBufferPointer<Double>, first: Int, sectionCount: Int
) {
    var s0 = BiquadSection(coefficients, state, section: first)
    switch sectionCount {
    case 1:
        runOneSection(p, count: n, &s0)
    case 2:
        var s1 = BiquadSection(coefficients, state, section: first + 1)
        runTwoSections(p, count: n, &s0, &s1)
        s1.store(into: state, section: first + 1)
    case 3:
        var s1 = BiquadSection(coefficients, state, section: first + 1)
        var s2 = BiquadSection(coefficients, state, section: first + 2)
        if n >= 2 {
            runThreeSections(p, count: n, &s0, &s1, &s2)
        } else {
            p[0] = Sample(rounding: s2.step(s1.step(s0.step(p[0].widened))))
        }
        s1.store(into: state, section: first + 1)
        s2.store(into: state, section: first + 2)
    default:
        var s1 = BiquadSection(coefficients, state, section: first + 1)
        var s2 = BiquadSection(coefficients, state, section: first + 2)
        var s3 = BiquadSection(coefficients, state, section: first + 3)
        if n >= 3 {
            runFourSections(p, count: n, &s0, &s1, &s2, &s3)
        } else {
            for t in 0..<n { p[t] = Sample(rounding: s3.step(s2.step(s1.step(s0.step(p[t].widened))))) }
        }
        s1.store(into: state, section: first + 1)
        s2.store(into: state, section: first + 2)
        s3.store(into: state, section: first + 3)
    }
    s0.store(into: state, section: first)
}

/// One section over `p[0..<n]`, in both lanes of a pair (the second lane is a copy, discarded).
@inline(never)
func runOneSection<Sample: SOSSample>(_ p: UnsafeMutablePointer<Sample>, count n: Int, _ s0: inout BiquadSection) {
    var pair = BiquadPair(s0, s0)
    for t in 0..<n {
        let x = SIMD2(repeating: p[t].widened)
        p[t] = Sample(rounding: pair.step(input: x, scaledInput: pair.b0 * x)[0])
    }
    var copy = s0
    pair.split(into: &s0, &copy)
}

/// Two sections (`n ≥ 1`): section 0 on sample t in both lanes of one pair, section 1 on sample t − 1 in
/// both lanes of another, so section 1 takes section 0's output vector as it is.
@inline(__always)
func runTwoSections<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int, _ s0: inout BiquadSection, _ s1: inout BiquadSection
) {
    var x1 = s0.step(p[0].widened)  // fill: section 1's input for sample 0
    if n > 1 {
        var first = BiquadPair(s0, s0)
        var second = BiquadPair(s1, s1)
        twoSectionLoop(p, count: n, &first, &second, &x1, unitTail: s1.b0 == 1)
        var copy = s0
        first.split(into: &s0, &copy)
        second.split(into: &s1, &copy)
    }
    p[n - 1] = Sample(rounding: s1.step(x1))  // drain
}

@inline(never)
func twoSectionLoop<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int, _ first: inout BiquadPair, _ second: inout BiquadPair,
    _ x1: inout Double, unitTail: Bool
) {
    @inline(__always)
    func loop(unitTail: Bool) {
        var (a, b, input1) = (first, second, SIMD2(repeating: x1))
        for t in 1..<n {
            let input0 = SIMD2(repeating: p[t].widened)
            let y0 = a.step(input: input0, scaledInput: a.b0 * input0)
            let y1 = b.step(input: input1, scaledInput: unitTail ? input1 : b.b0 * input1)
            p[t - 1] = Sample(rounding: y1[0])
            input1 = y0
        }
        (first, second, x1) = (a, b, input1[0])
    }
    if unitTail { loop(unitTail: true) } else { loop(unitTail: false) }
}

/// Three sections (`n ≥ 2`): lanes (section 0 on sample t, section 2 on t − 2) and (section 1 on t − 1,
/// its copy).
@inline(__always)
func runThreeSections<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int,
    _ s0: inout BiquadSection, _ s1: inout BiquadSection, _ s2: inout BiquadSection
) {
    // Fill: section 0 runs ahead on samples 0 and 1, section 1 on sample 0.
    var x2 = s1.step(s0.step(p[0].widened))
    var x1 = s0.step(p[1].widened)
    if n > 2 {
        var even = BiquadPair(s0, s2)
        var odd = BiquadPair(s1, s1)
        threeSectionLoop(p, count: n, &even, &odd, &x1, &x2, unitTail: s1.b0 == 1 && s2.b0 == 1)
        even.split(into: &s0, &s2)
        var copy = s1
        odd.split(into: &s1, &copy)
    }
    // Drain: the last two samples through the sections they have not been through yet.
    p[n - 2] = Sample(rounding: s2.step(x2))
    p[n - 1] = Sample(rounding: s2.step(s1.step(x1)))
}

@inline(never)
func threeSectionLoop<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int, _ even: inout BiquadPair, _ odd: inout BiquadPair,
    _ x1: inout Double, _ x2: inout Double, unitTail: Bool
) {
    @inline(__always)
    func loop(unitTail: Bool) {
        var (e, o, pending1, pending2) = (even, odd, x1, x2)
        for t in 2..<n {
            let x = p[t].widened
            let inputEven = SIMD2(x, pending2)
            let inputOdd = SIMD2(repeating: pending1)
            let ye = e.step(
                input: inputEven, scaledInput: unitTail ? SIMD2(e.b0[0] * x, pending2) : e.b0 * inputEven)
            let yo = o.step(input: inputOdd, scaledInput: unitTail ? inputOdd : o.b0 * inputOdd)
            p[t - 2] = Sample(rounding: ye[1])
            pending1 = ye[0]
            pending2 = yo[0]
        }
        (even, odd, x1, x2) = (e, o, pending1, pending2)
    }
    if unitTail { loop(unitTail: true) } else { loop(unitTail: false) }
}

/// Four sections (`n ≥ 3`): lanes (section 0 on sample t, section 2 on t − 2) and (section 1 on t − 1,
/// section 3 on t − 3).
@inline(__always)
func runFourSections<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int,
    _ s0: inout BiquadSection, _ s1: inout BiquadSection, _ s2: inout BiquadSection, _ s3: inout BiquadSection
) {
    // Fill: section 0 runs ahead on samples 0…2, section 1 on 0…1, section 2 on 0.
    var x3 = s2.step(s1.step(s0.step(p[0].widened)))
    var x2 = s1.step(s0.step(p[1].widened))
    var x1 = s0.step(p[2].widened)
    if n > 3 {
        var even = BiquadPair(s0, s2)
        var odd = BiquadPair(s1, s3)
        var oddInput = SIMD2(x1, x3)
        fourSectionLoop(
            p, count: n, &even, &odd, &oddInput, &x2, unitTail: s1.b0 == 1 && s2.b0 == 1 && s3.b0 == 1)
        even.split(into: &s0, &s2)
        odd.split(into: &s1, &s3)
        (x1, x3) = (oddInput[0], oddInput[1])
    }
    // Drain: the last three samples through the sections they have not been through yet.
    p[n - 3] = Sample(rounding: s3.step(x3))
    p[n - 2] = Sample(rounding: s3.step(s2.step(x2)))
    p[n - 1] = Sample(rounding: s3.step(s2.step(s1.step(x1))))
}

/// The steady state of the four-section wavefront: at step `t`, lanes (section 0, section 2) take
/// (`p[t]`, section 1's previous output) and lanes (section 1, section 3) take (section 0's, section
/// 2's) previous outputs; section 3's output is sample `t − 3`.
@inline(never)
func fourSectionLoop<Sample: SOSSample>(
    _ p: UnsafeMutablePointer<Sample>, count n: Int, _ even: inout BiquadPair, _ odd: inout BiquadPair,
    _ oddInput: inout SIMD2<Double>, _ x2: inout Double, unitTail: Bool
) {
    @inline(__always)
    func loop(unitTail: Bool) {
        var (e, o, inputOdd, pending2) = (even, odd, oddInput, x2)
        for t in 3..<n {
            let x = p[t].widened
            let inputEven = SIMD2(x, pending2)
            let ye = e.step(
                input: inputEven, scaledInput: unitTail ? SIMD2(e.b0[0] * x, pending2) : e.b0 * inputEven)
            let yo = o.step(input: inputOdd, scaledInput: unitTail ? inputOdd : o.b0 * inputOdd)
            p[t - 3] = Sample(rounding: yo[1])
            inputOdd = ye
            pending2 = yo[0]
        }
        (even, odd, oddInput, x2) = (e, o, inputOdd, pending2)
    }
    if unitTail { loop(unitTail: true) } else { loop(unitTail: false) }
}
