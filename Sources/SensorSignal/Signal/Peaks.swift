/// Local maxima of a signal that passed the requested conditions, with their properties (scipy's `find_peaks` result).
///
/// Every array is parallel to ``indices``. Heights, plateau edges and thresholds are always filled in because
/// they cost nothing extra; ``prominence`` is filled in when a `prominence` or `width` condition was given
/// (use ``PeakBounds/unbounded`` to request it without excluding peaks), and ``width`` when a `width`
/// condition was given, as in scipy.
public struct Peaks: Sendable, Hashable {
    /// Indices (samples) of the peaks, ascending; for a flat peak, its middle sample rounded down.
    public let indices: [Int]
    /// Height of each peak, `x[index]`, in signal units (scipy `peak_heights`).
    public let heights: [Double]
    /// Number of samples in each peak's flat top, `rightEdges − leftEdges + 1` (scipy `plateau_sizes`).
    public let plateauSizes: [Int]
    /// First sample (index) of each peak's flat top (scipy `left_edges`).
    public let leftEdges: [Int]
    /// Last sample (index) of each peak's flat top (scipy `right_edges`).
    public let rightEdges: [Int]
    /// Vertical distance to the left neighbour, `x[index] − x[index − 1]`, in signal units (scipy `left_thresholds`).
    public let leftThresholds: [Double]
    /// Vertical distance to the right neighbour, `x[index] − x[index + 1]`, in signal units (scipy `right_thresholds`).
    public let rightThresholds: [Double]
    /// Prominences and bases (scipy `prominences`, `left_bases`, `right_bases`), or `nil` if not requested.
    public let prominence: PeakProminences?
    /// Widths (scipy `widths`, `width_heights`, `left_ips`, `right_ips`), or `nil` if not requested.
    public let width: PeakWidths?

    /// The number of peaks.
    public var count: Int { indices.count }

    /// Whether no peak was found.
    public var isEmpty: Bool { indices.isEmpty }
}

