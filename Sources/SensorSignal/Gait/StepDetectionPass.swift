/// A run of steps no further apart than the chain limit, from one segment (internal to ``StepDetector``).
struct StepChain {
    /// Step times, s, ascending.
    var times: [Double]
    /// Median interval between its steps, s.
    var period: Double
    /// Index of the resampled segment it came from.
    var segment: Int
    /// Times of that segment's first and last grid samples, s: no bout reaches outside them.
    var bounds: ClosedRange<Double>
    /// Normalised autocorrelation of the band-passed magnitude over the chain at two step periods; nil when the
    /// chain is shorter than two strides plus one step.
    var strideRegularity: Double?
    /// Which pass found it.
    var detection: WalkingBout.Detection
    /// Share of the centred magnitude's energy over the chain inside the analysis band, 0…1 (1 until measured).
    var bandFraction = 1.0
}

/// The state of one ``StepDetector/detect(timestamps:magnitude:samplingRate:)`` call: segments are fed in
/// time order, then ``finish()`` joins the chains into bouts and computes the features.
///
/// Per-window values live in arrays allocated once per segment; the window analyzer, the FFT cache and the
/// spectrum accumulator are shared by all segments.
struct StepDetectionPass {
    let configuration: StepDetector.Configuration
    /// Grid rate, Hz.
    let rate: Double
    let sections: SecondOrderSections
    /// Decimation factor for the window analysis and its rate, Hz.
    let decimation: Int
    let analysisRate: Double
    /// Window length and hop, decimated samples.
    let windowLength: Int
    let windowHop: Int

    private var analyzer: GaitWindowAnalyzer
    private let fftCache = FFTCache<Double>()
    var chains: [StepChain] = []
    /// Set by the detector when every segment is shorter than a walking run: the recording is analysed as one
    /// short walk (``detectShortWalk(signal:centred:segment:index:)``) instead of by the step-sequence pass.
    var isShortRecording = false
    /// What the short-walk analysis concluded, for the warnings.
    var shortRecordingNote: String?
    var stepRegularities: [Double] = []
    private var strideRegularities: [Double] = []
    private var windowCount = 0
    private var walkingWindowCount = 0
    /// Walking windows recognised as a device swinging once per stride, and the steps counted in their runs.
    private var armSwingWindowCount = 0
    private var armSwingStepCount = 0
    /// Windows loud enough to be walking, and the best stride regularity among them (for the no-walking warning).
    private var movingWindowCount = 0
    private var bestStrideRegularity: Double?
    private var analysedDuration = 0.0
    /// The longest segment analysed, s: shorter than ``StepDetector/Configuration/shortRecordingDuration``, no rhythm
    /// run (and so no step) can be found in it.
    private var longestSegmentDuration = 0.0
    private var skippedSegments = 0
    private var spectrumSum: [Double] = []
    private var spectrumFrequencies: [Double] = []
    private var spectrumBinWidth = 0.0
    private var spectrumWeight = 0.0

    init(configuration: StepDetector.Configuration, rate: Double, sections: SecondOrderSections) {
        self.configuration = configuration
        self.rate = rate
        self.sections = sections
        decimation = max(1, Int((rate / configuration.analysisRate).rounded(.down)))
        analysisRate = rate / Double(decimation)
        windowLength = max(4, Int((configuration.windowDuration * analysisRate).rounded()))
        windowHop = max(1, Int((configuration.windowHop * analysisRate).rounded()))
        analyzer = GaitWindowAnalyzer(rate: analysisRate, windowLength: windowLength, configuration: configuration)
    }

    /// Analyses one contiguous segment of the uniform grid.
    mutating func process(_ segment: UniformSegment, index: Int) {
        let n = segment.count
        guard n >= 2 else {
            skippedSegments += 1
            return
        }
        let duration = Double(n) / rate
        guard duration >= configuration.minimumSegmentDuration, n > sections.zeroPhasePadLength else {
            skippedSegments += 1
            return
        }
        var centred = segment.channels[0]
        let mean = Reductions.mean(centred)
        for i in 0..<n { centred[i] -= mean }
        guard let y = try? sections.filterZeroPhase(centred) else {
            skippedSegments += 1
            return
        }
        analysedDuration += duration
        longestSegmentDuration = Swift.max(longestSegmentDuration, duration)

        // Decimate for the window analysis (y is band-limited far below the analysis Nyquist frequency).
        let d = decimation
        let decimatedCount = (n + d - 1) / d
        let decimated = [Double](unsafeUninitializedCapacity: decimatedCount) { out, initialized in
            for i in 0..<decimatedCount { out[i] = y[i * d] }
            initialized = decimatedCount
        }

        // The axes, for recognising a device that swings once per stride: band-passed and decimated like |a| on
        // first use (only a window whose period could be a stride needs them).
        axesSegment = (index, n)
        segmentAxes = nil

        let windows = analyseWindows(decimated)
        let firstChain = chains.count
        // A short recording is read as one short walk only (below), never also by the rhythm pass.
        if !windows.isEmpty, !isShortRecording {
            // Sustained runs of a device swinging once per stride are read as arm swings; everything else from |a|
            // alone, exactly as without the axes.
            var swingLabels = windows
            for j in windows.indices where windows[j].swingEstimate != nil {
                swingLabels[j].isWalking = windows[j].isSwingWalking
                swingLabels[j].estimate = windows[j].swingEstimate
                swingLabels[j].isArmSwing = true
            }
            let swingRuns = walkingRuns(swingLabels, sampleCount: n).filter { run in
                var walking = 0
                var swinging = 0
                for j in run.windows where swingLabels[j].isWalking {
                    walking += 1
                    if swingLabels[j].isArmSwing { swinging += 1 }
                }
                return 2 * swinging > walking
                    && Double(run.samples.count) >= configuration.minimumArmSwingDuration * rate
            }
            var plainLabels = windows
            for run in swingRuns {
                for j in run.windows { plainLabels[j].isWalking = false }
            }
            let runs = (swingRuns.map { ($0, true) } + walkingRuns(plainLabels, sampleCount: n).map { ($0, false) })
                .sorted { $0.0.samples.lowerBound < $1.0.samples.lowerBound }
            for (run, isArmSwing) in runs {
                if isArmSwing {
                    for j in run.windows where swingLabels[j].isWalking {
                        armSwingWindowCount += 1
                        if !windows[j].isWalking { walkingWindowCount += 1 }
                    }
                }
                detectSteps(
                    in: run, windows: isArmSwing ? swingLabels : plainLabels, isArmSwing: isArmSwing, signal: y,
                    decimated: decimated, segment: segment, index: index)
            }
        }
        if isShortRecording, configuration.countsShortRecordings {
            detectShortWalk(signal: y, centred: centred, segment: segment, index: index)
        } else if configuration.detectsStepSequences {
            detectStepSequences(signal: y, segment: segment, index: index, rhythmChains: firstChain..<chains.count)
        }
        for c in firstChain..<chains.count where chains[c].detection != .shortRecording {
            let range = Self.samples(
                around: chains[c].times, period: chains[c].period, segment: segment, count: n, rate: rate)
            guard !range.isEmpty else { continue }
            chains[c].bandFraction = GaitBandShare.of(
                centred, banded: y, range: range.lowerBound...(range.upperBound - 1))
        }
    }

