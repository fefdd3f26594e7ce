import Foundation

/// The exponential time weightings of a sound level meter (IEC 61672-1 clause 3.5).
public enum TimeWeighting: String, Sendable, Hashable, CaseIterable, Codable {
    /// Fast: τ = 0.125 s.
    case fast = "F"
    /// Slow: τ = 1 s.
    case slow = "S"

    /// The time constant τ, seconds.
    public var timeConstant: Double { self == .fast ? 0.125 : 1 }

    /// The per-sample decay factor `α = exp(−1/(fs·τ))` of the discrete weighting
    /// `e[n] = α·e[n−1] + (1 − α)·x²[n]` at `sampleRate` Hz.
    public func decay(sampleRate: Double) -> Double { exp(-1 / (sampleRate * timeConstant)) }
}

/// Why a sound level meter cannot be built.
public enum SoundLevelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sampling rate is not finite or below 1000 Hz.
    case invalidSampleRate(hertz: Double)
    /// The ResearchKit sampling interval is not finite or below 0.1 s.
    case invalidSamplingInterval(seconds: Double)
    /// The input full-scale value is not finite and positive.
    case invalidFullScale(Double)

    public var description: String {
        switch self {
        case .invalidSampleRate(let f):
            "sampling rate \(f) Hz: a sound level meter needs a rate in 1000…\(AudioLimits.maximumSampleRate) Hz"
        case .invalidSamplingInterval(let s):
            "sampling interval \(s) s: the ResearchKit window series needs an interval in 0.1…3600 s"
        case .invalidFullScale(let v): "input full scale \(v): must be finite and positive"
        }
    }
}

/// A streaming sound level meter (IEC 61672-1 quantities) for one channel: A-, C- and Z-weighted mean squares,
/// F and S time-weighted maxima/minima, the C-weighted peak, exceedance levels of the F-weighted level, and
/// ResearchKit's SPL-meter window series — all in one pass, in constant memory.
///
/// Feed samples in blocks of any size with `add`, then call ``finish()``. Internally the signal is processed
/// in fixed chunks counted from its first sample (``SoundLevelGeometry``), so the results are bit-for-bit the
/// same for any block sizes.
///
/// **Filters.** The A and C weightings are the bilinear designs of ``FrequencyWeighting/sections(sampleRate:)``,
/// run factored (FIR numerators, all-pole denominators; C is the first half of A) with `Double` state, two
/// stretches of the signal at a time (`SoundLevelKernel.swift`); they equal the biquad cascades to rounding.
/// Both start from rest (silence before the first sample).
///
/// **Time weighting.** `e[n] = α e[n−1] + (1 − α) q[n]`, `α = exp(−1/(fs τ))`, on the A-weighted square
/// `q`, started at 0.1 s (after the filters' start-up) from the mean of `q` over `[0.1 s, 0.1 s + τ)`
/// (cell-aligned; what the signal has of it), as if the sound had been going on before. It is evaluated exactly at every cell boundary from
/// per-cell Horner sums, and sample by sample (replaying the cell) only where a cell could hold a new maximum
/// or minimum, so maxima and minima are over every sample. The F and S maxima and the C peak ignore the first
/// 0.1 s (filter start-up, rounded up to a cell); the minima and the exceedance history the first 10τ.
///
/// **Exceedance levels** come from the F-weighted level sampled every ``SoundLevelGeometry/historyStep``
/// samples (10 ms) after 10τ, counted in a histogram of 0.01 dB bins from −300 to +200 dB
/// (constant memory): `LN` is the (100 − N)-th percentile (linear interpolation between order statistics,
/// R type 7) of bin centres, so it is within 0.005 dB of the exact percentile of the history.
///
/// Not `Sendable`: a resource owner confined to one task. Memory ≈ 2.5 × 8 × ``SoundLevelGeometry/chunkLength``
/// bytes (≈ 3 MB at 48 kHz) plus the 200 kB histogram, whatever the signal length; the buffers grow with the
/// samples added up to that size, so a meter fed a few samples (a one-frame file) stays a few kilobytes.
public final class SoundLevelMeter {
    /// Options.
    public struct Configuration: Sendable, Hashable {
        /// The sample value that is digital full scale (1 for floating-point input; 32768 when feeding raw
        /// 16-bit integers to ``add(pcm16:)``). Mean squares are reported relative to full scale squared.
        public var fullScale: Double = 1
        /// ResearchKit's `samplingInterval` for the window series, s: each window averages
        /// `N = ⌊10·interval⌋` buffers of ⌊fs/10⌋ frames, one window per N + 1 buffers.
        public var samplingInterval: Double = 1
        /// Default options.
        public init() {}
    }

