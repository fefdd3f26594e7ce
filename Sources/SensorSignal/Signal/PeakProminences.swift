/// The prominence of each peak and the bases it is measured from (scipy's `peak_prominences` result).
///
/// All arrays are parallel to the peak indices they were computed for.
public struct PeakProminences: Sendable, Hashable {
    /// Prominence of each peak, in signal units: `x[peak] − max(x[leftBase], x[rightBase])`.
    public let prominences: [Double]
    /// Index (samples) of the lowest point between the peak and the nearest higher sample (or window edge) on the left.
    public let leftBases: [Int]
    /// Index (samples) of the lowest point between the peak and the nearest higher sample (or window edge) on the right.
    public let rightBases: [Int]

    /// Creates a prominence table from parallel arrays.
    ///
    /// - Parameters:
    ///   - prominences: Prominence per peak (signal units).
    ///   - leftBases: Left base index per peak (samples).
    ///   - rightBases: Right base index per peak (samples).
    public init(prominences: [Double], leftBases: [Int], rightBases: [Int]) {
        precondition(
            prominences.count == leftBases.count && leftBases.count == rightBases.count,
            "PeakProminences: array lengths differ (\(prominences.count), \(leftBases.count), \(rightBases.count))")
        self.prominences = prominences
        self.leftBases = leftBases
        self.rightBases = rightBases
    }

    /// The number of peaks described.
    public var count: Int { prominences.count }
}

/// Computes how much each peak stands out from the surrounding baseline (`scipy.signal.peak_prominences`).
///
/// For each peak `p`, walks left while `x[i] ≤ x[p]` (stopping at the signal or window edge) and records the
/// minimum `x[leftBase]`; likewise to the right. Then `prominence = x[p] − max(x[leftBase], x[rightBase])`.
/// Ties keep the base closest to the peak, as scipy does. With `windowLength = w`, the search is limited to
/// `[p − w/2, p + w/2]` (integer division), which speeds up long signals and makes prominence local.
///
/// Complexity: O(n) per peak in the worst case, O(w) with a window. Allocates once per call: the three result arrays.
///
/// - Parameters:
///   - signal: The signal, in any unit.
///   - peaks: Indices (samples) of the peaks, each in `0..<signal.count`; usually from `findPeaks(in:…)`.
///   - windowLength: scipy's `wlen`, in samples; must be at least 2. `nil` searches the whole signal.
/// - Returns: Prominences and bases parallel to `peaks`.
/// - Precondition: Every peak index is inside the signal; `windowLength ≥ 2` when given.
public func peakProminences(in signal: Span<Double>, peaks: [Int], windowLength: Int? = nil) -> PeakProminences {
    if let windowLength {
        precondition(windowLength > 1, "peakProminences: windowLength must be larger than 1, was \(windowLength)")
    }
    let n = signal.count
    var prominences = [Double](repeating: 0, count: peaks.count)
    var leftBases = [Int](repeating: 0, count: peaks.count)
    var rightBases = [Int](repeating: 0, count: peaks.count)
    for (number, peak) in peaks.enumerated() {
        precondition(peak >= 0 && peak < n, "peakProminences: peak index \(peak) is outside 0..<\(n)")
        var lowest = 0
        var highest = n - 1
        if let windowLength {
            lowest = max(peak - windowLength / 2, lowest)
            highest = min(peak + windowLength / 2, highest)
        }
        let top = signal[peak]

        var leftBase = peak
        var leftMinimum = top
        var i = peak
        while i >= lowest && signal[i] <= top {
            if signal[i] < leftMinimum {
                leftMinimum = signal[i]
                leftBase = i
            }
            i -= 1
        }

        var rightBase = peak
        var rightMinimum = top
        i = peak
        while i <= highest && signal[i] <= top {
            if signal[i] < rightMinimum {
                rightMinimum = signal[i]
                rightBase = i
            }
            i += 1
        }

        prominences[number] = top - max(leftMinimum, rightMinimum)
        leftBases[number] = leftBase
        rightBases[number] = rightBase
    }
    return PeakProminences(prominences: prominences, leftBases: leftBases, rightBases: rightBases)
}

/// Computes peak prominences of an array (`scipy.signal.peak_prominences`); see the `Span` overload.
///
/// - Parameters:
///   - signal: The signal, in any unit.
///   - peaks: Indices (samples) of the peaks.
///   - windowLength: scipy's `wlen`, in samples (≥ 2), or `nil`.
/// - Returns: Prominences and bases parallel to `peaks`. Allocates only the result arrays.
public func peakProminences(in signal: [Double], peaks: [Int], windowLength: Int? = nil) -> PeakProminences {
    peakProminences(in: signal.span, peaks: peaks, windowLength: windowLength)
}