/// Finds local maxima and selects them by height, threshold, distance, prominence and width
/// (`scipy.signal.find_peaks`, scipy 1.17).
///
/// A peak is a sample whose nearest unequal neighbours on both sides are strictly lower; for a flat top of
/// samples `l...r` the index reported is `(l + r) / 2` (rounded down). The first and last samples are never peaks,
/// nor is a plateau touching either end. Conditions are applied in scipy's order: `plateauSize`, `height`,
/// `threshold`, `distance`, `prominence`, `width`, each on the peaks that survived the previous ones:
/// - `height`: `x[p]` in the interval.
/// - `threshold`: `min(x[p] − x[p−1], x[p] − x[p+1]) ≥ minimum` and `max(…) ≤ maximum`.
/// - `distance` (samples, ≥ 1): peaks are visited from highest to lowest; each surviving peak removes every
///   other peak closer than `distance`. Equal heights are broken as a stable sort would: the later peak
///   is visited first. (scipy uses numpy's default, unstable, `argsort` here, whose tie order can vary with
///   the CPU's SIMD sort for many equal heights; for unique heights the results are identical.)
/// - `prominence`: see `peakProminences(in:peaks:windowLength:)`; `windowLength` is scipy's `wlen`.
/// - `width` (samples): see `peakWidths(in:peaks:relativeHeight:prominences:windowLength:)`,
///   measured at `relativeHeight` (scipy `rel_height`) of the prominence.
///
/// NaN samples compare false, exactly as in scipy's C loop, so no peak is adjacent to a NaN.
///
/// Complexity: O(n) to find maxima, O(k log k) for `distance`, up to O(n·k) for prominences without a window
/// (k peaks). Allocates O(k) arrays for the result and scratch; the signal is never copied.
///
/// - Parameters:
///   - signal: The signal, in any unit; read only.
///   - height: Required peak height interval (signal units), or `nil`.
///   - threshold: Required vertical distance to both neighbours (signal units), or `nil`.
///   - distance: Minimal horizontal distance between peaks, in samples (≥ 1), or `nil`.
///   - prominence: Required prominence interval (signal units), or `nil`.
///   - width: Required width interval, in samples, or `nil`.
///   - windowLength: scipy's `wlen` in samples (≥ 2) for prominences, or `nil` for the whole signal.
///   - relativeHeight: scipy's `rel_height` (≥ 0) for widths.
///   - plateauSize: Required flat-top size interval, in samples, or `nil`.
/// - Returns: The selected peaks, ascending, and their properties.
/// - Precondition: `distance ≥ 1`, `windowLength ≥ 2`, `relativeHeight ≥ 0` when given.
public func findPeaks(
    in signal: Span<Double>,
    height: PeakBounds? = nil,
    threshold: PeakBounds? = nil,
    distance: Int? = nil,
    prominence: PeakBounds? = nil,
    width: PeakBounds? = nil,
    windowLength: Int? = nil,
    relativeHeight: Double = 0.5,
    plateauSize: PeakBounds? = nil
) -> Peaks {
    if let distance { precondition(distance >= 1, "findPeaks: distance must be at least 1, was \(distance)") }
    if let windowLength {
        precondition(windowLength > 1, "findPeaks: windowLength must be larger than 1, was \(windowLength)")
    }
    precondition(relativeHeight >= 0, "findPeaks: relativeHeight must be greater or equal to 0, was \(relativeHeight)")

    var table = PeakTable(localMaximaOf: signal)

    if let plateauSize {
        let sizes = zip(table.leftEdges, table.rightEdges).map { Double($1 - $0 + 1) }
        table.retain(mask: sizes.map { plateauSize.contains($0) })
    }
    if let height {
        table.retain(mask: table.heights.map { height.contains($0) })
    }
    if let threshold {
        let keep = zip(table.leftThresholds, table.rightThresholds).map { left, right in
            if let minimum = threshold.minimum, !(minimum <= min(left, right)) { return false }
            if let maximum = threshold.maximum, !(max(left, right) <= maximum) { return false }
            return true
        }
        table.retain(mask: keep)
    }
    if let distance {
        table.retain(mask: distanceMask(peaks: table.indices, heights: table.heights, distance: distance))
    }

    var prominences: PeakProminences?
    if prominence != nil || width != nil {
        var data = peakProminences(in: signal, peaks: table.indices, windowLength: windowLength)
        if let prominence {
            let keep = data.prominences.map { prominence.contains($0) }
            table.retain(mask: keep)
            data = data.retaining(keep)
        }
        prominences = data
    }

    var widths: PeakWidths?
    if let width, let data = prominences {
        var measured = peakWidths(
            in: signal, peaks: table.indices, relativeHeight: relativeHeight, prominences: data)
        let keep = measured.widths.map { width.contains($0) }
        table.retain(mask: keep)
        prominences = data.retaining(keep)
        measured = measured.retaining(keep)
        widths = measured
    }

    let plateauSizes = zip(table.leftEdges, table.rightEdges).map { $1 - $0 + 1 }
    return Peaks(
        indices: table.indices, heights: table.heights, plateauSizes: plateauSizes, leftEdges: table.leftEdges,
        rightEdges: table.rightEdges, leftThresholds: table.leftThresholds, rightThresholds: table.rightThresholds,
        prominence: prominences, width: widths)
}

/// Finds peaks in an array (`scipy.signal.find_peaks`); see the `Span` overload for the full description.
///
/// - Parameters:
///   - signal: The signal, in any unit.
///   - height: Required height interval (signal units), or `nil`.
///   - threshold: Required neighbour distance interval (signal units), or `nil`.
///   - distance: Minimal peak spacing in samples (≥ 1), or `nil`.
///   - prominence: Required prominence interval (signal units), or `nil`.
///   - width: Required width interval (samples), or `nil`.
///   - windowLength: scipy's `wlen` (samples, ≥ 2), or `nil`.
///   - relativeHeight: scipy's `rel_height` (≥ 0).
///   - plateauSize: Required flat-top size interval (samples), or `nil`.
/// - Returns: The selected peaks and their properties. Allocates O(peaks); the signal is not copied.
public func findPeaks(
    in signal: [Double],
    height: PeakBounds? = nil,
    threshold: PeakBounds? = nil,
    distance: Int? = nil,
    prominence: PeakBounds? = nil,
    width: PeakBounds? = nil,
    windowLength: Int? = nil,
    relativeHeight: Double = 0.5,
    plateauSize: PeakBounds? = nil
) -> Peaks {
    findPeaks(
        in: signal.span, height: height, threshold: threshold, distance: distance, prominence: prominence,
        width: width, windowLength: windowLength, relativeHeight: relativeHeight, plateauSize: plateauSize)
}