    /// The chunking used (depends on the sampling rate only).
    public let geometry: SoundLevelGeometry
    /// The options.
    public let configuration: Configuration
    /// Gain of the factored C filter's output v: C-weighted signal = `cGain`·v.
    let cGain: Double
    /// Gain of w: A-weighted signal = `aGain`·w.
    let aGain: Double
    private let coefficients: WeightingCoefficients
    private let alphaF: Double
    private let alphaS: Double
    private let alphaFCell: Double
    private let alphaSCell: Double
    /// Ends of the seed windows (from ``settlePeak``, τ long): the integrators start from their mean square.
    private let seedEndF: Int
    private let seedEndS: Int
    /// Whether the integrators have been seeded (in the first kernel run).
    private var seeded = false
    private let settleMinF: Int
    private let settleMinS: Int
    private let settlePeak: Int
    private let windowBuffers: Int

    /// The chunk: 4 samples of history, then x, which `processChunk` overwrites in place with
    /// u = x − 2x[n−2] + x[n−4].
    private var x: [Double]
    private var filled = 0
    private var energyZ = 0.0
    private var finished: SoundLevelMeasurement?
    private var cells: [CellRecord]
    private var state = WeightingState(p1: 0, p2: 0, v1: 0, v2: 0, w1: 0, w2: 0)

    /// Running results, folded cell by cell.
    private var run: FoldState

    /// Histogram range and resolution of the exceedance levels, dB re full scale².
    static let histogramFloor = -300.0
    static let histogramResolution = 0.01
    static let histogramBins = 50_000

