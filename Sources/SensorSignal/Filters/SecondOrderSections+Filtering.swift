extension SecondOrderSections {
    /// Filters a whole signal from rest, scipy `sosfilt(sos, x)`.
    ///
    /// Direct form II transposed with `Double` state (see ``SOSFilter``); for a signal too large to hold,
    /// run an ``SOSFilter`` over its blocks instead, which gives the same output.
    /// - Parameter signal: the input samples.
    /// - Returns: the output, as many samples as the input. Allocates once: the result.
    /// - Complexity: O(samples × sections).
    public func filter(_ signal: [Double]) -> [Double] {
        var output = signal
        var filter = SOSFilter(self)
        filter.process(&output)
        return output
    }

    /// Filters a whole `Float` signal from rest with `Double` arithmetic and state, scipy
    /// `sosfilt(sos, x)` rounded to `Float`.
    /// - Parameter signal: the input samples.
    /// - Returns: the output, as many samples as the input. Allocates once: the result.
    /// - Complexity: O(samples × sections).
    public func filter(_ signal: [Float]) -> [Float] {
        var output = signal
        var filter = SOSFilter(self)
        filter.process(&output)
        return output
    }

    /// The filter state in steady state for a unit step input, scipy `sosfilt_zi(sos)` flattened row by row.
    ///
    /// Multiply by a level `x₀` to start a filter as if the input had been `x₀` forever (no start-up
    /// transient). Per section, with `a0 = 1`, the state of a section whose input is the constant `u` is
    /// `z0 = u·((b1 − a1·b0) + (b2 − a2·b0)) / (1 + a1 + a2)` and `z1 = (1 + a1)·z0 − u·(b1 − a1·b0)`,
    /// and `u` is the DC gain `Σb/Σa` of the sections before it (1 for section 0), as in scipy
    /// `lfilter_zi`.
    /// - Returns: 2 values per section. Allocates the result.
    /// - Throws: ``FilterError/steadyStateUndefined(section:)`` if a section has `1 + a1 + a2 == 0`
    ///   (a pole at z = 1, where scipy's linear solve fails).
    public func steadyStateInitialConditions() throws(FilterError) -> [Double] {
        var state: [Double] = []
        state.reserveCapacity(2 * count)
        var level = 1.0
        for (index, s) in sections.enumerated() {
            let denominatorSum = 1 + s.a1 + s.a2
            guard denominatorSum != 0 else { throw .steadyStateUndefined(section: index) }
            let c1 = s.b1 - s.a1 * s.b0
            let c2 = s.b2 - s.a2 * s.b0
            let z0 = (c1 + c2) / denominatorSum
            let z1 = (1 + s.a1) * z0 - c1
            state.append(level * z0)
            state.append(level * z1)
            level *= (s.b0 + s.b1 + s.b2) / (s.a0 + s.a1 + s.a2)
        }
        return state
    }

    /// The number of samples `sosfiltfilt` pads at each end by default, scipy's
    /// `3·(2·len(sos) + 1 − min(#{b2 == 0}, #{a2 == 0}))`.
    public var zeroPhasePadLength: Int {
        let zeroB2 = sections.count(where: { $0.b2 == 0 })
        let zeroA2 = sections.count(where: { $0.a2 == 0 })
        return 3 * (2 * count + 1 - min(zeroB2, zeroA2))
    }

    /// Zero-phase forward-backward filtering, scipy `sosfiltfilt(sos, x)` with its defaults
    /// (`padtype='odd'`, padlen = ``zeroPhasePadLength``).
    ///
    /// The signal is extended at both ends by `padlen` samples of odd reflection about its end points
    /// (`2·x[0] − x[padlen…1]` before, `2·x[n−1] − x[n−2…n−1−padlen]` after), filtered forward from the
    /// steady state `zi·ext[0]`, reversed and filtered again from `zi·y[last]`, reversed back, and the
    /// padding is cut off. The result has no phase shift and the squared magnitude response `|H|²`
    /// (twice the attenuation in dB of a single pass).
    /// - Parameter signal: the input samples; more than `padlen` of them.
    /// - Returns: the output, as many samples as the input. Allocates once: the padded work buffer,
    ///   which becomes the result.
    /// - Throws: ``FilterError/signalTooShort(length:minimumLength:)`` when `signal.count ≤ padlen` (scipy
    ///   raises `ValueError` there too); ``FilterError/steadyStateUndefined(section:)`` for a pole at z = 1.
    /// - Complexity: O((samples + 2·padlen) × sections).
    public func filterZeroPhase(_ signal: [Double]) throws(FilterError) -> [Double] {
        try zeroPhase(signal.span)
    }

    /// Zero-phase forward-backward filtering of a `Float` signal with `Double` arithmetic, scipy
    /// `sosfiltfilt(sos, x)` rounded to `Float` (see `filterZeroPhase(_:)`).
    /// - Parameter signal: the input samples; more than `padlen` of them.
    /// - Returns: the output, as many samples as the input. Allocates twice: the `Double` work buffer
    ///   and the result.
    /// - Throws: ``FilterError/signalTooShort(length:minimumLength:)`` when `signal.count ≤ padlen`;
    ///   ``FilterError/steadyStateUndefined(section:)`` for a pole at z = 1.
    public func filterZeroPhase(_ signal: [Float]) throws(FilterError) -> [Float] {
        try zeroPhase(signal.span).map { Float($0) }
    }

    /// The `sosfiltfilt` pipeline on a `Double` work buffer; returns it trimmed to the signal's length.
    private func zeroPhase<Sample: BinaryFloatingPoint>(_ signal: Span<Sample>) throws(FilterError) -> [Double] {
        let length = signal.count
        let edge = zeroPhasePadLength
        guard length > edge else { throw .signalTooShort(length: length, minimumLength: edge + 1) }
        let unitStep = try steadyStateInitialConditions()

        let first = Double(signal[0])
        let last = Double(signal[length - 1])
        var work = [Double](repeating: 0, count: length + 2 * edge)
        for i in 0..<edge { work[i] = 2 * first - Double(signal[edge - i]) }
        for i in 0..<length { work[edge + i] = Double(signal[i]) }
        for j in 0..<edge { work[edge + length + j] = 2 * last - Double(signal[length - 2 - j]) }

        var filter = SOSFilter(self)
        filter.setState(unitStep.map { $0 * work[0] })
        filter.process(&work)
        let turnaround = work[work.count - 1]
        work.reverse()
        filter.setState(unitStep.map { $0 * turnaround })
        filter.process(&work)
        work.reverse()
        work.removeLast(edge)
        work.removeFirst(edge)
        return work
    }
}
