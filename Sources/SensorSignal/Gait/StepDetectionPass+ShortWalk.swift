/// The short-walk analysis of a recording too short for any walking run (see ``StepDetector``, step 6b).
extension StepDetectionPass {
    /// Time at either end of a short recording left out of its step regularity, s.
    static let shortWalkEdgeMargin = 0.25

    /// `fraction` as a whole percentage, for messages (clamped, never trapping).
    static func percent(_ fraction: Double) -> Int {
        Int.clamped((fraction * 100).rounded(), to: -1_000_000...1_000_000)
    }

    /// Reads a segment of a short recording as one walk.
    ///
    /// Its band-passed peaks are the steps when there are at
    /// least ``StepDetector/Configuration/minimumShortRecordingSteps`` of them at an accepted step interval, every
    /// interval within ``StepDetector/Configuration/stepIntervalTolerance`` of their median, the step regularity at
    /// that median (over all but 0.25 s at either end) at least ``StepDetector/Configuration/minimumShortRecordingStepRegularity``, and at least
    /// ``StepDetector/Configuration/minimumShortRecordingBandFraction`` of the centred magnitude's energy in the
    /// analysis band. Adds one ``WalkingBout/Detection/shortRecording`` chain, or records why not.
    ///
    /// - Parameters:
    ///   - y: The band-passed segment, g.
    ///   - centred: The segment minus its mean, before the band-pass, g.
    ///   - segment: The resampled segment (for its times).
    ///   - index: The segment's index.
    mutating func detectShortWalk(signal y: [Double], centred: [Double], segment: UniformSegment, index: Int) {
        let n = y.count
        guard n >= 3 else { return }
        let energy = Reductions.sumOfSquares(y.span)
        let total = Reductions.sumOfSquares(centred.span)
        let rms = (energy / Double(n)).squareRoot()
        guard rms >= configuration.minimumAmplitude else {
            shortRecordingNote = "the phone was still (\(StepDetector.format(rms)) g RMS in the gait band)"
            return
        }
        let spacing = Int.clamped(0.75 / configuration.maximumStepFrequency * rate, to: 1...n)
        let floor = max(configuration.minimumProminence, configuration.relativeProminence * rms)
        let peaks = findPeaks(in: y.span, distance: spacing, prominence: PeakBounds(minimum: floor)).indices
        guard peaks.count >= configuration.minimumShortRecordingSteps else {
            shortRecordingNote =
                "\(peaks.count) step-like peaks, fewer than the \(configuration.minimumShortRecordingSteps) a short "
                + "walk needs"
            return
        }
        var intervals: [Double] = []
        intervals.reserveCapacity(peaks.count - 1)
        for k in 1..<peaks.count { intervals.append(Double(peaks[k] - peaks[k - 1]) / rate) }
        var sorted = intervals
        let period = Self.median(&sorted)
        guard period * configuration.maximumStepFrequency >= 1, period * configuration.minimumStepFrequency <= 1 else {
            shortRecordingNote = "its peaks are \(StepDetector.format(period)) s apart, not a step interval"
            return
        }
        let deviation = intervals.reduce(0) { max($0, abs($1 - period)) } / period
        guard deviation <= configuration.stepIntervalTolerance else {
            shortRecordingNote =
                "its step intervals vary by up to \(Self.percent(deviation)) % (a walk: at most "
                + "\(Self.percent(configuration.stepIntervalTolerance)) %)"
            return
        }
        // Over the interior: the zero-phase filter's edge transients (a step peak at either end is reflected
        // into the padding) would lower the regularity of a short walk by as much as 0.3.
        let lag = Int.clamped((period * rate).rounded(), to: 1...n)
        let margin = Int.clamped((Self.shortWalkEdgeMargin * rate).rounded(), to: 0...(n / 4))
        let interior = margin..<(n - margin)
        let regularity =
            interior.count > lag + 1 ? Self.normalizedProduct([y], range: interior, lag: lag) ?? 0 : 0
        // At most 1: the zero-phase filter's edge transients can add energy to a short segment.
        let share = total > 0 ? min(1, energy / total) : 0
        let summary =
            "step regularity \(StepDetector.format((regularity * 100).rounded() / 100)), "
            + "\(Self.percent(share)) % of its energy in the gait band"
        guard regularity >= configuration.minimumShortRecordingStepRegularity,
            share >= configuration.minimumShortRecordingBandFraction
        else {
            shortRecordingNote =
                "\(summary) (a walk: at least \(StepDetector.format(configuration.minimumShortRecordingStepRegularity)) "
                + "and \(Self.percent(configuration.minimumShortRecordingBandFraction)) %)"
            return
        }
        shortRecordingNote = summary
        var times: [Double] = []
        times.reserveCapacity(peaks.count)
        for g in peaks {
            let offset = g > 0 && g < n - 1 ? Self.vertexOffset(y[g - 1], y[g], y[g + 1]) : 0
            times.append(segment.time(at: g) + offset / rate)
        }
        stepRegularities.append(regularity)
        chains.append(
            Self.chain(
                times, period: period, detection: .shortRecording, signal: y, segment: segment, index: index,
                rate: rate))
    }
}
