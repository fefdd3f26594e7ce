import RealModule

/// The periodicity of one analysis window (see ``GaitWindowAnalyzer``).
struct GaitWindowEstimate {
    /// Step period, s.
    var stepPeriod: Double
    /// Normalised autocorrelation at one step period.
    var stepRegularity: Double
    /// Normalised autocorrelation at two step periods; nil when that lag does not fit the window.
    var strideRegularity: Double?
}

/// Finds the step period of a window of the band-passed, decimated magnitude, and how regular it is.
///
/// With `x` the window (n samples at `rate` Hz), the normalised autocorrelation at lag k is
/// ```
/// ρ(k) = Σ_{i<n−k} x[i]·x[i+k] / √(Σ_{i<n−k} x[i]² · Σ_{i≥k} x[i]²)
/// ```
/// (the cosine similarity of the window's overlapping head and tail; the band-pass makes x zero-mean). It
/// does not decay with the lag, so a periodic signal scores near 1 at every multiple of its period.
///
/// 1. Over the lags of one step at the fastest step frequency to two steps at the slowest (limited so the
///    overlap is at least ``StepDetector/Configuration/minimumLagOverlap``), the *fundamental lag* L is the
///    shortest local maximum of ρ reaching ``StepDetector/Configuration/fundamentalFraction`` of the highest one,
///    refined by a parabola through its neighbours.
/// 2. L is one step when the gait is symmetric and one stride when the two steps differ (a phone in a back
///    pocket). Steps dominate the spectrum of |a| in both cases, so L is a stride when 1/L is slower than the
///    slowest step frequency, or when the Hann-windowed DFT power at 2/L exceeds that at 1/L (and 2/L is an
///    accepted step frequency). The step period is L/2 or L.
/// 3. Step and stride regularity are ρ at one and two step periods (quadratic interpolation between lags). When the
///    spectrum made L a stride but ρ at L is under the walking floor while ρ at 2L reaches it, the spectrum was
///    misled by the sharp impacts of a slow or limping walk (their second harmonic outweighs the step): L is the
///    step.
///
/// Holds its scratch (autocorrelation, prefix energies), so analysing a window allocates nothing.
/// Not `Sendable`-shared: one analyzer per detection.
struct GaitWindowAnalyzer {
    /// Analysis rate, Hz.
    let rate: Double
    /// Shortest lag searched, samples (one step at the fastest step frequency, ≥ 1).
    let minimumLag: Int
    /// Longest lag searched, samples (two steps at the slowest step frequency, plus one for interpolation).
    let maximumLag: Int
    /// Shortest overlap of a lag, samples.
    let minimumOverlap: Int
    /// Slowest and fastest step frequency, Hz.
    let minimumStepFrequency: Double
    /// A fundamental slower than this is a stride, Hz.
    let strideFrequencyLimit: Double
    let maximumStepFrequency: Double
    /// Period pick threshold (fraction of the highest autocorrelation peak).
    let fundamentalFraction: Double
    /// Stride regularity that decides between the spectrum's two readings of a period (the walking floor).
    let strideAlternativeFloor: Double

    private var correlation: [Double]
    private var prefixEnergy: [Double]
    /// The longest lag computed for the window analysed last (0 before any).
    private var analysedLastLag = 0

    /// Prepares an analyzer for windows of up to `windowLength` samples.
    init(rate: Double, windowLength: Int, configuration c: StepDetector.Configuration) {
        self.rate = rate
        minimumLag = max(1, Int((rate / c.maximumStepFrequency).rounded(.down)))
        maximumLag = Int((2 * rate / c.minimumStepFrequency).rounded(.up)) + 1
        minimumOverlap = max(2, Int((c.minimumLagOverlap * rate).rounded(.up)))
        minimumStepFrequency = c.minimumStepFrequency
        strideFrequencyLimit = c.strideFrequencyLimit
        maximumStepFrequency = c.maximumStepFrequency
        fundamentalFraction = c.fundamentalFraction
        strideAlternativeFloor = c.minimumStrideRegularity
        correlation = [Double](repeating: 0, count: maximumLag + 1)
        prefixEnergy = [Double](repeating: 0, count: windowLength + 1)
    }

