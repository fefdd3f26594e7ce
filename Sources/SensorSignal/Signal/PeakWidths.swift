/// The width of each peak at a height relative to its prominence (scipy's `peak_widths` result).
///
/// All arrays are parallel to the peak indices they were computed for. Positions are fractional sample indices.
public struct PeakWidths: Sendable, Hashable {
    /// Width of each peak, in samples: `rightIntersections − leftIntersections`.
    public let widths: [Double]
    /// The height the width is measured at, in signal units: `x[peak] − prominence × relativeHeight`.
    public let widthHeights: [Double]
    /// Interpolated position (fractional samples) where the left flank crosses the width height (scipy `left_ips`).
    public let leftIntersections: [Double]
    /// Interpolated position (fractional samples) where the right flank crosses the width height (scipy `right_ips`).
    public let rightIntersections: [Double]

    /// Creates a width table from parallel arrays.
    ///
    /// - Parameters:
    ///   - widths: Width per peak (samples).
    ///   - widthHeights: Evaluation height per peak (signal units).
    ///   - leftIntersections: Left crossing per peak (fractional samples).
    ///   - rightIntersections: Right crossing per peak (fractional samples).
    public init(widths: [Double], widthHeights: [Double], leftIntersections: [Double], rightIntersections: [Double]) {
        precondition(
            widths.count == widthHeights.count && widths.count == leftIntersections.count
                && widths.count == rightIntersections.count,
            "PeakWidths: array lengths differ (\(widths.count), \(widthHeights.count), \(leftIntersections.count), "
                + "\(rightIntersections.count))")
        self.widths = widths
        self.widthHeights = widthHeights
        self.leftIntersections = leftIntersections
        self.rightIntersections = rightIntersections
    }

    /// The number of peaks described.
    public var count: Int { widths.count }
}

/// Measures the width of each peak at a fraction of its prominence (`scipy.signal.peak_widths`).
///
/// The evaluation height is `h = x[p] − prominence × relativeHeight`. From the peak, the search walks outwards
/// while `h < x[i]`, never past the peak's bases; where the crossing falls between samples the position is
/// linearly interpolated: `left = i + (h − x[i]) / (x[i+1] − x[i])`, `right = i − (h − x[i]) / (x[i−1] − x[i])`.
/// `relativeHeight = 0.5` is the full width at half prominence; `1` is the width at the lower base.
///
/// Complexity: O(base span) per peak. Allocates the four result arrays (plus the prominences when not supplied).
///
/// - Parameters:
///   - signal: The signal, in any unit.
///   - peaks: Indices (samples) of the peaks, each in `0..<signal.count`.
///   - relativeHeight: scipy's `rel_height`, a fraction of the prominence, must be ≥ 0.
///   - prominences: scipy's `prominence_data`, parallel to `peaks`; computed with `windowLength` when `nil`.
///   - windowLength: scipy's `wlen` (samples, ≥ 2) used only when `prominences` is `nil`.
/// - Returns: Widths, evaluation heights and crossing positions parallel to `peaks`.
/// - Precondition: `relativeHeight ≥ 0`; bases satisfy `0 ≤ leftBase ≤ peak ≤ rightBase < signal.count`.
public func peakWidths(
    in signal: Span<Double>, peaks: [Int], relativeHeight: Double = 0.5, prominences: PeakProminences? = nil,
    windowLength: Int? = nil
) -> PeakWidths {
    precondition(relativeHeight >= 0, "peakWidths: relativeHeight must be greater or equal to 0, was \(relativeHeight)")
    let data = prominences ?? peakProminences(in: signal, peaks: peaks, windowLength: windowLength)
    precondition(
        data.count == peaks.count, "peakWidths: \(data.count) prominences for \(peaks.count) peaks")
    let n = signal.count
    var widths = [Double](repeating: 0, count: peaks.count)
    var widthHeights = [Double](repeating: 0, count: peaks.count)
    var lefts = [Double](repeating: 0, count: peaks.count)
    var rights = [Double](repeating: 0, count: peaks.count)
    for (number, peak) in peaks.enumerated() {
        let lowest = data.leftBases[number]
        let highest = data.rightBases[number]
        precondition(
            0 <= lowest && lowest <= peak && peak <= highest && highest < n,
            "peakWidths: invalid bases \(lowest)...\(highest) for peak \(peak) in a signal of \(n) samples")
        let height = signal[peak] - data.prominences[number] * relativeHeight
        widthHeights[number] = height

        var i = peak
        while lowest < i && height < signal[i] { i -= 1 }
        var left = Double(i)
        if signal[i] < height {
            left += (height - signal[i]) / (signal[i + 1] - signal[i])
        }

        i = peak
        while i < highest && height < signal[i] { i += 1 }
        var right = Double(i)
        if signal[i] < height {
            right -= (height - signal[i]) / (signal[i - 1] - signal[i])
        }

        widths[number] = right - left
        lefts[number] = left
        rights[number] = right
    }
    return PeakWidths(widths: widths, widthHeights: widthHeights, leftIntersections: lefts, rightIntersections: rights)
}

/// Measures peak widths in an array (`scipy.signal.peak_widths`); see the `Span` overload.
///
/// - Parameters:
///   - signal: The signal, in any unit.
///   - peaks: Indices (samples) of the peaks.
///   - relativeHeight: Fraction of the prominence (≥ 0) at which to measure.
///   - prominences: Precomputed prominences, or `nil` to compute them.
///   - windowLength: `wlen` (samples) for computing prominences, or `nil`.
/// - Returns: Widths parallel to `peaks`. Allocates only the result arrays.
public func peakWidths(
    in signal: [Double], peaks: [Int], relativeHeight: Double = 0.5, prominences: PeakProminences? = nil,
    windowLength: Int? = nil
) -> PeakWidths {
    peakWidths(
        in: signal.span, peaks: peaks, relativeHeight: relativeHeight, prominences: prominences,
        windowLength: windowLength)
}