    /// The step-sequence pass over one segment: prominent peaks outside the rhythm pass's chains, linked into
    /// sequences whose every interval is an accepted step period within ``StepDetector/Configuration/stepIntervalTolerance``
    /// of the sequence's median interval so far (see ``StepDetector``).
    private mutating func detectStepSequences(
        signal y: [Double], segment: UniformSegment, index: Int, rhythmChains: Range<Int>
    ) {
        let n = y.count
        let shortest = 1 / configuration.maximumStepFrequency
        let longest = configuration.maximumSequenceInterval
        let spacing = max(1, Int((0.75 * shortest * rate).rounded(.down)))
        let prominenceWindow = max(3, Int((2 * longest * rate).rounded()) | 1)
        // Candidate peaks (spaced as scipy does, before any prominence test): not near the segment's edges, where a
        // peak has no measurable base on one side, and not in the time the rhythm pass took (its chains plus half a
        // period and 0.2 s on each side). Prominences are measured only for these.
        let spaced = findPeaks(in: y.span, distance: spacing).indices
        var taken: [ClosedRange<Double>] = []
        for c in rhythmChains {
            let chain = chains[c]
            let margin = chain.period / 2 + 0.2
            taken.append((chain.times[0] - margin)...(chain.times[chain.times.count - 1] + margin))
        }
        var nextTaken = 0
        let edge = Int((0.5 * longest * rate).rounded(.up))
        var candidates: [Int] = []
        var candidateTimes: [Double] = []
        for g in spaced where g >= edge && g < n - edge && g > 0 && g < n - 1 {
            let time = segment.time(at: g) + Self.vertexOffset(y[g - 1], y[g], y[g + 1]) / rate
            // Peaks come in time order and the rhythm chains do too: one cursor walks both.
            while nextTaken < taken.count, taken[nextTaken].upperBound < time { nextTaken += 1 }
            if nextTaken < taken.count, taken[nextTaken].contains(time) { continue }
            candidates.append(g)
            candidateTimes.append(time)
        }
        guard candidates.count >= configuration.minimumStepsPerBout else { return }
        let prominences = peakProminences(in: y.span, peaks: candidates, windowLength: prominenceWindow).prominences

        // Local RMS over a centred window, from prefix sums of y².
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + y[i] * y[i] }
        let half = max(1, Int((configuration.localAmplitudeHalfWindow * rate).rounded()))

        var times: [Double] = []
        var strengths: [Double] = []
        times.reserveCapacity(candidates.count)
        strengths.reserveCapacity(candidates.count)
        for (k, g) in candidates.enumerated() {
            let lo = max(0, g - half)
            let hi = min(n, g + half + 1)
            let localRMS = ((prefix[hi] - prefix[lo]) / Double(hi - lo)).squareRoot()
            guard prominences[k] >= max(configuration.minimumProminence, configuration.relativeProminence * localRMS)
            else { continue }
            times.append(candidateTimes[k])
            strengths.append(prominences[k])
        }