    /// Creates a meter at rest.
    /// - Parameters:
    ///   - sampleRate: Hz, ≥ 1000 (class-1 A/C accuracy needs ≥ 36.96 kHz).
    ///   - configuration: options.
    /// - Throws: ``SoundLevelError`` for an unusable rate, interval or full scale.
    /// - Complexity: designs the filters and allocates the chunk buffers once.
    public init(sampleRate: Double, configuration: Configuration = .init()) throws(SoundLevelError) {
        guard sampleRate.isFinite, sampleRate >= 1000, sampleRate <= Double(AudioLimits.maximumSampleRate) else {
            throw .invalidSampleRate(hertz: sampleRate)
        }
        guard configuration.samplingInterval.isFinite, configuration.samplingInterval >= 0.1,
            configuration.samplingInterval <= 3600
        else {
            throw .invalidSamplingInterval(seconds: configuration.samplingInterval)
        }
        guard configuration.fullScale.isFinite, configuration.fullScale > 0 else {
            throw .invalidFullScale(configuration.fullScale)
        }
        self.configuration = configuration
        let poles = DigitalWeightingPoles(sampleRate: sampleRate)
        let c = WeightingCoefficients(
            a11: -2 * poles.p1, a12: poles.p1 * poles.p1, a21: -2 * poles.p4, a22: poles.p4 * poles.p4,
            a31: -(poles.p2 + poles.p3), a32: poles.p2 * poles.p3)
        coefficients = c
        // Both designs exist for every rate ≥ 1000 Hz; their numerators are b0·(FIR with leading 1), so the
        // product of the b0s is the gain of the factored form.
        let aSections = (try? FrequencyWeighting.a.sections(sampleRate: sampleRate)) ?? nil
        let cSections = (try? FrequencyWeighting.c.sections(sampleRate: sampleRate)) ?? nil
        aGain = aSections?.sections.reduce(1.0) { $0 * $1.b0 } ?? 1
        cGain = cSections?.sections.reduce(1.0) { $0 * $1.b0 } ?? 1
        let g = SoundLevelGeometry(sampleRate: sampleRate, coefficients: c)
        geometry = g
        alphaF = TimeWeighting.fast.decay(sampleRate: sampleRate)
        alphaS = TimeWeighting.slow.decay(sampleRate: sampleRate)
        alphaFCell = exp(-Double(g.cellSize) / (sampleRate * TimeWeighting.fast.timeConstant))
        alphaSCell = exp(-Double(g.cellSize) / (sampleRate * TimeWeighting.slow.timeConstant))
        func cellAligned(_ seconds: Double) -> Int {
            Int((seconds * sampleRate / Double(g.cellSize)).rounded(.up)) * g.cellSize
        }
        settlePeak = cellAligned(0.1)
        seedEndF = settlePeak + cellAligned(TimeWeighting.fast.timeConstant)
        seedEndS = settlePeak + cellAligned(TimeWeighting.slow.timeConstant)
        settleMinF = cellAligned(10 * TimeWeighting.fast.timeConstant)
        settleMinS = cellAligned(10 * TimeWeighting.slow.timeConstant)
        windowBuffers = max(1, Int(configuration.samplingInterval * 10))
        // Sized on demand (see ensureCapacity): at most chunkLength + 4 samples and one lane of cells.
        x = [Double](repeating: 0, count: 4)
        cells = []
        run = FoldState(
            cellSize: g.cellSize, historyStep: g.historyStep, bufferFrames: g.bufferFrames,
            windowBuffers: windowBuffers, settleMinF: settleMinF,
            settleMinS: settleMinS, settlePeak: settlePeak,
            alphaF: alphaF, alphaS: alphaS, alphaFCell: alphaFCell, alphaSCell: alphaSCell,
            histogramScale: 1 / (configuration.fullScale * configuration.fullScale), coefficients: c)
    }

    // MARK: Input

    /// Adds samples (full scale = ``Configuration/fullScale``). O(n); no allocation.
    public func add(_ samples: Span<Double>) {
        samples.withUnsafeBufferPointer { source in
            append(source.count) { dst, src, n in dst.update(from: source.baseAddress! + src, count: n) }
        }
    }

    /// Adds `Float` samples (widened exactly to `Double`). O(n); no allocation.
    public func add(_ samples: Span<Float>) {
        samples.withUnsafeBufferPointer { source in
            append(source.count) { dst, src, n in
                for i in 0..<n { dst[i] = Double(source[src + i]) }
            }
        }
    }

    /// Adds raw 16-bit PCM samples as integers (use ``Configuration/fullScale`` = 32768). O(n); no allocation.
    ///
    /// Filtering integers and scaling the results by the power of two 2⁻¹⁵ afterwards is exactly the same
    /// arithmetic as filtering the scaled samples, so the results equal those of `add(_: Span<Double>)` fed
    /// `x/32768` with full scale 1, bit for bit.
    public func add(pcm16 samples: Span<Int16>) {
        samples.withUnsafeBufferPointer { source in
            append(source.count) { dst, src, n in
                for i in 0..<n { dst[i] = Double(source[src + i]) }
            }
        }
    }

