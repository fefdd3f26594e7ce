/// A running cascade of biquads that filters a signal block by block, scipy `sosfilt` with `zi`.
///
/// Each section runs in direct form II transposed with `Double` state, exactly like scipy's kernel:
/// ```
/// y[n]  = b0·x[n] + z0
/// z0   ← b1·x[n] − a1·y[n] + z1
/// z1   ← b2·x[n] − a2·y[n]
/// ```
/// The state carries over between calls, so filtering a signal in blocks of any sizes gives output
/// bit-for-bit equal to filtering it whole: made for multi-gigabyte audio read in blocks.
///
/// `process` works in place and never allocates; `Float` samples are widened to `Double` for the
/// arithmetic and rounded back once per output sample. A value type: a copy carries its own state.
public struct SOSFilter: Sendable {
    /// The filter being run.
    public let sections: SecondOrderSections
    /// `b0, b1, b2, a1, a2` per section, contiguous, for the hot loop.
    private let coefficients: [Double]
    /// The filter state: scipy `zi` flattened row by row, 2 values per section.
    ///
    /// `[z0 of section 0, z1 of section 0, z0 of section 1, …]`. Zero for a fresh filter; after `process`,
    /// the state after the last sample.
    public private(set) var state: [Double]

    /// Creates a filter at rest (zero state, scipy's default `zi=None`).
    /// - Parameter sections: the filter to run.
    /// - Complexity: allocates the coefficient and state arrays (7 values per section) once.
    public init(_ sections: SecondOrderSections) {
        self.sections = sections
        var coefficients: [Double] = []
        coefficients.reserveCapacity(5 * sections.count)
        for s in sections.sections {
            coefficients.append(contentsOf: [s.b0, s.b1, s.b2, s.a1, s.a2])
        }
        self.coefficients = coefficients
        self.state = [Double](repeating: 0, count: 2 * sections.count)
    }

    /// Creates a filter with an explicit initial state (scipy `sosfilt(sos, x, zi=state)`).
    /// - Parameters:
    ///   - sections: the filter to run.
    ///   - state: scipy `zi` flattened row by row, 2 values per section.
    /// - Precondition: `state.count == 2 * sections.count`.
    public init(_ sections: SecondOrderSections, state: [Double]) {
        self.init(sections)
        setState(state)
    }

    /// Creates a filter in the steady state of a constant input `input`, so a signal starting at that
    /// level has no start-up transient (scipy `sosfilt(sos, x, zi=sosfilt_zi(sos) * x[0])`).
    /// - Parameters:
    ///   - sections: the filter to run.
    ///   - input: the constant input level the state corresponds to (signal units).
    /// - Throws: ``FilterError/steadyStateUndefined(section:)`` if a section has a pole at z = 1.
    public init(_ sections: SecondOrderSections, steadyStateFor input: Double) throws(FilterError) {
        self.init(sections)
        try reset(steadyStateFor: input)
    }

    /// Returns the filter to rest (zero state).
    ///
    /// Does not allocate.
    public mutating func reset() {
        for i in state.indices { state[i] = 0 }
    }

    /// Sets the state to the steady state for the constant input `input` (scipy `sosfilt_zi(sos) * input`).
    /// - Parameter input: the constant input level (signal units).
    /// - Throws: ``FilterError/steadyStateUndefined(section:)`` if a section has a pole at z = 1.
    /// - Complexity: O(sections); allocates one temporary array of 2 values per section.
    public mutating func reset(steadyStateFor input: Double) throws(FilterError) {
        let unitStep = try sections.steadyStateInitialConditions()
        for i in state.indices { state[i] = unitStep[i] * input }
    }

    /// Replaces the state (scipy `zi` flattened row by row).
    ///
    /// Does not allocate.
    /// - Precondition: `newState.count == 2 * sections.count`.
    public mutating func setState(_ newState: [Double]) {
        precondition(
            newState.count == state.count,
            "SOSFilter.setState: \(newState.count) values, expected \(state.count) (2 per section)")
        for i in state.indices { state[i] = newState[i] }
    }