    /// The window's step period and regularity, or nil when it has no usable periodicity.
    ///
    /// - Parameter x: The window (at most the `windowLength` given at creation).
    mutating func analyze(_ x: Span<Double>) -> GaitWindowEstimate? {
        let n = x.count
        let lastLag = min(maximumLag, n - minimumOverlap)
        analysedLastLag = 0
        guard lastLag >= minimumLag + 2, n + 1 <= prefixEnergy.count else { return nil }

        var energy = 0.0
        prefixEnergy[0] = 0
        for i in 0..<n {
            energy += x[i] * x[i]
            prefixEnergy[i + 1] = energy
        }
        guard energy > 0 else { return nil }
        for k in (minimumLag - 1)...lastLag {
            var sum = 0.0
            for i in 0..<(n - k) { sum += x[i] * x[i + k] }
            let head = prefixEnergy[n - k]
            let tail = energy - prefixEnergy[k]
            let norm = (head * tail).squareRoot()
            correlation[k] = norm > 0 ? sum / norm : 0
        }
        analysedLastLag = lastLag

        // 1. Fundamental lag.
        var highest = -Double.infinity
        for k in minimumLag..<lastLag where isLocalMaximum(k) { highest = max(highest, correlation[k]) }
        guard highest > 0 else { return nil }
        var pick = -1
        for k in minimumLag..<lastLag where isLocalMaximum(k) && correlation[k] >= fundamentalFraction * highest {
            pick = k
            break
        }
        guard pick > 0 else { return nil }
        let lag = (Double(pick) + vertexOffset(pick)) / rate

        // 2. Step or stride?
        let fundamental = 1 / lag
        var isStride = fundamental < strideFrequencyLimit
        var bySpectrum = false
        if !isStride && 2 * fundamental <= maximumStepFrequency {
            isStride =
                Self.power(of: x, frequency: 2 * fundamental, rate: rate)
                > Self.power(of: x, frequency: fundamental, rate: rate)
            bySpectrum = isStride
        }
        let stepPeriod = isStride ? lag / 2 : lag
        guard stepPeriod * maximumStepFrequency >= 1 - 1e-9, stepPeriod * minimumStepFrequency <= 1 + 1e-9 else {
            return nil
        }

        // 3. Regularity.
        guard let step = correlation(atLag: stepPeriod * rate, lastLag: lastLag) else { return nil }
        let stride = correlation(atLag: 2 * stepPeriod * rate, lastLag: lastLag)
        // The spectrum's call can be wrong the other way: sharp impacts of a slow or limping walk put more power at
        // twice the step frequency. When L read as a stride does not repeat but L read as a step does (the window
        // repeats at 2L), L is the step.
        // (`stride` is ρ at L here: two step periods of L/2.)
        if bySpectrum, let atLag = stride, atLag < strideAlternativeFloor, lag * minimumStepFrequency <= 1 + 1e-9,
            let longStride = correlation(atLag: 2 * lag * rate, lastLag: lastLag), longStride >= strideAlternativeFloor
        {
            return GaitWindowEstimate(stepPeriod: lag, stepRegularity: atLag, strideRegularity: longStride)
        }
        return GaitWindowEstimate(stepPeriod: stepPeriod, stepRegularity: step, strideRegularity: stride)
    }

    /// The estimate of the window analysed last, with its step period read as a stride: the step period halved,
    /// the step regularity ρ at the new step period and the stride regularity ρ at the old one; nil when the half
    /// period is shorter than the shortest lag (a step faster than the fastest step frequency).
    ///
    /// - Parameter estimate: What ``analyze(_:)`` returned for that window.
    func halved(_ estimate: GaitWindowEstimate) -> GaitWindowEstimate? {
        let step = estimate.stepPeriod / 2
        guard analysedLastLag > 0, step * maximumStepFrequency >= 1 - 1e-9,
            let regularity = correlation(atLag: step * rate, lastLag: analysedLastLag)
        else { return nil }
        return GaitWindowEstimate(stepPeriod: step, stepRegularity: regularity, strideRegularity: estimate.stepRegularity)
    }

    private func isLocalMaximum(_ k: Int) -> Bool {
        correlation[k] >= correlation[k - 1] && correlation[k] > correlation[k + 1]
    }

    /// Offset in (−½, ½) of the vertex of the parabola through the correlation at `k − 1`, `k`, `k + 1`.
    private func vertexOffset(_ k: Int) -> Double {
        let left = correlation[k - 1]
        let centre = correlation[k]
        let right = correlation[k + 1]
        let curvature = left - 2 * centre + right
        guard curvature < 0 else { return 0 }
        return min(0.5, max(-0.5, 0.5 * (left - right) / curvature))
    }

    /// ρ at a fractional lag (samples) by quadratic interpolation through the three nearest lags; nil beyond
    /// `lastLag`.
    private func correlation(atLag u: Double, lastLag: Int) -> Double? {
        guard u >= Double(minimumLag - 1), u <= Double(lastLag) else { return nil }
        let centre = min(max(Int(u.rounded()), minimumLag), lastLag - 1)
        let d = u - Double(centre)
        let left = correlation[centre - 1]
        let mid = correlation[centre]
        let right = correlation[centre + 1]
        return mid + 0.5 * d * (right - left) + 0.5 * d * d * (right - 2 * mid + left)
    }

    /// `|Σ w[i]·x[i]·e^(−2πi·f·i/rate)|²` with the periodic Hann window `w[i] = ½ − ½·cos(2πi/n)`.
    ///
    /// Two phasor recurrences instead of per-sample `cos`/`sin`; no allocation.
    static func power(of x: Span<Double>, frequency: Double, rate: Double) -> Double {
        let n = x.count
        let step = 2 * Double.pi * frequency / rate
        let (stepCos, stepSin) = (Double.cos(step), Double.sin(step))
        let taperStep = 2 * Double.pi / Double(n)
        let (taperCos, taperSin) = (Double.cos(taperStep), Double.sin(taperStep))
        var (c, s) = (1.0, 0.0)  // e^(−i·step·k) = c − i·s
        var (tc, ts) = (1.0, 0.0)  // cos, sin of taperStep·k
        var real = 0.0
        var imaginary = 0.0
        for k in 0..<n {
            let weighted = (0.5 - 0.5 * tc) * x[k]
            real += weighted * c
            imaginary -= weighted * s
            (c, s) = (c * stepCos - s * stepSin, s * stepCos + c * stepSin)
            (tc, ts) = (tc * taperCos - ts * taperSin, ts * taperCos + tc * taperSin)
        }
        return real * real + imaginary * imaginary
    }
}