    /// Copies `count` samples into the chunk buffer with `copy(destination, sourceOffset, n)`, processing
    /// every full chunk.
    private func append(_ count: Int, _ copy: (UnsafeMutablePointer<Double>, Int, Int) -> Void) {
        precondition(finished == nil, "SoundLevelMeter: add after finish()")
        var done = 0
        let chunk = geometry.chunkLength
        while done < count {
            let n = min(count - done, chunk - filled)
            if x.count < 4 + filled + n {
                // Grow geometrically up to the chunk: memory follows the samples seen, never more than a chunk.
                let size = min(chunk + 4, max(4 + filled + n, 2 * x.count))
                x.append(contentsOf: repeatElement(0, count: size - x.count))
            }
            x.withUnsafeMutableBufferPointer { copy($0.baseAddress! + 4 + filled, done, n) }
            filled += n
            done += n
            if filled == chunk { processChunk(filled) }
        }
    }

    // MARK: Chunk processing

    private func processChunk(_ n: Int) {
        let g = geometry
        let G = g.cellSize
        // Σx² of the chunk (fixed chunks: the same sum for any block split), keep the last 4 samples as the
        // next chunk's history, then u = x − 2x[n−2] + x[n−4] in place, from the end backwards (each x[i] is
        // overwritten only after u[i+2] and u[i+4], which read it, are done).
        var history = (0.0, 0.0, 0.0, 0.0)
        x.withUnsafeMutableBufferPointer { xb in
            let xp = xb.baseAddress! + 4
            energyZ += Reductions.sumOfSquares(UnsafeBufferPointer(start: xp, count: n).span)
            history = (xp[n - 4], xp[n - 3], xp[n - 2], xp[n - 1])
            var i = n - 1
            while i >= 0 {
                xp[i] = (xp[i] + xp[i - 4]) - (xp[i - 2] + xp[i - 2])
                i -= 1
            }
        }
        // Lane geometry for this chunk: a full chunk uses (W, M); a shorter final one the largest lane length
        // that fits, and the remainder (or all of it) runs with both lanes on the same samples.
        let w = g.warmUp
        var m = g.laneLength
        if n < g.chunkLength { m = max(0, (n - w) / 2) / G * G }
        var laneSamples = 0
        if m >= G {
            runLanes(base0: 0, base1: m, steps: w + m, twoLanes: true)
            laneSamples = w + 2 * m
        }
        if laneSamples < n {
            runLanes(base0: laneSamples, base1: laneSamples, steps: n - laneSamples, twoLanes: false)
        }
        (x[0], x[1], x[2], x[3]) = history
        filled = 0
    }

    /// Runs the kernel and folds its cells into the results in signal order.
    private func runLanes(base0: Int, base1: Int, steps: Int, twoLanes: Bool) {
        var s0 = state
        // Lane 1 starts from rest, warmUp samples before its own stretch (or duplicates lane 0).
        var s1 = twoLanes ? WeightingState(p1: 0, p2: 0, v1: 0, v2: 0, w1: 0, w2: 0) : state
        let G = geometry.cellSize
        let needed = (steps + G - 1) / G
        if cells.count < needed { cells.append(contentsOf: repeatElement(CellRecord(), count: needed - cells.count)) }
        x.withUnsafeBufferPointer { xb in
            let ub = UnsafeBufferPointer(rebasing: xb[4...])
            cells.withUnsafeMutableBufferPointer { cb in
                runWeightingStreams(
                    ub.baseAddress!, base0: base0, base1: base1, steps: steps, cellSize: G,
                    coefficients: coefficients, alphaFast: alphaF, alphaSlow: alphaS, state0: &s0, state1: &s1,
                    cells: cb.baseAddress!)
            }
        }
        let cellCount = (steps + G - 1) / G
        if !seeded { seed(cellCount: cellCount, steps: steps, laneOffset: base1 - base0, twoLanes: twoLanes) }
        // Fold in a local copy (swapped out, so its arrays stay uniquely referenced): no exclusivity checks
        // on class properties per cell.
        var r = FoldState.placeholder
        swap(&r, &run)
        x.withUnsafeBufferPointer { xb in
            let u = xb.baseAddress! + 4
            cells.withUnsafeBufferPointer { cb in
                for j in 0..<cellCount {
                    r.fold(cb[j].lane(0), u: u + base0 + j * G, length: min(G, steps - j * G))
                }
                if twoLanes {
                    for j in (geometry.warmUp / G)..<cellCount {
                        r.fold(cb[j].lane(1), u: u + base1 + j * G, length: min(G, steps - j * G))
                    }
                }
            }
        }
        swap(&r, &run)
        state = twoLanes ? s1 : s0
    }