        // Greedy sequences: from each unused peak, the next step is the peak in the accepted interval range that is
        // most prominent, discounted by its distance from the expected interval.
        var sequence: [Int] = []
        var intervals: [Double] = []
        var scratch: [Double] = []  // the median's working copy, reused
        var start = 0
        var free = 0  // the first peak not used by an earlier sequence
        while start < times.count {
            sequence.removeAll(keepingCapacity: true)
            intervals.removeAll(keepingCapacity: true)
            sequence.append(start)
            while true {
                let last = times[sequence[sequence.count - 1]]
                var expected: Double?
                var lower = shortest
                var upper = longest
                if !intervals.isEmpty {
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: intervals)
                    let t = Self.median(&scratch)
                    expected = t
                    lower = max(lower, (1 - configuration.stepIntervalTolerance) * t)
                    upper = min(upper, (1 + configuration.stepIntervalTolerance) * t)
                }
                guard lower <= upper else { break }
                let best = Self.bestStep(
                    after: sequence[sequence.count - 1], direction: 1, bound: times.count, times: times,
                    strengths: strengths, interval: lower...upper, expected: expected)
                guard best >= 0 else { break }
                intervals.append(times[best] - last)
                sequence.append(best)
            }
            if sequence.count >= configuration.minimumStepsPerBout {
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: intervals)
                let period = Self.median(&scratch)
                let forwardSteps = sequence.count
                // The first interval alone set the first expectation, so a sequence can start a few steps late:
                // extend it backwards at its own median interval, over peaks no earlier sequence used.
                let lower = Swift.max(shortest, (1 - configuration.stepIntervalTolerance) * period)
                let upper = Swift.min(longest, (1 + configuration.stepIntervalTolerance) * period)
                while lower <= upper, sequence.count < 2 * forwardSteps {
                    let best = Self.bestStep(
                        after: sequence[0], direction: -1, bound: free - 1, times: times, strengths: strengths,
                        interval: lower...upper, expected: period)
                    guard best >= 0 else { break }
                    sequence.insert(best, at: 0)
                }
                let inserted = sequence.count - forwardSteps
                let stepTimes = sequence.map { times[$0] }
                // Consecutive steps look alike: the band-passed magnitude over the sequence correlates with itself
                // one step period later.
                let regularity = Self.autocorrelation(
                    y, range: Self.samples(around: stepTimes, period: period, segment: segment, count: n, rate: rate),
                    lag: period * rate, minimumExtra: 1)
                if let regularity, regularity >= configuration.minimumSequenceStepRegularity {
                    chains.append(
                        Self.chain(
                            stepTimes, period: period, detection: .stepSequence, signal: y,
                            segment: segment, index: index, rate: rate))
                    start = sequence[sequence.count - 1] + 1
                    free = start
                } else {
                    // A greedy chain through an irregular stretch runs on into the clean walking after it: its
                    // peaks stay free, and the search starts again a quarter of the way along. A retry links at
                    // most twice its forward steps and moves on by a quarter of them, so the retries link at most
                    // eight steps per peak.
                    start = Swift.max(start + 1, sequence[inserted + forwardSteps / 4])
                }
            } else {
                start += 1
            }
        }
    }

    /// A chain with its segment bounds and stride regularity.
    static func chain(
        _ times: [Double], period: Double, detection: WalkingBout.Detection, signal y: [Double],
        segment: UniformSegment, index: Int, rate: Double
    ) -> StepChain {
        let n = y.count
        let range = samples(around: times, period: period, segment: segment, count: n, rate: rate)
        return StepChain(
            times: times, period: period, segment: index, bounds: segment.time(at: 0)...segment.time(at: n - 1),
            strideRegularity: autocorrelation(y, range: range, lag: 2 * period * rate, minimumExtra: period * rate),
            detection: detection)
    }

    /// The segment's samples from half a period before the first step to half a period after the last, clipped to
    /// the segment's `count` samples.
    static func samples(
        around times: [Double], period: Double, segment: UniformSegment, count n: Int, rate: Double
    ) -> Range<Int> {
        let origin = segment.time(at: 0)
        let from = clampedIndex(((times[0] - period / 2 - origin) * rate).rounded(.down), limit: n, fallback: 0)
        let to = clampedIndex(
            ((times[times.count - 1] + period / 2 - origin) * rate).rounded(.up), limit: n, fallback: n)
        return from..<max(from, to)
    }

    /// The step-sequence pass's choice of the next step from the peak at `anchor`, walking `direction` (+1 later,
    /// −1 earlier) up to but excluding `bound`: among the peaks whose distance from the anchor lies in `interval`,
    /// the most prominent, discounted by `1 + 4·|Δt − T|/T` when an expected interval T is known; −1 if none.
    static func bestStep(
        after anchor: Int, direction: Int, bound: Int, times: [Double], strengths: [Double],
        interval: ClosedRange<Double>, expected: Double?
    ) -> Int {
        var best = -1
        var bestScore = -Double.infinity
        var j = anchor + direction
        while j != bound, abs(times[j] - times[anchor]) <= interval.upperBound {
            let distance = abs(times[j] - times[anchor])
            if distance >= interval.lowerBound {
                let score = expected.map { strengths[j] / (1 + 4 * abs(distance - $0) / $0) } ?? strengths[j]
                if score > bestScore {
                    bestScore = score
                    best = j
                }
            }
            j += direction
        }
        return best
    }

    /// `Int(value)` clamped to `0…limit` (value rounded already); `fallback` when it is not finite.
    private static func clampedIndex(_ value: Double, limit: Int, fallback: Int) -> Int {
        guard value.isFinite else { return fallback }
        return value <= 0 ? 0 : value >= Double(limit) ? limit : Int(value)
    }

    /// The normalised autocorrelation of `y[range]` at `lag` samples (rounded), or nil when the range is not longer
    /// than the lag plus `minimumExtra` samples.
    static func autocorrelation(_ y: [Double], range: Range<Int>, lag: Double, minimumExtra: Double) -> Double? {
        guard lag.isFinite, lag >= 1, Double(range.count) >= lag + minimumExtra, lag < Double(range.count) else {
            return nil
        }
        return normalizedProduct([y], range: range, lag: Int(lag.rounded()))
    }

    /// `Σ_series Σ_i v[i]·v[i+k] / √(Σ head² · Σ tail²)` over `range` at the integer lag `k` (0 ≤ k < range.count):
    /// the normalised autocorrelation of one series or of a vector series (its axes); nil when either part has no
    /// energy.
    static func normalizedProduct(_ series: [[Double]], range: Range<Int>, lag k: Int) -> Double? {
        var sum = 0.0
        var head = 0.0
        var tail = 0.0
        for values in series {
            for i in range.lowerBound..<(range.upperBound - k) {
                sum += values[i] * values[i + k]
                head += values[i] * values[i]
                tail += values[i + k] * values[i + k]
            }
        }
        let norm = (head * tail).squareRoot()
        return norm > 0 ? sum / norm : nil
    }

    /// One analysis window: its centre on the full-rate grid and what the analyzer found.
    struct Window {
        var centre: Double
        var isWalking: Bool
        var estimate: GaitWindowEstimate?
        /// The estimate reads the period of |a| as a stride (the axes swing once per period; its step period is half
        /// of it).
        var isArmSwing = false
        /// The window's estimate with the period read as a stride, when the axes show a device swinging once per
        /// period of |a|; and whether the window is walking so read.
        var swingEstimate: GaitWindowEstimate? = nil
        var isSwingWalking = false
    }

    /// A run of walking on the full-rate grid: samples `samples`, windows `windows` (some of which may be
    /// non-walking after merging).
    struct Run {
        var samples: Range<Int>
        var windows: ClosedRange<Int>
    }

    /// The three axes of a detection, to resample when a window first needs them (see ``axes()``).
    struct AxesInput {
        /// Time-ordered or not, finite: the same timestamps the magnitude was resampled from, s.
        var timestamps: [Double]
        /// x, y, z, g, one value per timestamp.
        var axes: [[Double]]
        /// Grid rate, Hz, and the magnitude's resampling options: the same grid and segments.
        var rate: Double
        var options: ResamplingOptions
    }

    /// The axes given to the detection, if arm swings are recognised; resampled on first use.
    var axesInput: AxesInput?
    private var axesSegments: [UniformSegment]?
    /// The index of the segment being analysed, and its axes band-passed and decimated like |a| once ``axes()``
    /// has been called for it.
    private var axesSegment = (index: -1, count: 0)
    private var segmentAxes: [[Double]]?

    /// The current segment's x, y and z, band-passed and decimated like |a| (computed once per segment, the
    /// resampling once per detection); empty when there are no axes or arm swings are not recognised.
    private mutating func axes() -> [[Double]] {
        if let segmentAxes { return segmentAxes }
        if axesSegments == nil, let input = axesInput {
            axesSegments =
                (try? UniformResampling(
                    timestamps: input.timestamps, channels: input.axes, rate: input.rate, options: input.options))?
                .segments ?? []
        }
        var result: [[Double]] = []
        if let segments = axesSegments, segments.indices.contains(axesSegment.index),
            case let segment = segments[axesSegment.index], segment.channels.count == 3,
            segment.count == axesSegment.count
        {
            let n = segment.count
            let d = decimation
            let decimatedCount = (n + d - 1) / d
            for axis in 0..<3 {
                var channel = segment.channels[axis]
                let axisMean = Reductions.mean(channel)
                for i in 0..<n { channel[i] -= axisMean }
                guard let filtered = try? sections.filterZeroPhase(channel) else {
                    result = []
                    break
                }
                result.append(
                    [Double](unsafeUninitializedCapacity: decimatedCount) { out, initialized in
                        for i in 0..<decimatedCount { out[i] = filtered[i * d] }
                        initialized = decimatedCount
                    })
            }
        }
        segmentAxes = result
        return result
    }

    private mutating func analyseWindows(_ decimated: [Double]) -> [Window] {
        let count = decimated.count
        let length = min(windowLength, count)
        var starts: [Int] = Array(stride(from: 0, through: count - length, by: windowHop))
        if let last = starts.last, last + length < count { starts.append(count - length) }
        var windows: [Window] = []
        windows.reserveCapacity(starts.count)
        let span = decimated.span
        for start in starts {
            let window = span.extracting(start..<(start + length))
            let rms = (Reductions.sumOfSquares(window) / Double(length)).squareRoot()
            var estimate: GaitWindowEstimate?
            var walking = false
            var swingEstimate: GaitWindowEstimate?
            var swingWalking = false
            if rms >= configuration.minimumAmplitude {
                movingWindowCount += 1
                if let found = analyzer.analyze(window) {
                    estimate = found
                    walking = isWalking(found)
                    if let stride = found.strideRegularity, stride > (bestStrideRegularity ?? -.infinity) {
                        bestStrideRegularity = stride
                    }
                    if axesInput != nil, found.stepPeriod * configuration.maximumStepFrequency >= 2 - 1e-9,
                        case let axes = self.axes(), axes.count == 3,
                        let halved = armSwing(found, axes: axes, window: start..<(start + length), rms: rms)
                    {
                        swingEstimate = halved
                        swingWalking = isWalking(halved)
                    }
                }
            }
            windowCount += 1
            if walking { walkingWindowCount += 1 }
            let centre = (Double(start) + Double(length) / 2) * Double(decimation)
            windows.append(
                Window(
                    centre: centre, isWalking: walking, estimate: estimate, swingEstimate: swingEstimate,
                    isSwingWalking: swingWalking))
        }
        return windows
    }

    /// Whether a window with this estimate is walking: stride regularity at least the floor (the slow floor for a
    /// step slower than ``StepDetector/Configuration/strideFrequencyLimit``).
    private func isWalking(_ estimate: GaitWindowEstimate) -> Bool {
        let stride = estimate.strideRegularity ?? -1
        return stride >= configuration.minimumStrideRegularity
            && (estimate.stepPeriod * configuration.strideFrequencyLimit <= 1 + 1e-9
                || stride >= configuration.minimumSlowStrideRegularity)
    }

    /// The window's estimate with its period read as a stride, when the three axes show a device swinging once per
    /// period of |a| (``StepDetector/Configuration/detectsArmSwing``); nil otherwise.
    ///
    /// - Parameters:
    ///   - found: The estimate from |a|.
    ///   - axes: The band-passed, decimated x, y, z of the segment, g.
    ///   - window: The window's decimated samples.
    ///   - rms: The band-passed |a| RMS over the window, g.
    private func armSwing(
        _ found: GaitWindowEstimate, axes: [[Double]], window: Range<Int>, rms: Double
    ) -> GaitWindowEstimate? {
        let period = found.stepPeriod
        guard period * configuration.maximumStepFrequency >= 2 - 1e-9, rms > 0,
            swings(axes, magnitude: nil, magnitudeRMS: rms, range: window, period: period * analysisRate)
        else { return nil }
        return analyzer.halved(found)
    }

    /// Whether the band-passed axes over `range` (decimated samples) show a device swinging once per `period`
    /// (decimated samples): they repeat at the period, reverse at half of it, and are at least
    /// ``StepDetector/Configuration/minimumArmSwingRatio`` times as large as the band-passed |a| (its RMS given, or
    /// measured from `magnitude` over the range).
    private func swings(
        _ axes: [[Double]], magnitude: [Double]?, magnitudeRMS: Double? = nil, range: Range<Int>, period: Double
    ) -> Bool {
        guard !range.isEmpty else { return false }
        var rms = magnitudeRMS ?? 0
        if let magnitude {
            var sum = 0.0
            for i in range { sum += magnitude[i] * magnitude[i] }
            rms = (sum / Double(range.count)).squareRoot()
        }
        var energy = 0.0
        for axis in axes {
            for i in range { energy += axis[i] * axis[i] }
        }
        let vectorRMS = (energy / Double(range.count)).squareRoot()
        guard rms > 0, vectorRMS >= configuration.minimumArmSwingRatio * rms,
            let repeats = Self.vectorAutocorrelation(axes, range: range, lag: period),
            repeats >= configuration.minimumStrideRegularity,
            let reverses = Self.vectorAutocorrelation(axes, range: range, lag: period / 2),
            reverses <= configuration.maximumArmSwingReversal
        else { return false }
        return true
    }

    /// Normalised autocorrelation of a vector series over `range` at a fractional lag (linear between the two
    /// nearest integer lags): `Σ_axes Σ_i v[i]·v[i+k] / √(Σ head² · Σ tail²)`; nil when the lag leaves no overlap.
    static func vectorAutocorrelation(_ axes: [[Double]], range: Range<Int>, lag: Double) -> Double? {
        guard lag >= 0, lag + 1 < Double(range.count), let lower = Int(exactly: lag.rounded(.down)) else { return nil }
        let fraction = lag - Double(lower)
        guard let a = normalizedProduct(axes, range: range, lag: lower),
            let b = normalizedProduct(axes, range: range, lag: lower + 1)
        else { return nil }
        return a + fraction * (b - a)
    }

    /// Runs of walking windows on the full-rate grid: each sample belongs to the window with the nearest centre;
    /// short runs are dropped, close ones merged.
    private func walkingRuns(_ windows: [Window], sampleCount n: Int) -> [Run] {
        func boundary(_ j: Int) -> Int {  // first sample of window j's share
            if j == 0 { return 0 }
            if j == windows.count { return n }
            return min(n, Int(((windows[j - 1].centre + windows[j].centre) / 2).rounded(.up)))
        }
        let shortest = configuration.minimumRunDuration * rate
        let mergeGap = configuration.runMergeGap * rate
        var runs: [Run] = []
        var j = 0
        while j < windows.count {
            guard windows[j].isWalking else {
                j += 1
                continue
            }
            var k = j
            while k + 1 < windows.count && windows[k + 1].isWalking { k += 1 }
            let samples = boundary(j)..<boundary(k + 1)
            if Double(samples.count) >= shortest {
                if let last = runs.last, Double(samples.lowerBound - last.samples.upperBound) <= mergeGap {
                    runs[runs.count - 1] = Run(
                        samples: last.samples.lowerBound..<samples.upperBound, windows: last.windows.lowerBound...k)
                } else {
                    runs.append(Run(samples: samples, windows: j...k))
                }
            }
            j = k + 1
        }
        return runs
    }

    private mutating func detectSteps(
        in run: Run, windows: [Window], isArmSwing swingRun: Bool, signal y: [Double], decimated: [Double],
        segment: UniformSegment, index: Int
    ) {
        var periods: [Double] = []
        for j in run.windows where windows[j].isWalking {
            if let estimate = windows[j].estimate { periods.append(estimate.stepPeriod) }
        }
        guard !periods.isEmpty else { return }
        var period = Self.median(&periods)
        // A device swinging once per stride (a sustained run, see `process`): |a| peaks once per swing, and each
        // swing is two steps.
        var isArmSwing = swingRun
        let sustained = Double(run.samples.count) >= configuration.minimumArmSwingDuration * rate

        // Search range: the run widened on both sides, not overlapping the previous run's search.
        let n = y.count
        let extensionSamples = Int((configuration.runExtension * rate).rounded())
        let previousEnd = lastSearchEnd.segment == index ? lastSearchEnd.end : 0
        let lower = max(run.samples.lowerBound - extensionSamples, previousEnd, 0)
        let upper = min(run.samples.upperBound + extensionSamples, n)
        guard upper - lower >= 3 else { return }
        lastSearchEnd = (index, upper)

        let range = y.span.extracting(lower..<upper)
        let rms = (Reductions.sumOfSquares(range) / Double(range.count)).squareRoot()
        let floor = PeakBounds(minimum: max(configuration.minimumProminence, configuration.relativeProminence * rms))
        func search(period: Double) -> Peaks {
            findPeaks(
                in: range, distance: max(1, Int((configuration.peakDistanceFraction * period * rate).rounded(.down))),
                prominence: floor, windowLength: max(3, Int((4 * period * rate).rounded()) | 1))
        }
        var peaks = search(period: isArmSwing ? 2 * period : period)

        // The peaks confirm the period: when they repeat at about twice the windows' step period, and that is still
        // an accepted step period, the windows took a harmonic of the step for the step (sharp impacts of a slow
        // walk make the magnitude's second harmonic stronger than its fundamental), and the step period is the
        // peaks' median spacing. The peaks are then searched again at that period: the first search, spaced for
        // the harmonic, also kept the lesser peaks between the steps (the rebound after each impact).
        if !isArmSwing, peaks.indices.count >= 3 {
            var spacings: [Double] = []
            spacings.reserveCapacity(peaks.indices.count - 1)
            for k in 1..<peaks.indices.count {
                spacings.append(Double(peaks.indices[k] - peaks.indices[k - 1]) / rate)
            }
            let spacing = Self.median(&spacings)
            if spacing >= 1.6 * period, spacing * configuration.minimumStepFrequency <= 1 {
                // Unless the axes show a device swinging once per peak: then |a| peaks once per stride (the step
                // rhythm cancelled at the wrist) and the windows' step period was right.
                let runEnd = Swift.min(decimated.count, run.samples.upperBound / decimation)
                let decimatedRun = (run.samples.lowerBound / decimation)..<runEnd
                if axesInput != nil, sustained, case let axes = self.axes(), axes.count == 3,
                    swings(axes, magnitude: decimated, range: decimatedRun, period: spacing * analysisRate)
                {
                    isArmSwing = true
                    for j in run.windows where windows[j].isWalking { armSwingWindowCount += 1 }
                    peaks = search(period: 2 * period)
                } else {
                    period = spacing
                    peaks = search(period: period)
                }
            }
        }

        // Chains of steps.
        let chainLimit = configuration.maximumStepGap * period
        var current: [Double] = []
        var accepted = false
        func close(_ steps: [Double]) {
            guard steps.count >= configuration.minimumStepsPerBout, !steps.isEmpty else { return }
            var intervals: [Double] = []
            intervals.reserveCapacity(steps.count)
            for i in steps.indices.dropFirst() { intervals.append(steps[i] - steps[i - 1]) }
            let chainPeriod = intervals.count >= 2 ? Self.median(&intervals) : period
            chains.append(
                Self.chain(
                    steps, period: chainPeriod, detection: isArmSwing ? .armSwing : .rhythm, signal: y,
                    segment: segment, index: index, rate: rate))
            if isArmSwing { armSwingStepCount += steps.count }
            accepted = true
        }
        let prominences = peaks.prominence?.prominences ?? []
        // Peaks this close to the segment's edges (a data gap or the recording's ends) have no base on that side:
        // their prominence is not comparable, so they are never trimmed.
        let edge = Int((0.5 * configuration.maximumSequenceInterval * rate).rounded(.up))
        var strengths: [Double] = []
        let runStart = segment.time(at: run.samples.lowerBound)
        let runEnd = segment.time(at: Swift.max(run.samples.lowerBound, run.samples.upperBound - 1))
        func closeTrimmed() {
            // A chain's first and last peaks much weaker than its typical step are the sway of starting or
            // stopping, not steps: drop them while under a fraction (default a quarter) of the chain's median
            // prominence.
            var from = 0
            var to = current.count
            if strengths.count == current.count, current.count > configuration.minimumStepsPerBout {
                var sorted = strengths
                let floor = Self.median(&sorted) * configuration.edgeStepProminenceFraction
                while to - from > configuration.minimumStepsPerBout, strengths[from] < floor { from += 1 }
                while to - from > configuration.minimumStepsPerBout, strengths[to - 1] < floor { to -= 1 }
            }
            var steps = Array(current[from..<to])
            // An arm swing's first and last peaks each have their swing's other step half a swing away: count it
            // when the run's walking windows reach there (a peak at the run's very edge has no other side found).
            if isArmSwing, steps.count >= 2 {
                if steps[0] - period >= runStart { steps.insert(steps[0] - period, at: 0) }
                if steps[steps.count - 1] + period <= runEnd { steps.append(steps[steps.count - 1] + period) }
            }
            close(steps)
            current.removeAll(keepingCapacity: true)
            strengths.removeAll(keepingCapacity: true)
        }
        var previousStrength: Double?
        for (k, peak) in peaks.indices.enumerated() {
            let g = lower + peak
            let offset = Self.vertexOffset(y[g - 1], y[g], y[g + 1])
            let time = segment.time(at: g) + offset / rate
            let strength: Double? =
                k < prominences.count ? (g < edge || g >= n - edge ? .infinity : prominences[k]) : nil
            // A swing's other step falls half way to the next swing's peak (when that is within the chain limit).
            if isArmSwing, let last = current.last, time - last <= 2 * chainLimit {
                current.append((last + time) / 2)
                if let strength, let previousStrength { strengths.append(Swift.min(strength, previousStrength)) }
            }
            if let last = current.last, time - last > chainLimit { closeTrimmed() }
            current.append(time)
            if let strength { strengths.append(strength) }
            previousStrength = strength
        }
        closeTrimmed()
        guard accepted else { return }

        // Regularity and spectrum of the run's walking windows and samples.
        for j in run.windows where windows[j].isWalking {
            guard let estimate = windows[j].estimate else { continue }
            stepRegularities.append(estimate.stepRegularity)
            if let stride = estimate.strideRegularity { strideRegularities.append(stride) }
        }
        accumulateSpectrum(
            decimated,
            range: (run.samples.lowerBound / decimation)..<min(decimated.count, run.samples.upperBound / decimation))
    }

    /// Where the last search range ended: (segment index, end sample).
    private var lastSearchEnd: (segment: Int, end: Int) = (-1, 0)

    private mutating func accumulateSpectrum(_ decimated: [Double], range: Range<Int>) {
        let length = range.count
        guard length >= 8 else { return }
        let segmentSamples = max(8, Int((configuration.spectrumSegmentDuration * analysisRate).rounded()))
        var fftLength = 512
        while fftLength < segmentSamples { fftLength *= 2 }
        let welch = Welch(segmentLength: min(length, segmentSamples), fftLength: fftLength)
        guard let psd = try? welch.psd(decimated.span.extracting(range), sampleRate: analysisRate, cache: fftCache)
        else { return }
        if spectrumSum.isEmpty {
            spectrumSum = [Double](repeating: 0, count: psd.count)
            spectrumFrequencies = psd.frequencies
            spectrumBinWidth = psd.binWidth
        }
        guard psd.count == spectrumSum.count else { return }
        let weight = Double(length)
        for k in 0..<psd.count { spectrumSum[k] += weight * psd.values[k] }
        spectrumWeight += weight
    }

    /// Joins chains into bouts (bridging data gaps) and computes the features.
    mutating func finish() -> StepDetection {
        var stepTimes: [Double] = []
        var interpolated: [Int] = []
        var bouts: [WalkingBout] = []
        var stepIntervals: [Double] = []
        var warnings: [String] = []
        var verdicts: [String] = []
        // A verdict on the steps found (see ``StepDetection/stepVerdicts``), in the order of the warnings.
        func verdict(_ text: String) {
            warnings.append(text)
            verdicts.append(text)
        }
        var bridgedGaps = 0
        var bridgedSteps = 0

        // Step sequences count only where the rhythm pass confirmed that the wearer walks — a rhythm chain whose
        // strides repeat (stride regularity over the chain at least the windows' floor): consistent intervals
        // between a few band-limited peaks also occur in random motion (a shaken phone, fidgeting), and so do
        // short rhythm chains, but not strides that repeat over a whole chain.
        // Chains whose energy lies mostly outside the analysis band are broadband motion that happens to hold a few
        // evenly spaced band-passed peaks (white noise: 5 % in the band at 100 Hz), not walking.
        /// Removes the chains `isSetAside` picks and gives the verdict `because` (their steps, their count, the
        /// largest in-band share among them as a percentage).
        func setAside(where isSetAside: (StepChain) -> Bool, because: (Int, Int, String) -> String) {
            let removed = chains.filter(isSetAside)
            guard !removed.isEmpty else { return }
            chains.removeAll(where: isSetAside)
            let largest = removed.map(\.bandFraction).max() ?? 0
            verdict(
                because(
                    removed.reduce(0) { $0 + $1.times.count }, removed.count,
                    StepDetector.format((largest * 1000).rounded() / 10)))
        }
        setAside(where: { $0.bandFraction < configuration.minimumChainBandFraction }) { steps, count, largest in
            "\(steps) steps in \(count) rhythmic stretches were not counted: at most \(largest) % of their motion is in "
                + "the gait band (walking: at least \(Self.percent(configuration.minimumChainBandFraction)) %), as in "
                + "random motion"
        }
        // A rhythm chain whose strides do not repeat over it needs its band share well above white noise's at this
        // rate: below about 50 Hz white noise holds more than the fixed bound above. The white-noise share (2,048
        // frequency responses) is computed only when such a chain exists.
        func isIrregularRhythm(_ chain: StepChain) -> Bool {
            chain.detection == .rhythm && (chain.strideRegularity ?? -1) < configuration.minimumStrideRegularity
        }
        if configuration.minimumIrregularChainNoiseRatio > 0, chains.contains(where: isIrregularRhythm) {
            let whiteNoise = GaitBandShare.whiteNoise(sections, rate: rate)
            let bound = configuration.minimumIrregularChainNoiseRatio * whiteNoise
            setAside(where: { isIrregularRhythm($0) && $0.bandFraction < bound }) { steps, count, largest in
                "\(steps) steps in \(count) irregular rhythmic stretches were not counted: at most \(largest) % of their "
                    + "motion is in the gait band, under \(StepDetector.format(configuration.minimumIrregularChainNoiseRatio)) "
                    + "× the \(StepDetector.format((whiteNoise * 1000).rounded() / 10)) % that random motion puts there at "
                    + "this sampling rate"
            }
        }
        var unconfirmedSequences = 0
        let confirmed = chains.contains {
            $0.detection != .stepSequence && ($0.strideRegularity ?? -1) >= configuration.minimumStrideRegularity
        }
        if !confirmed {
            let rhythm = chains.filter { $0.detection != .stepSequence }
            unconfirmedSequences = chains.count - rhythm.count
            chains = rhythm
        }
        // The step-sequence pass adds its chains after the rhythm pass's: put every chain in time order.
        chains.sort { $0.times[0] < $1.times[0] }
        var index = 0
        while index < chains.count {
            let boutStart = stepTimes.count
            let firstPart = index
            var boutInterpolated = 0
            var observedIntervals: [Double] = []
            var previous = chains[index]
            func addObserved(_ chain: StepChain) {
                stepTimes.append(contentsOf: chain.times)
                for i in chain.times.indices.dropFirst() {
                    let interval = chain.times[i] - chain.times[i - 1]
                    observedIntervals.append(interval)
                    stepIntervals.append(interval)
                }
            }
            addObserved(previous)
            index += 1
            while index < chains.count {
                let next = chains[index]
                let mean = (previous.period + next.period) / 2
                let span = next.times[0] - previous.times[previous.times.count - 1]
                guard next.segment != previous.segment, span > 0,
                    abs(previous.period - next.period) <= configuration.bridgePeriodTolerance * mean,
                    span - 2 * mean <= configuration.maximumBridgedGap
                else { break }
                let missing = max(0, Int((span / mean).rounded()) - 1)
                let last = previous.times[previous.times.count - 1]
                for m in 0..<missing {
                    interpolated.append(stepTimes.count)
                    stepTimes.append(last + Double(m + 1) * span / Double(missing + 1))
                }
                boutInterpolated += missing
                bridgedGaps += 1
                bridgedSteps += missing
                addObserved(next)
                previous = next
                index += 1
            }
            let period = observedIntervals.isEmpty ? previous.period : Self.median(&observedIntervals)
            let parts = chains[firstPart..<index]
            var weighted = 0.0
            var weight = 0
            var rhythmSteps = 0
            var swingSteps = 0
            var shortSteps = 0
            for part in parts {
                if let regularity = part.strideRegularity {
                    weighted += Double(part.times.count) * regularity
                    weight += part.times.count
                }
                if part.detection == .rhythm { rhythmSteps += part.times.count }
                if part.detection == .armSwing { swingSteps += part.times.count }
                if part.detection == .shortRecording { shortSteps += part.times.count }
            }
            let observedSteps = parts.reduce(0) { $0 + $1.times.count }
            bouts.append(
                WalkingBout(
                    start: Swift.max(stepTimes[boutStart] - period / 2, chains[firstPart].bounds.lowerBound),
                    end: Swift.min(stepTimes[stepTimes.count - 1] + period / 2, previous.bounds.upperBound),
                    stepCount: stepTimes.count - boutStart, interpolatedStepCount: boutInterpolated, stepPeriod: period,
                    steps: boutStart..<stepTimes.count,
                    detection: shortSteps == observedSteps
                        ? .shortRecording
                        : 2 * swingSteps > observedSteps
                            ? .armSwing : 2 * (rhythmSteps + swingSteps) >= observedSteps ? .rhythm : .stepSequence,
                    strideRegularity: weight > 0 ? weighted / Double(weight) : nil))
        }
        // Bouts never overlap: where one's half step period beyond its last step reaches into the next one's
        // before its first step, both end at the midpoint between those two steps (walkingDuration counts each
        // second of walking once).
        for k in bouts.indices.dropFirst() where bouts[k].start < bouts[k - 1].end {
            let last = stepTimes[bouts[k - 1].steps.upperBound - 1]
            let first = stepTimes[bouts[k].steps.lowerBound]
            let boundary = Swift.min(Swift.max((last + first) / 2, bouts[k - 1].start), bouts[k].end)
            bouts[k - 1].end = Swift.min(bouts[k - 1].end, boundary)
            bouts[k].start = Swift.max(bouts[k].start, boundary)
        }

        if let short = chains.first(where: { $0.detection == .shortRecording }), let note = shortRecordingNote {
            verdict(
                "short recording (\(StepDetector.format((longestSegmentDuration * 100).rounded() / 100)) s, under the "
                    + "\(StepDetector.format(configuration.shortRecordingDuration)) s a gait rhythm needs): "
                    + "\(short.times.count) steps were counted as one short walk (\(note)); a count this short is less "
                    + "certain than one over a walking run")
        }
        if armSwingStepCount > 0 {
            verdict(
                "\(armSwingStepCount) steps were counted as two per swing of a device swinging once per stride (a wrist "
                    + "or a swinging hand: \(armSwingWindowCount) windows): |a| repeated once per stride there")
        }
        if bridgedGaps > 0 {
            verdict(
                "walking continued across \(bridgedGaps) data gaps: \(bridgedSteps) steps were interpolated at the "
                    + "local step period")
        }
        if unconfirmedSequences > 0 {
            verdict(
                "\(unconfirmedSequences) short step sequences were not counted: no sustained walking (a regular gait "
                    + "rhythm over \(StepDetector.format(configuration.windowDuration)) s) confirms them")
        }
        if skippedSegments > 0 {
            warnings.append(
                "\(skippedSegments) segments shorter than \(StepDetector.format(configuration.minimumSegmentDuration)) s "
                    + "between gaps were not analysed")
        }
        if analysedDuration == 0 {
            warnings.append(
                "no segment of at least \(StepDetector.format(configuration.minimumSegmentDuration)) s to analyse")
        } else if stepTimes.isEmpty {
            let amplitude = StepDetector.format(configuration.minimumAmplitude)
            let regularity = StepDetector.format(configuration.minimumStrideRegularity)
            if walkingWindowCount > 0 {
                verdict(
                    "no walking bout of at least \(configuration.minimumStepsPerBout) steps found (\(walkingWindowCount) of "
                        + "\(windowCount) windows had a regular gait rhythm, \(movingWindowCount) moved)")
            } else if movingWindowCount == 0 {
                verdict("no walking detected: the phone was still (no window above \(amplitude) g RMS)")
            } else if longestSegmentDuration < configuration.shortRecordingDuration {
                // Not a verdict on the motion: no run of windows this short is ever counted as walking.
                verdict(
                    "too short to count steps: the longest stretch of data is "
                        + "\(StepDetector.format((longestSegmentDuration * 100).rounded() / 100)) s, and a gait rhythm "
                        + "needs at least \(StepDetector.format(configuration.shortRecordingDuration)) s of walking to be "
                        + "recognised; "
                        + (shortRecordingNote.map {
                            "read as one short walk, it does not count: \($0); no steps were counted"
                        } ?? "no steps were counted (this says nothing about the motion in it)"))
            } else {
                let best =
                    bestStrideRegularity.map {
                        "best stride regularity " + StepDetector.format(($0 * 100).rounded() / 100)
                    }
                    ?? "no step rhythm found"
                verdict(
                    "no walking detected: the phone moved (\(movingWindowCount) of \(windowCount) windows above "
                        + "\(amplitude) g RMS) but without a regular gait rhythm (\(best); walking needs \(regularity)), so no "
                        + "steps were counted: irregular motion such as handling the phone, or a gait too irregular to "
                        + "count reliably")
            }
        }

        var dominantFrequency: Double?
        if spectrumWeight > 0 {
            let spectrum = Spectrum(frequencies: spectrumFrequencies, values: spectrumSum, binWidth: spectrumBinWidth)
            let high = min(configuration.highCutoff, 0.45 * rate)
            dominantFrequency = spectrum.dominantPeak(in: configuration.lowCutoff...high)?.frequency
        }
        return StepDetection(
            stepTimes: stepTimes, interpolatedStepIndices: interpolated, bouts: bouts, stepIntervals: stepIntervals,
            stepRegularity: stepRegularities.isEmpty ? nil : Self.median(&stepRegularities),
            strideRegularity: strideRegularities.isEmpty ? nil : Self.median(&strideRegularities),
            dominantFrequency: dominantFrequency, analysisRate: analysedDuration > 0 ? analysisRate : nil,
            windowCount: windowCount, walkingWindowCount: walkingWindowCount, analysedDuration: analysedDuration,
            warnings: warnings, stepVerdicts: verdicts)
    }

    /// The median (numpy convention) of a non-empty array, reordering it.
    static func median(_ values: inout [Double]) -> Double {
        let (lower, upper) = Selection.middlePair(&values)
        return values.count % 2 == 1 ? upper : (lower + upper) / 2
    }

    /// Offset in [−½, ½] samples of the vertex of the parabola through three samples around a maximum.
    static func vertexOffset(_ left: Double, _ centre: Double, _ right: Double) -> Double {
        let curvature = left - 2 * centre + right
        guard curvature < 0 else { return 0 }
        return min(0.5, max(-0.5, 0.5 * (left - right) / curvature))
    }
}
