import SensorSignal

extension WalkingProcessor {
    /// Fewest initial contacts a lower-back bout holds (two strides).
    static let lowerBackMinimumSteps = 4

    /// The steps and bouts of a lower-back sensor, with the Mobilise-D chain: gait sequences
    /// (``GaitSequenceDetector``, Paraschiv-Ionescu 2019) and, inside each, the initial contacts of ``LowerBackGait``
    /// (McCamley 2012 improved by Paraschiv-Ionescu 2020); every initial contact is a step.
    ///
    /// The step detector's signal features (regularities, dominant frequency, windows, resampling report) are kept;
    /// its steps, bouts and step intervals are replaced, and so are its verdicts on them. A sequence with fewer than
    /// ``lowerBackMinimumSteps`` contacts is not walking (and is counted in a warning). Each bout spans half its step
    /// period (the median of its contact intervals) before the first contact and after the last, within the recording;
    /// where two bouts would overlap, both end at the midpoint between their facing contacts.
    ///
    /// When the chain finds no bout but the step detector found steps (a recording too short for a gait sequence,
    /// which needs 5 step candidates in a pulse train: a 2–4 s walk; or walking too gentle for its 0.1 g
    /// threshold), the step detector's steps and bouts stand, with a warning, and the contacts are found inside its
    /// bouts, as with `--lower-back-steps detector`.
    ///
    /// - Returns: The detection and, per bout, its contacts and strides (for ``applyGait``); nil contacts when the
    ///   step detector's bouts stand.
    static func lowerBackDetection(
        _ detection: StepDetection, gait: GaitOptions, timestamps: [Double],
        axes: (x: [Double], y: [Double], z: [Double])
    ) -> (StepDetection, [LowerBackGait.BoutGait]?) {
        var result = detection
        result.warnings = detection.warnings.filter { !detection.stepVerdicts.contains($0) }
        result.stepVerdicts = []
        result.stepTimes = []
        result.interpolatedStepIndices = []
        result.bouts = []
        result.stepIntervals = []
        guard let rate = detection.samplingRate, let first = timestamps.first, let last = timestamps.last else {
            return (result, [])
        }
        let g = standardGravity
        let x = axes.x.map { $0 * g }
        let y = axes.y.map { $0 * g }
        let z = axes.z.map { $0 * g }
        let height = gait.effectiveSensorHeight.flatMap { GaitOptions.sensorHeightRange.contains($0) ? $0 : nil }
        let sequences = GaitSequenceDetector().detect(timestamps: timestamps, x: x, y: y, z: z, samplingRate: rate)
        let analyser = LowerBackGait()
        var gaits: [LowerBackGait.BoutGait] = []
        var bouts: [WalkingBout] = []
        var tooFew = 0
        for sequence in sequences {
            guard
                let found = analyser.analyze(
                    timestamps: timestamps, x: x, y: y, z: z, start: sequence.start, end: sequence.end,
                    samplingRate: rate, sensorHeight: height),
                found.initialContacts.count >= lowerBackMinimumSteps
            else {
                tooFew += 1
                continue
            }
            let contacts = found.initialContacts
            var intervals: [Double] = []
            for k in contacts.indices.dropFirst() { intervals.append(contacts[k] - contacts[k - 1]) }
            let accepted = intervals.filter { analyser.configuration.stepTimeRange.contains($0) }
            let period = RStatistics.median(accepted.isEmpty ? intervals : accepted)
            let offset = result.stepTimes.count
            bouts.append(
                WalkingBout(
                    start: max(contacts[0] - period / 2, first),
                    end: min(contacts[contacts.count - 1] + period / 2, last),
                    stepCount: contacts.count, interpolatedStepCount: 0, stepPeriod: period,
                    steps: offset..<(offset + contacts.count), detection: .gaitSequence))
            result.stepTimes += contacts
            result.stepIntervals += intervals
            gaits.append(found)
        }
        // Bouts never overlap: where two would, both end at the midpoint between their facing contacts.
        for k in bouts.indices.dropFirst() where bouts[k].start < bouts[k - 1].end {
            let boundary =
                (result.stepTimes[bouts[k - 1].steps.upperBound - 1] + result.stepTimes[bouts[k].steps.lowerBound]) / 2
            bouts[k - 1].end = min(bouts[k - 1].end, boundary)
            bouts[k].start = max(bouts[k].start, boundary)
        }
        if bouts.isEmpty && !detection.stepTimes.isEmpty {
            var kept = detection
            let span = (timestamps.last ?? 0) - (timestamps.first ?? 0)
            kept.warnings.append(
                "lower-back gait: no gait sequence of \(lowerBackMinimumSteps) initial contacts in "
                    + "\((span * 10).rounded() / 10) s of data (the Mobilise-D chain needs 5 step candidates in a "
                    + "pulse train, a walk of several seconds); the step detector's \(detection.stepTimes.count) steps "
                    + "are counted instead, with the contacts found inside its bouts")
            return (kept, nil)
        }
        result.bouts = bouts
        if tooFew > 0 {
            result.warnings.append(
                "lower-back gait: \(tooFew) of \(sequences.count) gait sequences had fewer than "
                    + "\(lowerBackMinimumSteps) initial contacts (two strides) and are not counted as walking")
        }
        if bouts.isEmpty {
            result.warnings.append(
                sequences.isEmpty
                    ? "no walking detected: no gait sequence (at least 5 step-like peaks of the filtered acceleration "
                        + "norm above 0.1 g at consistent intervals, Paraschiv-Ionescu 2019)"
                    : "no walking detected: no gait sequence held \(lowerBackMinimumSteps) initial contacts")
        }
        return (result, gaits)
    }
}