    /// Starts the F and S integrators, before the first cell is folded.
    ///
    /// They start from the A-weighted mean square of their seed windows, `[settlePeak, settlePeak + τ)`, or the
    /// part of them the signal has, as if the sound had been going on before the recording began: a maximum is then defined from the filters' start-up on,
    /// not only after 5τ (5 s for S) of an integrator rising from 0. The first kernel run always holds the whole
    /// windows when the signal does (its lane 0 alone covers warm-up + lane, over 1.7 s at every rate; a shorter
    /// signal is all in it); a signal that ends before `settlePeak` never uses its integrators.
    private func seed(cellCount: Int, steps: Int, laneOffset: Int, twoLanes: Bool) {
        seeded = true
        let G = geometry.cellSize
        var sums = (fast: 0.0, slow: 0.0)
        var counts = (fast: 0, slow: 0)
        cells.withUnsafeBufferPointer { cb in
            func add(_ lane: CellLane, at position: Int, length: Int) {
                guard position >= settlePeak else { return }
                if position < seedEndF {
                    sums.fast += lane.energyA
                    counts.fast += length
                }
                if position < seedEndS {
                    sums.slow += lane.energyA
                    counts.slow += length
                }
            }
            for j in 0..<cellCount { add(cb[j].lane(0), at: j * G, length: min(G, steps - j * G)) }
            if twoLanes {
                for j in (geometry.warmUp / G)..<cellCount {
                    add(cb[j].lane(1), at: laneOffset + j * G, length: min(G, steps - j * G))
                }
            }
        }
        run.eF = counts.fast > 0 ? sums.fast / Double(counts.fast) : 0
        run.eS = counts.slow > 0 ? sums.slow / Double(counts.slow) : 0
    }

    // MARK: Results

    /// Processes what remains and returns the measurement; later calls return the same value.
    public func finish() -> SoundLevelMeasurement {
        if let finished { return finished }
        if filled > 0 { processChunk(filled) }
        let fs2 = configuration.fullScale * configuration.fullScale
        let interval = configuration.samplingInterval
        let sampleRate = geometry.sampleRate
        let a2 = aGain * aGain / fs2
        let r = run
        let frames = r.frames
        let n = Double(frames)
        let result = SoundLevelMeasurement(
            sampleRate: sampleRate, frameCount: frames,
            meanSquareZ: frames > 0 ? energyZ / n / fs2 : 0,
            meanSquareC: frames > 0 ? r.energyC * cGain * cGain / n / fs2 : 0,
            meanSquareA: frames > 0 ? r.energyA * a2 / n : 0,
            peakC: frames > settlePeak ? r.peakC.squareRoot() * cGain / configuration.fullScale : nil,
            maxFast: r.maxF.isFinite ? r.maxF * a2 : nil, minFast: r.minF.isFinite ? r.minF * a2 : nil,
            maxSlow: r.maxS.isFinite ? r.maxS * a2 : nil, minSlow: r.minS.isFinite ? r.minS * a2 : nil,
            fastSettling: Double(settlePeak) / sampleRate, slowSettling: Double(settlePeak) / sampleRate,
            fastMinimumSettling: Double(settleMinF) / sampleRate, slowMinimumSettling: Double(settleMinS) / sampleRate,
            peakSettling: Double(settlePeak) / sampleRate,
            exceedance: ExceedanceHistogram(
                counts: r.histogram, underflow: r.histogramUnderflow, total: r.histogramCount,
                offsetDecibels: 10 * log10(aGain * aGain)),
            windowMeanSquares: r.windows.map { ($0 * a2 / interval) / sampleRate },
            windowBuffers: windowBuffers, geometry: geometry)
        finished = result
        return result
    }
}