    /// Filters `samples` in place and advances the state (the next call continues where this one ended).
    ///
    /// Runs the block through two sections at a time, the second one sample behind the first, so the two
    /// recursions overlap in the CPU instead of waiting on each other; every section still does exactly
    /// scipy's operations on exactly the same values, so the output is bit-for-bit the same as scipy's
    /// sample-by-sample order.
    /// - Parameter samples: the block; overwritten with the filter output.
    /// - Complexity: O(samples × sections); no allocation.
    public mutating func process(_ samples: inout MutableSpan<Double>) {
        let sampleCount = samples.count
        let sectionCount = sections.count
        let coefficients = self.coefficients
        let c = coefficients.span
        var z = state.mutableSpan
        var s = 0
        while s < sectionCount {
            var first = BiquadStage(c, section: s, z0: z[2 * s], z1: z[2 * s + 1])
            if s + 1 < sectionCount {
                var second = BiquadStage(c, section: s + 1, z0: z[2 * s + 2], z1: z[2 * s + 3])
                if sampleCount > 0 {
                    var pending = first.step(samples[0])
                    for i in 1..<sampleCount {
                        let next = first.step(samples[i])
                        samples[i - 1] = second.step(pending)
                        pending = next
                    }
                    samples[sampleCount - 1] = second.step(pending)
                }
                (z[2 * s + 2], z[2 * s + 3]) = (second.z0, second.z1)
            } else {
                for i in 0..<sampleCount { samples[i] = first.step(samples[i]) }
            }
            (z[2 * s], z[2 * s + 1]) = (first.z0, first.z1)
            s += 2
        }
    }

    /// Filters `samples` in place and advances the state.
    ///
    /// No allocation (unless the array's storage is shared and must be copied first, as for any in-place
    /// array mutation).
    /// - Parameter samples: the block; overwritten with the filter output.
    public mutating func process(_ samples: inout [Double]) {
        var span = samples.mutableSpan
        process(&span)
    }

    /// Filters `Float` samples in place with `Double` arithmetic and state, and advances the state.
    ///
    /// Each sample is widened to `Double`, runs through all sections, and is rounded to `Float` once, so
    /// the output equals `Float(y)` for the `Double` output `y` of the widened input.
    /// - Parameter samples: the block; overwritten with the filter output.
    /// - Complexity: O(samples × sections); no allocation.
    public mutating func process(_ samples: inout MutableSpan<Float>) {
        let sampleCount = samples.count
        let sectionCount = sections.count
        let coefficients = self.coefficients
        let c = coefficients.span
        var z = state.mutableSpan
        for i in 0..<sampleCount {
            var x = Double(samples[i])
            for s in 0..<sectionCount {
                let y = c[5 * s] * x + z[2 * s]
                z[2 * s] = c[5 * s + 1] * x - c[5 * s + 3] * y + z[2 * s + 1]
                z[2 * s + 1] = c[5 * s + 2] * x - c[5 * s + 4] * y
                x = y
            }
            samples[i] = Float(x)
        }
    }

    /// Filters `Float` samples in place with `Double` arithmetic and state, and advances the state.
    ///
    /// No allocation (unless the array's storage is shared and must be copied first).
    /// - Parameter samples: the block; overwritten with the filter output.
    public mutating func process(_ samples: inout [Float]) {
        var span = samples.mutableSpan
        process(&span)
    }
}

/// One section's coefficients and state, held in registers by the hot loops of ``SOSFilter``.
private struct BiquadStage {
    let b0: Double
    let b1: Double
    let b2: Double
    let a1: Double
    let a2: Double
    var z0: Double
    var z1: Double

    /// Loads section `s` from the packed coefficients `b0, b1, b2, a1, a2` (5 per section) with state `z0, z1`.
    @inline(__always)
    init(_ coefficients: Span<Double>, section s: Int, z0: Double, z1: Double) {
        b0 = coefficients[5 * s]
        b1 = coefficients[5 * s + 1]
        b2 = coefficients[5 * s + 2]
        a1 = coefficients[5 * s + 3]
        a2 = coefficients[5 * s + 4]
        self.z0 = z0
        self.z1 = z1
    }

    /// One step of direct form II transposed, in scipy's operation order.
    @inline(__always)
    mutating func step(_ x: Double) -> Double {
        let y = b0 * x + z0
        z0 = b1 * x - a1 * y + z1
        z1 = b2 * x - a2 * y
        return y
    }
}
