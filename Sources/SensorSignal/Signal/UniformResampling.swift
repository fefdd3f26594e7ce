/// Irregularly timestamped multi-channel samples (phone sensor logs) linearly interpolated onto a uniform grid,
/// split at gaps, with a report of every step taken.
///
/// The steps, each counted in ``report``:
/// 1. Count backward steps (`t[i] < t[i−1]` in input order); if any, stably sort the samples by time.
/// 2. Drop exact duplicate timestamps, keeping the first sample in input order.
/// 3. Estimate the nominal interval: the median `m` of the intervals, then the median of the intervals inside
///    `[m / outlierFactor, m × outlierFactor]` (robust to gaps, bursts and jitter; see ``ResamplingReport``).
/// 4. Mark a gap wherever `Δt > gapFactor × nominal` or `Δt > maximumInterval` (see ``ResamplingOptions``).
/// 5. On the grid `tₖ = t₀ + k / rate` (t₀ the earliest timestamp), linearly interpolate each run between gaps:
///    `y(t) = v[j] + (t − t[j]) / (t[j+1] − t[j]) · (v[j+1] − v[j])` for `t[j] ≤ t ≤ t[j+1]`.
///    Grid points in a gap, or before the first / after the last sample, get no value: nothing is extrapolated
///    and no gap is bridged. Each run becomes one ``UniformSegment``.
///
/// A grid point within 10⁻³ output periods of a run's end is snapped to it, so a uniformly sampled input
/// resampled at its own rate returns every sample even when its timestamps carry rounding error (Unix-epoch
/// seconds are only resolved to 2.4 × 10⁻⁷ s). Times are processed relative to t₀, so epoch timestamps lose
/// no further resolution.
///
/// `Sendable` value; safe to pass between tasks.
public struct UniformResampling: Sendable, Hashable {
    /// The output rate (Hz).
    public let rate: Double
    /// Time (s) of grid index 0: the earliest input timestamp.
    public let origin: Double
    /// The contiguous runs between gaps, in time order, including empty ones (no grid point inside).
    public let segments: [UniformSegment]
    /// What was found and done.
    public let report: ResamplingReport

    /// The most grid points per input sample: a grid denser than this says the rate or the timestamps are wrong.
    public static let gridPointsPerSample = 16
    /// The grid may always hold this many points (2²⁴), whatever the input count.
    public static let minimumGridLimit = 1 << 24