/// The running results of a ``SoundLevelMeter``, updated cell by cell in signal order.
struct FoldState {
    let cellSize: Int, historyStep: Int, bufferFrames: Int, windowBuffers: Int
    /// First sample of the F/S minima and exceedance history (10τ) and of the C peak, the F/S maxima and the
    /// integrators (the filters' start-up, 0.1 s).
    let settleMinF: Int, settleMinS: Int, settlePeak: Int
    let alphaF: Double, alphaS: Double, alphaFCell: Double, alphaSCell: Double
    /// 1/fullScale², applied before the histogram's dB conversion.
    let histogramScale: Double
    let coefficients: WeightingCoefficients

    var frames = 0
    var energyA = 0.0
    var energyC = 0.0
    /// Largest v² after the peak settling time.
    var peakC = 0.0
    var eF = 0.0
    var eS = 0.0
    var maxF = -Double.infinity
    var minF = Double.infinity
    var maxS = -Double.infinity
    var minS = Double.infinity
    /// Allocated (with ``histogramBins`` bins) at the first level counted.
    var histogram: [UInt32] = []
    let histogramBins: Int
    var histogramUnderflow = 0
    var histogramCount = 0
    var bufferEnergy = 0.0
    var bufferFill = 0
    var buffersDone = 0
    var windowEnergy = 0.0
    var windows: [Double] = []

    init(
        cellSize: Int, historyStep: Int, bufferFrames: Int, windowBuffers: Int, settleMinF: Int, settleMinS: Int,
        settlePeak: Int, alphaF: Double, alphaS: Double, alphaFCell: Double, alphaSCell: Double,
        histogramScale: Double, coefficients: WeightingCoefficients, histogramBins: Int = SoundLevelMeter.histogramBins
    ) {
        self.cellSize = cellSize
        self.historyStep = historyStep
        self.bufferFrames = bufferFrames
        self.windowBuffers = windowBuffers
        self.settleMinF = settleMinF
        self.settleMinS = settleMinS
        self.settlePeak = settlePeak
        self.alphaF = alphaF
        self.alphaS = alphaS
        self.alphaFCell = alphaFCell
        self.alphaSCell = alphaSCell
        self.histogramScale = histogramScale
        self.coefficients = coefficients
        self.histogramBins = histogramBins
    }

    /// An empty value to swap in while the real one is folded in a local variable.
    static var placeholder: FoldState {
        FoldState(
            cellSize: 1, historyStep: 1, bufferFrames: 1, windowBuffers: 1, settleMinF: 0,
            settleMinS: 0, settlePeak: 0,
            alphaF: 0, alphaS: 0, alphaFCell: 0, alphaSCell: 0, histogramScale: 1,
            coefficients: .init(a11: 0, a12: 0, a21: 0, a22: 0, a31: 0, a32: 0), histogramBins: 0)
    }

