/// Trend removal applied to each analysis segment before windowing (scipy `detrend=`).
///
/// - ``none``: `y[n] = x[n]` (scipy `detrend=False`).
/// - ``constant``: `y[n] = x[n] − x̄` (scipy `detrend='constant'`, the `welch` default).
/// - ``linear``: `y[n] = x[n] − (a + b·n)` with the least-squares line `a + b·n`
///   (scipy `detrend='linear'`, i.e. `scipy.signal.detrend(x, type='linear')` without breakpoints).
///
/// The mean and the slope are accumulated in `Double` for `Float` input. A segment of one sample
/// detrends to 0 under both `constant` and `linear`, as in scipy.
public enum Detrend: String, Sendable, Hashable, CaseIterable {
    /// Leave the data unchanged.
    case none
    /// Subtract the mean.
    case constant
    /// Subtract the least-squares straight line.
    case linear

    /// Removes the trend from `data` in place.
    ///
    /// Linear fit, with c = (N − 1)/2: `b = Σ(n − c)·x[n] / Σ(n − c)²`, `y[n] = x[n] − x̄ − b·(n − c)`
    /// (the same residual as scipy's `lstsq` fit). Units are unchanged.
    /// - Parameter data: the samples; modified in place. Allocation-free.
    /// - Complexity: O(N).
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func apply<Scalar: BinaryFloatingPoint>(to data: inout [Scalar]) {
        data.withUnsafeMutableBufferPointer { apply(to: $0) }
    }

    /// Removes the trend from `data` in place (allocation-free; see the public `apply(to:)`).
    func apply<Scalar: BinaryFloatingPoint>(to data: UnsafeMutableBufferPointer<Scalar>) {
        let n = data.count
        if self == .none || n == 0 { return }
        var sum = 0.0
        for i in 0..<n { sum += Double(data[i]) }
        let mean = sum / Double(n)
        switch self {
        case .none:
            return
        case .constant:
            for i in 0..<n { data[i] = Scalar(Double(data[i]) - mean) }
        case .linear:
            let centre = Double(n - 1) / 2
            var sxy = 0.0
            for i in 0..<n { sxy += (Double(i) - centre) * Double(data[i]) }
            let nd = Double(n)
            let sxx = nd * (nd * nd - 1) / 12  // Σ (i − c)²
            let slope = sxx > 0 ? sxy / sxx : 0
            for i in 0..<n { data[i] = Scalar(Double(data[i]) - mean - slope * (Double(i) - centre)) }
        }
    }
}