/// Parallel arrays describing candidate peaks while conditions are applied.
private struct PeakTable {
    var indices: [Int] = []
    var leftEdges: [Int] = []
    var rightEdges: [Int] = []
    var heights: [Double] = []
    var leftThresholds: [Double] = []
    var rightThresholds: [Double] = []

    /// scipy's `_local_maxima_1d`: every sample (or flat run) whose nearest unequal neighbours are both lower.
    init(localMaximaOf x: Span<Double>) {
        let last = x.count - 1
        var i = 1
        while i < last {
            if x[i - 1] < x[i] {
                var ahead = i + 1
                while ahead < last && x[ahead] == x[i] { ahead += 1 }
                if x[ahead] < x[i] {
                    let right = ahead - 1
                    let middle = (i + right) / 2
                    indices.append(middle)
                    leftEdges.append(i)
                    rightEdges.append(right)
                    heights.append(x[middle])
                    leftThresholds.append(x[middle] - x[middle - 1])
                    rightThresholds.append(x[middle] - x[middle + 1])
                    i = ahead
                }
            }
            i += 1
        }
    }

    /// Keeps the peaks whose entry in `keep` is true, preserving order.
    mutating func retain(mask keep: [Bool]) {
        indices = indices.retaining(keep)
        leftEdges = leftEdges.retaining(keep)
        rightEdges = rightEdges.retaining(keep)
        heights = heights.retaining(keep)
        leftThresholds = leftThresholds.retaining(keep)
        rightThresholds = rightThresholds.retaining(keep)
    }
}

/// scipy's `_select_by_peak_distance`, with a stable priority order.
private func distanceMask(peaks: [Int], heights: [Double], distance: Int) -> [Bool] {
    let count = peaks.count
    var keep = [Bool](repeating: true, count: count)
    // Ascending by height, ties by position: visiting from the back gives highest (then latest) first.
    let order = (0..<count).sorted { a, b in
        heights[a] < heights[b] || (heights[a] == heights[b] && a < b)
    }
    for j in order.reversed() where keep[j] {
        var k = j - 1
        while k >= 0 && peaks[j] - peaks[k] < distance {
            keep[k] = false
            k -= 1
        }
        k = j + 1
        while k < count && peaks[k] - peaks[j] < distance {
            keep[k] = false
            k += 1
        }
    }
    return keep
}

extension PeakProminences {
    fileprivate func retaining(_ keep: [Bool]) -> PeakProminences {
        PeakProminences(
            prominences: prominences.retaining(keep), leftBases: leftBases.retaining(keep),
            rightBases: rightBases.retaining(keep))
    }
}

extension PeakWidths {
    fileprivate func retaining(_ keep: [Bool]) -> PeakWidths {
        PeakWidths(
            widths: widths.retaining(keep), widthHeights: widthHeights.retaining(keep),
            leftIntersections: leftIntersections.retaining(keep), rightIntersections: rightIntersections.retaining(keep)
        )
    }
}

extension Array {
    /// The elements whose entry in `keep` is true, in order.
    fileprivate func retaining(_ keep: [Bool]) -> [Element] {
        precondition(keep.count == count, "retaining: mask has \(keep.count) entries for \(count) elements")
        var result: [Element] = []
        result.reserveCapacity(count)
        for (element, kept) in zip(self, keep) where kept {
            result.append(element)
        }
        return result
    }
}