    /// Adds one cell (the next `length` samples of the signal; `u` points at its FIR-filtered input).
    @inline(__always)
    mutating func fold(_ record: CellLane, u: UnsafePointer<Double>, length: Int) {
        let start = frames
        frames += length
        energyA += record.energyA
        energyC += record.energyC
        if start >= settlePeak { peakC = max(peakC, record.peakSquared) }
        // Exponential time weighting at the cell end.
        let full = length == cellSize
        let aF = full ? alphaFCell : pow(alphaF, Double(length))
        let aS = full ? alphaSCell : pow(alphaS, Double(length))
        let eF0 = eF
        let eS0 = eS
        // The integrators hold their seed through the filters' start-up and run from settlePeak on.
        if start >= settlePeak {
            eF = aF * eF0 + (1 - alphaF) * record.fast
            eS = aS * eS0 + (1 - alphaS) * record.slow
        }
        // Maxima/minima: replay the cell sample by sample only when it could hold a new extreme. Bounds for
        // any sample i of the cell: α^g·e0 ≤ e_i ≤ min(e0 + (1−α)Σq, e_end/α^g).
        let margin = 1 + 1e-9
        let fastMax = start >= settlePeak && min(eF0 + (1 - alphaF) * record.energyA, eF / aF) * margin >= maxF
        let fastMin = start >= settleMinF && aF * eF0 <= minF * margin
        let slowMax = start >= settlePeak && min(eS0 + (1 - alphaS) * record.energyA, eS / aS) * margin >= maxS
        let slowMin = start >= settleMinS && aS * eS0 <= minS * margin
        if fastMax || fastMin || slowMax || slowMin {
            replay(
                record.start, u: u, length: length, eF0: eF0, eS0: eS0,
                update: (fastMax, fastMin, slowMax, slowMin))
        }
        // F-weighted level history for the exceedance levels.
        if frames > settleMinF && frames % historyStep == 0 { addToHistogram(eF) }
        // ResearchKit buffers and windows.
        bufferEnergy += record.energyA
        bufferFill += length
        if bufferFill == bufferFrames { completeBuffer() }
    }

    private mutating func completeBuffer() {
        let position = buffersDone % (windowBuffers + 1)
        if position > 0 { windowEnergy += bufferEnergy }
        if position == windowBuffers {
            windows.append(windowEnergy)
            windowEnergy = 0
        }
        buffersDone += 1
        bufferEnergy = 0
        bufferFill = 0
    }

    /// Recomputes one cell sample by sample from its recorded start state (`weightingStep`, the kernel's
    /// operations, so the same A-weighted samples) to update the F/S maxima and minima exactly.
    @inline(never)
    private mutating func replay(
        _ start: WeightingState, u: UnsafePointer<Double>, length: Int, eF0: Double, eS0: Double,
        update: (fastMax: Bool, fastMin: Bool, slowMax: Bool, slowMin: Bool)
    ) {
        var s = start
        var f = eF0
        var sl = eS0
        let bf = 1 - alphaF
        let bs = 1 - alphaS
        for i in 0..<length {
            let (_, w) = weightingStep(u[i], &s, coefficients)
            let q = w * w
            f = alphaF * f + bf * q
            sl = alphaS * sl + bs * q
            if update.fastMax { maxF = max(maxF, f) }
            if update.fastMin { minF = min(minF, f) }
            if update.slowMax { maxS = max(maxS, sl) }
            if update.slowMin { minS = min(minS, sl) }
        }
    }

    @inline(never)
    private mutating func addToHistogram(_ meanSquare: Double) {
        histogramCount += 1
        let scaled = meanSquare * histogramScale
        guard scaled > 0 else {
            histogramUnderflow += 1
            return
        }
        let level = 10 * log10(scaled)
        let position = ((level - SoundLevelMeter.histogramFloor) / SoundLevelMeter.histogramResolution).rounded(.down)
        guard position >= 0, histogramBins > 0 else {
            histogramUnderflow += 1
            return
        }
        if histogram.isEmpty { histogram = [UInt32](repeating: 0, count: histogramBins) }
        // Above the range (or +∞): the top bin; compared as a Double before any conversion to Int.
        let bin = position < Double(histogramBins - 1) ? Int(position) : histogramBins - 1
        histogram[bin] += 1
    }
}

/// The histogram of F-weighted levels behind the exceedance levels (0.01 dB bins).
public struct ExceedanceHistogram: Sendable, Hashable {
    /// Counts per bin; bin k holds levels in `[−300 + 0.01k, −300 + 0.01(k+1))` dB (before `offsetDecibels`).
    var counts: [UInt32]
    /// History values below the range (including digital silence, −∞).
    var underflow: Int
    /// History values in all.
    public var total: Int
    /// Added to every bin level (the A-weighting gain, so bins can hold the unscaled filter output).
    var offsetDecibels: Double