    /// Resamples irregular samples onto a uniform grid of `rate` Hz, splitting at gaps.
    ///
    /// Complexity: O(n) for time-ordered input (the interval median comes from a radix sort), O(n log n)
    /// otherwise (sorting the samples by time).
    /// Allocates the output arrays plus O(n) scratch (a permutation, the relative times and the intervals);
    /// channel data is not copied when the input is already ordered and duplicate-free.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times in seconds, any origin (e.g. Unix epoch or uptime), any order.
    ///   - channels: Value channels, each with exactly one value per timestamp (e.g. `[x, y, z]`). May be empty.
    ///   - rate: The output sampling rate in Hz (finite, > 0).
    ///   - options: Gap and rate-estimation rules.
    /// - Throws: ``ResamplingError/channelLengthMismatch(channel:count:timestampCount:)``,
    ///   ``ResamplingError/tooFewSamples(count:)`` (fewer than 2),
    ///   ``ResamplingError/nonFiniteTimestamp(index:count:)``, ``ResamplingError/invalidRate(hertz:)``,
    ///   ``ResamplingError/invalidOptions(reason:)``,
    ///   ``ResamplingError/tooFewDistinctTimestamps(distinct:inputCount:)``, or
    ///   ``ResamplingError/gridTooLarge(points:limit:)`` when the grid would hold more than
    ///   ``gridPointsPerSample`` points per input sample (at least ``minimumGridLimit``).
    public init(
        timestamps: [Double], channels: [[Double]], rate: Double, options: ResamplingOptions = ResamplingOptions()
    ) throws(ResamplingError) {
        let inputCount = timestamps.count
        for (number, channel) in channels.enumerated() where channel.count != inputCount {
            throw .channelLengthMismatch(channel: number, count: channel.count, timestampCount: inputCount)
        }
        guard inputCount >= 2 else { throw .tooFewSamples(count: inputCount) }
        if let bad = timestamps.firstIndex(where: { !$0.isFinite }) {
            throw .nonFiniteTimestamp(index: bad, count: timestamps.reduce(0) { $0 + ($1.isFinite ? 0 : 1) })
        }
        guard rate.isFinite && rate > 0 else { throw .invalidRate(hertz: rate) }
        try options.validate()

        // 1–2. Order and drop duplicate timestamps (shared with TimeSeriesHygiene).
        let timeline = SampleTimeline(
            timestamps: timestamps, channels: channels, rows: Array(0..<inputCount), exampleLimit: 0)
        let kept = timeline.kept
        guard kept.count >= 2 else { throw .tooFewDistinctTimestamps(distinct: kept.count, inputCount: inputCount) }

        var nonFiniteValues = 0
        for channel in channels {
            for index in kept where !channel[index].isFinite { nonFiniteValues += 1 }
        }

        // Times relative to the origin: exact for nearby doubles, so epoch timestamps lose nothing.
        let origin = timestamps[kept[0]]
        let relative = timeline.relativeTimes(timestamps)

        // 3. Nominal interval.
        let intervals = SampleTimeline.intervals(relative)
        let estimate = IntervalEstimate(intervals: intervals, outlierFactor: options.outlierFactor)

        // 4. Gaps.
        let gaps = timeline.gaps(
            intervals: intervals, timestamps: timestamps,
            relativeLimit: options.gapFactor.map { $0 * estimate.nominal } ?? .infinity,
            absoluteLimit: options.maximumInterval ?? .infinity)
        let runStarts = [0] + gaps.map(\.sampleIndex) + [kept.count]

        // 5. Interpolate each run on the shared grid.
        let tolerance = 1e-3  // in output periods
        // The grid's size first: its indices must be exact integers and it may not outgrow the input, or one
        // timestamp far from the rest (1e300 s, a corrupt clock) traps converting to Int or allocates without bound
        // (fuzz finding: FuzzCSV, FuzzRecorderLog). An upper bound: overlapping runs only shrink it.
        let gridLimit = max(Self.minimumGridLimit, Self.gridPointsPerSample * inputCount)
        var gridPoints = 0.0
        for run in 0..<(runStarts.count - 1) {
            let low = (relative[runStarts[run]] * rate - tolerance).rounded(.up)
            let high = (relative[runStarts[run + 1] - 1] * rate + tolerance).rounded(.down)
            guard abs(low) < 0x1p53, abs(high) < 0x1p53 else {
                throw .gridTooLarge(points: .infinity, limit: gridLimit)
            }
            gridPoints += max(0, high - low + 1)
        }
        guard gridPoints <= Double(gridLimit) else { throw .gridTooLarge(points: gridPoints, limit: gridLimit) }
        var segments: [UniformSegment] = []
        segments.reserveCapacity(runStarts.count - 1)
        var nextFreeGridIndex = Int.min
        for run in 0..<(runStarts.count - 1) {
            let first = runStarts[run]
            let last = runStarts[run + 1] - 1
            let lowestGrid = max((relative[first] * rate - tolerance).rounded(.up), Double(nextFreeGridIndex))
            let highestGrid = (relative[last] * rate + tolerance).rounded(.down)
            // Grid indices beyond ±2^52 (times of ±1e308 s) cannot be counted: refuse, never trap.
            guard abs(lowestGrid) <= 0x1p52, abs(highestGrid) <= 0x1p52 else {
                throw ResamplingError.invalidRate(hertz: rate)
            }
            let gridOffset = Int(lowestGrid)  // |lowestGrid| ≤ 2^52: checked above
            let count = max(0, Int(highestGrid) - gridOffset + 1)
            if count > 0 { nextFreeGridIndex = gridOffset + count }

            var values = channels.map { _ in [Double](repeating: 0, count: count) }
            var j = first  // interval [j, j+1] being interpolated
            for i in 0..<count {
                let time = min(max(Double(gridOffset + i) / rate, relative[first]), relative[last])
                while j + 1 < last && relative[j + 1] < time { j += 1 }
                if first == last {
                    for c in channels.indices { values[c][i] = channels[c][kept[first]] }
                    continue
                }
                let fraction = (time - relative[j]) / (relative[j + 1] - relative[j])
                let lower = kept[j]
                let upper = kept[j + 1]
                for c in channels.indices {
                    let a = channels[c][lower]
                    let b = channels[c][upper]
                    values[c][i] = fraction == 0 ? a : fraction == 1 ? b : a + fraction * (b - a)
                }
            }
            segments.append(
                UniformSegment(
                    origin: origin, rate: rate, gridOffset: gridOffset, channels: values, count: count,
                    firstInputTime: timestamps[kept[first]], lastInputTime: timestamps[kept[last]],
                    inputRange: first..<(last + 1)))
        }

        self.rate = rate
        self.origin = origin
        self.segments = segments
        self.report = ResamplingReport(
            inputCount: inputCount, backwardSteps: timeline.backwardSteps,
            duplicatesDropped: timeline.duplicatesDropped, conflictingDuplicates: timeline.conflictingDuplicates,
            nonFiniteValues: nonFiniteValues,
            nominalInterval: estimate.nominal, medianRate: 1 / estimate.nominal, meanRate: estimate.meanRate,
            intervalOutliers: estimate.outliers, gaps: gaps, outputRate: rate,
            outputCount: segments.reduce(0) { $0 + $1.count }, segmentCount: segments.count,
            emptySegments: segments.reduce(0) { $0 + ($1.count == 0 ? 1 : 0) })
    }

    /// All output on one contiguous grid from the first to the last output sample, with every grid point that
    /// falls in a gap set to `fill` (NaN by default), so gaps stay visible.
    ///
    /// Grid point `i` lies at `origin + (firstGridIndex + i) / rate` seconds, where `firstGridIndex` is the
    /// first non-empty segment's ``UniformSegment/gridOffset``. Allocates one array per channel.
    ///
    /// - Parameter fill: The value for grid points inside gaps.
    /// - Returns: One array per channel (empty arrays if there is no output).
    public func contiguousChannels(fillingGapsWith fill: Double = .nan) -> [[Double]] {
        let filled = segments.filter { $0.count > 0 }
        let channelCount = segments.first?.channels.count ?? 0
        guard let head = filled.first, let tail = filled.last else {
            return [[Double]](repeating: [], count: channelCount)
        }
        let total = tail.gridOffset + tail.count - head.gridOffset
        var result = [[Double]](repeating: [Double](repeating: fill, count: total), count: channelCount)
        for segment in filled {
            let start = segment.gridOffset - head.gridOffset
            for c in 0..<channelCount {
                result[c].replaceSubrange(start..<(start + segment.count), with: segment.channels[c])
            }
        }
        return result
    }
}