    /// The level exceeded `percent` % of the time, dB re full scale² (10·lg of the F-weighted mean square):
    /// the (100 − percent)-th percentile of the history, linear interpolation between order statistics
    /// (R type 7) of bin centres; `nil` with no history or when it falls below the histogram (silence).
    public func exceeded(percent: Double) -> Double? {
        guard total > 0, percent >= 0, percent <= 100 else { return nil }
        let h = Double(total - 1) * (100 - percent) / 100
        let lo = Int(h.rounded(.down))
        let hi = min(lo + 1, total - 1)
        guard let a = value(rank: lo), let b = value(rank: hi) else { return nil }
        return a + (b - a) * (h - Double(lo))
    }

    /// The bin centre holding the `rank`-th smallest value (0-based); nil inside the underflow.
    private func value(rank: Int) -> Double? {
        if rank < underflow { return nil }
        var remaining = rank - underflow
        for (k, c) in counts.enumerated() where c > 0 {
            if remaining < Int(c) {
                return SoundLevelMeter.histogramFloor + (Double(k) + 0.5) * SoundLevelMeter.histogramResolution
                    + offsetDecibels
            }
            remaining -= Int(c)
        }
        return nil
    }
}

/// What a ``SoundLevelMeter`` measured, as mean squares relative to full scale² (so `10·lg` gives dB re
/// full scale in ResearchKit's convention, where a full-scale sine reads −3.01 dB). Calibrate by adding
/// `94 − sensitivityOffset` dB.
public struct SoundLevelMeasurement: Sendable, Hashable {
    /// Sampling rate, Hz.
    public var sampleRate: Double
    /// Samples measured.
    public var frameCount: Int
    /// Mean of x² (Z-weighted: unfiltered, DC included).
    public var meanSquareZ: Double
    /// Mean of the C-weighted square.
    public var meanSquareC: Double
    /// Mean of the A-weighted square.
    public var meanSquareA: Double
    /// Largest |C-weighted sample| after ``peakSettling``, full-scale units; nil when the signal is shorter.
    public var peakC: Double?
    /// Largest F-weighted A mean square after ``fastSettling`` (the integrator seeded, see
    /// ``SoundLevelMeter``); nil when the signal is shorter.
    public var maxFast: Double?
    /// Smallest F-weighted A mean square after ``fastMinimumSettling``.
    public var minFast: Double?
    /// Largest S-weighted A mean square after ``slowSettling`` (the integrator seeded); nil when the signal is
    /// shorter.
    public var maxSlow: Double?
    /// Smallest S-weighted A mean square after ``slowMinimumSettling``.
    public var minSlow: Double?
    /// Seconds ignored by the F maximum (the filters' start-up, 0.1 s rounded up to a cell).
    public var fastSettling: Double
    /// Seconds ignored by the S maximum (the same 0.1 s).
    public var slowSettling: Double
    /// Seconds ignored by the F minimum and the exceedance history (10τ: whatever the seed, the weighting is
    /// then within 0.0002 dB of its steady value).
    public var fastMinimumSettling: Double
    /// Seconds ignored by the S minimum (10τ).
    public var slowMinimumSettling: Double
    /// Seconds ignored by the C peak.
    public var peakSettling: Double
    /// The F-weighted level history behind the exceedance levels.
    public var exceedance: ExceedanceHistogram
    /// ResearchKit window series: per window `(Σ buffer energies / samplingInterval) / fs` of the A-weighted
    /// signal, full scale² (ResearchKit's `meanSquare`).
    public var windowMeanSquares: [Double]
    /// Buffers per window, N.
    public var windowBuffers: Int
    /// Chunking and grids used.
    public var geometry: SoundLevelGeometry

    /// Duration measured, seconds.
    public var duration: Double { Double(frameCount) / sampleRate }
}
