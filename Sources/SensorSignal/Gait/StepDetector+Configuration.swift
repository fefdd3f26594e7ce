extension StepDetector {
    /// Every parameter of ``StepDetector``, each with its unit and the physical reason for its default.
    ///
    /// The defaults are set from gait physiology and signal statistics, not fitted to a data set:
    /// - step frequencies 0.65–2.5 Hz (39–150 steps/min) span very slow pathological walking to brisk walking;
    ///   running starts above (counts are validated from 48 steps/min on real data and 42 on synthetic impacts);
    /// - the 0.5–3 Hz band keeps the step fundamental of that range and the stride (half the step frequency) of
    ///   all but the slowest walkers, and removes gravity, posture changes and impact harmonics;
    /// - 6 s windows hold at least two strides at 48 steps/min with 1 s to spare; band-limited noise reaches a
    ///   stride autocorrelation of 0.6 in about 0.3 % of such windows, while every walking window of the reference
    ///   recordings (hand, front and back pocket, neck pouch) exceeds 0.69; slower windows (under 48 steps/min) need
    ///   0.8, since the longer lags give random motion more chances;
    /// - amplitude floors of 0.02 g RMS and 0.05 g per step are 10× and 25× the band-limited noise of a phone
    ///   lying still (about 0.002 g RMS).
    ///
    /// `Codable`, so a run can record the exact parameters it used.
    public struct Configuration: Sendable, Hashable, Codable {
        /// Lower edge of the analysis band, Hz (Butterworth −3 dB point).
        ///
        /// Default 0.5.
        public var lowCutoff: Double
        /// Upper edge of the analysis band, Hz; lowered to 0.45 × the sampling rate when that is smaller.
        ///
        /// Default 3.0.
        public var highCutoff: Double
        /// Butterworth prototype order; the band-pass has twice this order and is run forward and backward (zero
        /// phase), doubling the attenuation in dB.
        ///
        /// Default 2.
        public var filterOrder: Int
        /// Slowest step frequency accepted, Hz (steps/s).
        ///
        /// Default 0.65 (39 steps/min). A window whose step is slower than ``strideFrequencyLimit`` also needs a
        /// stride regularity of ``minimumSlowStrideRegularity`` (random motion finds some repetition among the long
        /// lags this range adds). Counts are right from 42 steps/min up (a synthetic walk of impacts) and wrong below
        /// (see the README).
        public var minimumStepFrequency: Double
        /// Fastest step frequency accepted, Hz.
        ///
        /// Default 2.5 (150 steps/min).
        public var maximumStepFrequency: Double
        /// Length of an analysis window, s.
        ///
        /// Default 6.
        public var windowDuration: Double
        /// Spacing of analysis windows, s.
        ///
        /// Default 0.5.
        public var windowHop: Double
        /// Lowest rate the band-passed signal is decimated to for window analysis, Hz; the decimation factor is
        /// `⌊samplingRate / analysisRate⌋` (at least 1).
        ///
        /// Default 10.
        public var analysisRate: Double
        /// Shortest overlap of a window with its shifted copy when computing an autocorrelation lag, s.
        ///
        /// Default 1.
        public var minimumLagOverlap: Double
        /// A candidate period is the shortest autocorrelation peak reaching this fraction of the highest one (0…1).
        ///
        /// Default 0.5.
        public var fundamentalFraction: Double
        /// Smallest RMS of the band-passed magnitude for a window to count as walking, g.
        ///
        /// Default 0.02.
        public var minimumAmplitude: Double
        /// Smallest stride regularity (normalised autocorrelation at two step periods) for a window to count as
        /// walking.
        ///
        /// Default 0.6.
        public var minimumStrideRegularity: Double
        /// Shortest run of walking windows kept, s.
        ///
        /// Default 1.5: a window of random motion reaches the stride-regularity floor now and then, and consecutive
        /// windows share all but ``windowHop`` of their length, so such chance windows come in clusters; the chains
        /// they make are set aside by the gait-band checks (``minimumChainBandFraction``,
        /// ``minimumIrregularChainNoiseRatio``), and over 300 synthetic 120 s white-noise recordings at 100 Hz and at
        /// 25 Hz (`RandomMotionSurveyTests`) none leaves a step. Chosen by leave-one-participant-out over 1.5–4.5 s
        /// (docs/walking.md): runs of 1.5 s count more of the slow real walkers' short rhythm runs (WeAllWalk
        /// long-cane MAPE 2.53 % with 3 s, 2.35 % with 1.5 s; cross-validated 2.49 %).
        public var minimumRunDuration: Double
        /// Runs of walking windows separated by at most this are merged, s.
        ///
        /// Default 1.
        public var runMergeGap: Double
        /// How far step peaks are searched beyond a run of walking windows, s: a window is labelled at its centre, so a
        /// run can start or end up to half a window inside the walk.
        ///
        /// Default 3 (half of ``windowDuration``).
        public var runExtension: Double
        /// Minimum distance between two step peaks as a fraction of the local step period.
        ///
        /// Default 0.6.
        public var peakDistanceFraction: Double
        /// Minimum peak prominence as a fraction of the RMS of the band-passed magnitude around the run.
        ///
        /// Default 0.25.
        public var relativeProminence: Double
        /// Minimum peak prominence, g.
        ///
        /// Default 0.05.
        public var minimumProminence: Double
        /// Consecutive steps further apart than this many local step periods start a new chain.
        ///
        /// Default 2.
        public var maximumStepGap: Double
        /// Chains with fewer steps are discarded.
        ///
        /// Default 4.
        public var minimumStepsPerBout: Int
        /// Fraction of a walking chain's median peak prominence under which its first and last peaks are the sway of
        /// starting or stopping, not steps, and are dropped (never below ``minimumStepsPerBout`` steps).
        ///
        /// Default 0.25 (1/3 was tried on the development files and trimmed real long-cane steps; docs/walking.md
        /// gives its leave-one-participant-out check).
        public var edgeStepProminenceFraction: Double
        /// Intervals between samples up to this long are bridged by linear interpolation, s; longer ones split the
        /// recording (so do intervals over 2.5 × the nominal interval at rates below 10 Hz).
        ///
        /// Default 0.25, below half the shortest step period at 2.5 Hz, so no step can hide inside a bridged dropout.
        public var maximumInterpolatedInterval: Double
        /// Segments between gaps shorter than this are not analysed, s.
        ///
        /// Default 1.5.
        public var minimumSegmentDuration: Double
        /// Largest unobserved time walked through, s: when two bouts on either side of a data gap have step periods
        /// within ``bridgePeriodTolerance`` and the time between their facing steps, less two step periods, is at most
        /// this, the missing steps are interpolated.
        ///
        /// Default 3.
        public var maximumBridgedGap: Double
        /// Largest relative difference `|T₁ − T₂| / mean(T₁, T₂)` of the step periods of two bouts joined across a gap.
        ///
        /// Default 0.25.
        public var bridgePeriodTolerance: Double
        /// Welch segment length for ``StepDetection/dominantFrequency``, s.
        ///
        /// Default 10.
        public var spectrumSegmentDuration: Double
        /// A window's fundamental slower than this is a stride (two steps), Hz (at most ``minimumStepFrequency`` in
        /// effect, since slower fundamentals are no step); the run's peaks then confirm the step period or show it
        /// to be twice as long (see ``StepDetector``).
        ///
        /// Default 0.8: strides of ordinary walking (0.8–1.1 Hz) and steps of very slow walking overlap, so the
        /// window alone cannot tell them apart.
        public var strideFrequencyLimit: Double
        /// Smallest stride regularity of a window whose step frequency is under ``strideFrequencyLimit`` (very slow
        /// walking) for it to count as walking.
        ///
        /// Default 0.8: with the floor at ``minimumStrideRegularity`` alone, 0.3 g random motion passed as 33 steps
        /// in 120 s once slow steps were accepted.
        public var minimumSlowStrideRegularity: Double
        /// Whether a window may be recognised as a device swinging once per stride (a wrist, or a hand swinging at
        /// the side), when the three axes are given (``StepDetector/detect(timestamps:magnitude:axes:samplingRate:)``).
        ///
        /// Default true. At the wrist the arm's own acceleration at the step frequency can cancel most of the
        /// body's step rhythm in |a|, which then repeats once per stride; the axes still show the swing. A window is
        /// an arm swing when, at the window's period P from |a|, P / 2 is an accepted step period, the band-passed
        /// three-axis signal repeats at P (normalised vector autocorrelation ≥ ``minimumStrideRegularity``),
        /// reverses at P / 2 (≤ ``maximumArmSwingReversal``) and is at least ``minimumArmSwingRatio`` times as
        /// large as the band-passed |a|: the period is then a stride, and each swing is two steps.
        public var detectsArmSwing: Bool
        /// Largest normalised vector autocorrelation of the band-passed axes at half the window's period for an
        /// arm swing (−1…1): the device is at the other end of its swing half a stride later.
        ///
        /// Default −0.3.
        public var maximumArmSwingReversal: Double
        /// Smallest ratio of the band-passed three-axis RMS (the vector's length) to the band-passed |a| RMS for an
        /// arm swing.
        ///
        /// Default 2: a swinging device's axes see the swing (its rotation through gravity and its tangential
        /// acceleration, both perpendicular to |a|'s change); a phone carried in the hand or a pocket moves mostly
        /// along |a|, with a ratio near 1.
        public var minimumArmSwingRatio: Double
        /// Shortest run of walking windows read as an arm swing, s; a shorter run is read from |a| alone.
        ///
        /// Default 15: a rhythmic arm movement without walking looks the same to a wrist sensor — the finger-to-nose
        /// movement of ResearchKit's kinetic tremor task (10 s by default; its public mPower recording gave 17 "steps"
        /// as an arm swing), waving, wiping — so a swing counts as walking only when sustained.
        public var minimumArmSwingDuration: Double
        /// Longest interval between two steps of a step sequence, s (the step-sequence pass; also the margin, half
        /// of it, within which a peak at a segment's edge is neither trimmed nor used by that pass).
        ///
        /// Default 1.25 (48 steps/min): slower steps in a short bout are not told apart from pauses.
        public var maximumSequenceInterval: Double
        /// Whether short and irregular bouts are searched for outside the rhythmic runs (the *step-sequence* pass,
        /// see ``StepDetector``).
        ///
        /// Default true.
        public var detectsStepSequences: Bool
        /// Largest relative change of a step interval from the median of the sequence so far,
        /// `|Δt − T| / T`, in the step-sequence pass.
        ///
        /// Default 0.3: consecutive steps of slow, shuffling or cane-assisted gait vary by 10–25 %; a larger change
        /// is a pause, a turn on the spot or not walking.
        public var stepIntervalTolerance: Double
        /// Half-length of the centred window over which the step-sequence pass measures the RMS that scales
        /// ``relativeProminence``, s.
        ///
        /// Default 2 (about two strides at 48 steps/min).
        public var localAmplitudeHalfWindow: Double
        /// Smallest step regularity of a step sequence (the normalised autocorrelation of the band-passed magnitude
        /// over the sequence at one step period): consecutive steps look alike, random peaks do not.
        ///
        /// Default 0.3.
        public var minimumSequenceStepRegularity: Double
        /// Whether a recording too short for a walking run (every segment shorter than ``shortRecordingDuration``)
        /// is analysed as one short walk (see ``StepDetector``, step 6b).
        ///
        /// Default true.
        public var countsShortRecordings: Bool
        /// Fewest steps a short recording is counted with.
        ///
        /// Default 3: a 2 s walk at 1.6 steps/s holds 3.2 steps.
        public var minimumShortRecordingSteps: Int
        /// Smallest step regularity of a short recording (the normalised autocorrelation of the band-passed
        /// magnitude at the median step interval, over the recording but 0.25 s at either end, where the filter's
        /// edge transients are).
        ///
        /// Default 0.5. On 2 s excerpts of the shared data (`ShortWalkRealDataTests`, docs/walking.md): white noise
        /// passes 8 in 1,500, tremor, balance and still recordings never, non-walking daily activities 5 in 144;
        /// 63 % of 2 s excerpts of the WeAllWalk walks are counted within a step.
        public var minimumShortRecordingStepRegularity: Double
        /// Smallest share of the centred magnitude's energy inside the analysis band that a short recording needs
        /// (walking puts most of it at the step frequency; noise and impacts spread it to higher frequencies).
        ///
        /// Default 0.4.
        public var minimumShortRecordingBandFraction: Double
        /// Smallest share of a chain's centred magnitude energy inside the analysis band (over the chain, from half
        /// a step period before its first step to half after its last) for its steps to count; a chain below it is
        /// set aside and cannot confirm step sequences. Short recordings have their own bound
        /// (``minimumShortRecordingBandFraction``).
        ///
        /// Default 0.1: white noise puts (band width) / (rate / 2) of its energy in the band, 5 % at 100 Hz, and
        /// its chance chains held 3.1–5.3 % (`RandomMotionSurveyTests`); the development walks' chains hold 14.6 %
        /// and more (long-cane walkers at 25 Hz, whose cane taps add energy above the band; 24.9 % and more at
        /// 50 Hz and faster). The bound is half way between 5.3 % and 14.6 %. Below about 50 Hz white noise
        /// itself holds 10 % or more, and the check does not separate it.
        public var minimumChainBandFraction: Double
        /// Smallest in-band share of an irregular rhythm chain, in multiples of white noise's share at the rate.
        ///
        /// An irregular chain is one whose strides do not repeat over it (stride regularity over the chain under
        /// ``minimumStrideRegularity``); white noise's share is the band-pass's equivalent noise bandwidth over
        /// rate / 2 (4.2 % at 100 Hz, 16.7 % at 25 Hz). A chain below it is set aside like one below
        /// ``minimumChainBandFraction``. 0 turns the check off.
        ///
        /// Default 1.5. Below about 50 Hz white noise holds more than ``minimumChainBandFraction`` of its energy in
        /// the band, and its chance rhythm chains (white noise at 25 Hz, `RandomMotionSurveyTests`) held 0.65–1.39
        /// times the white-noise share, every one with a stride regularity under 0.6; real walks are either regular
        /// over the chain or further from noise (the development walks' irregular rhythm chains at 25 Hz: 18 steps
        /// in 3 chains below 1.5 times, of about 11,000; docs/walking.md).
        public var minimumIrregularChainNoiseRatio: Double
        /// A recording whose every segment is shorter than this is read as one short walk (see ``StepDetector``,
        /// step 6b), and the rhythm pass does not run on it, s.
        ///
        /// Default 3: a 2 s ResearchKit walking step holds one 6 s window at most, whose regularity says little.
        public var shortRecordingDuration: Double

        /// Creates a configuration; every parameter has its documented default.
        ///
        /// - Parameters:
        ///   - lowCutoff: Analysis band lower edge, Hz.
        ///   - highCutoff: Analysis band upper edge, Hz.
        ///   - filterOrder: Butterworth prototype order (≥ 1).
        ///   - minimumStepFrequency: Slowest step frequency, Hz.
        ///   - maximumStepFrequency: Fastest step frequency, Hz.
        ///   - windowDuration: Analysis window, s.
        ///   - windowHop: Window spacing, s.
        ///   - analysisRate: Lowest decimated analysis rate, Hz.
        ///   - minimumLagOverlap: Shortest lag overlap, s.
        ///   - fundamentalFraction: Period pick threshold, fraction of the highest autocorrelation peak.
        ///   - minimumAmplitude: Window RMS floor, g.
        ///   - minimumStrideRegularity: Window stride-regularity floor.
        ///   - minimumRunDuration: Shortest walking run, s.
        ///   - runMergeGap: Largest gap merged between runs, s.
        ///   - runExtension: Peak search beyond a run, s.
        ///   - peakDistanceFraction: Peak spacing, fraction of the step period.
        ///   - relativeProminence: Prominence floor, fraction of the local RMS.
        ///   - minimumProminence: Prominence floor, g.
        ///   - maximumStepGap: Chain break, step periods.
        ///   - minimumStepsPerBout: Fewest steps in a bout.
        ///   - edgeStepProminenceFraction: Edge-peak trim, fraction of a chain's median prominence.
        ///   - maximumInterpolatedInterval: Longest interpolated dropout, s.
        ///   - minimumSegmentDuration: Shortest analysed segment, s.
        ///   - maximumBridgedGap: Longest unobserved time walked through, s.
        ///   - bridgePeriodTolerance: Step-period agreement needed to bridge.
        ///   - spectrumSegmentDuration: Welch segment for the dominant frequency, s.
        ///   - detectsStepSequences: Whether the step-sequence pass runs.
        ///   - stepIntervalTolerance: Largest relative step-interval change in a step sequence.
        ///   - localAmplitudeHalfWindow: Half-window of the step-sequence pass's local RMS, s.
        ///   - minimumSequenceStepRegularity: Step-regularity floor of a step sequence.
        ///   - strideFrequencyLimit: Fundamental below which a window's period is a stride, Hz.
        ///   - maximumSequenceInterval: Longest step interval of a step sequence, s.
        ///   - minimumSlowStrideRegularity: Stride-regularity floor of a window slower than `strideFrequencyLimit`.
        ///   - detectsArmSwing: Whether windows swinging once per stride are recognised (three axes only).
        ///   - maximumArmSwingReversal: Largest vector autocorrelation at half the period for an arm swing.
        ///   - minimumArmSwingRatio: Smallest axes-to-|a| RMS ratio for an arm swing.
        ///   - minimumArmSwingDuration: Shortest walking run read as an arm swing, s.
        ///   - countsShortRecordings: Whether a recording shorter than one walking run is analysed as a short walk.
        ///   - minimumShortRecordingSteps: Fewest steps of a short recording.
        ///   - minimumShortRecordingStepRegularity: Step-regularity floor of a short recording.
        ///   - minimumShortRecordingBandFraction: Smallest in-band share of a short recording's energy.
        ///   - minimumChainBandFraction: Smallest in-band share of a chain's energy.
        ///   - shortRecordingDuration: Longest segment of a recording read as one short walk, s.
        ///   - minimumIrregularChainNoiseRatio: Smallest in-band share of an irregular rhythm chain, in multiples of
        ///     white noise's share at the recording's rate.
        public init(
            lowCutoff: Double = 0.5, highCutoff: Double = 3.0, filterOrder: Int = 2,
            minimumStepFrequency: Double = 0.65, maximumStepFrequency: Double = 2.5,
            windowDuration: Double = 6, windowHop: Double = 0.5, analysisRate: Double = 10,
            minimumLagOverlap: Double = 1, fundamentalFraction: Double = 0.5, minimumAmplitude: Double = 0.02,
            minimumStrideRegularity: Double = 0.6, minimumRunDuration: Double = 1.5, runMergeGap: Double = 1,
            runExtension: Double = 3, peakDistanceFraction: Double = 0.6, relativeProminence: Double = 0.25,
            minimumProminence: Double = 0.05, maximumStepGap: Double = 2, minimumStepsPerBout: Int = 4,
            edgeStepProminenceFraction: Double = 0.25,
            maximumInterpolatedInterval: Double = 0.25, minimumSegmentDuration: Double = 1.5,
            maximumBridgedGap: Double = 3, bridgePeriodTolerance: Double = 0.25, spectrumSegmentDuration: Double = 10,
            detectsStepSequences: Bool = true, stepIntervalTolerance: Double = 0.3,
            localAmplitudeHalfWindow: Double = 2, minimumSequenceStepRegularity: Double = 0.3,
            strideFrequencyLimit: Double = 0.8, maximumSequenceInterval: Double = 1.25,
            minimumSlowStrideRegularity: Double = 0.8, detectsArmSwing: Bool = true,
            maximumArmSwingReversal: Double = -0.3, minimumArmSwingRatio: Double = 2,
            minimumArmSwingDuration: Double = 15, countsShortRecordings: Bool = true,
            minimumShortRecordingSteps: Int = 3, minimumShortRecordingStepRegularity: Double = 0.5,
            minimumShortRecordingBandFraction: Double = 0.4, minimumChainBandFraction: Double = 0.1,
            shortRecordingDuration: Double = 3, minimumIrregularChainNoiseRatio: Double = 1.5
        ) {
            self.lowCutoff = lowCutoff
            self.highCutoff = highCutoff
            self.filterOrder = filterOrder
            self.minimumStepFrequency = minimumStepFrequency
            self.maximumStepFrequency = maximumStepFrequency
            self.windowDuration = windowDuration
            self.windowHop = windowHop
            self.analysisRate = analysisRate
            self.minimumLagOverlap = minimumLagOverlap
            self.fundamentalFraction = fundamentalFraction
            self.minimumAmplitude = minimumAmplitude
            self.minimumStrideRegularity = minimumStrideRegularity
            self.minimumRunDuration = minimumRunDuration
            self.runMergeGap = runMergeGap
            self.runExtension = runExtension
            self.peakDistanceFraction = peakDistanceFraction
            self.relativeProminence = relativeProminence
            self.minimumProminence = minimumProminence
            self.maximumStepGap = maximumStepGap
            self.minimumStepsPerBout = minimumStepsPerBout
            self.edgeStepProminenceFraction = edgeStepProminenceFraction
            self.maximumInterpolatedInterval = maximumInterpolatedInterval
            self.minimumSegmentDuration = minimumSegmentDuration
            self.maximumBridgedGap = maximumBridgedGap
            self.bridgePeriodTolerance = bridgePeriodTolerance
            self.spectrumSegmentDuration = spectrumSegmentDuration
            self.detectsStepSequences = detectsStepSequences
            self.stepIntervalTolerance = stepIntervalTolerance
            self.localAmplitudeHalfWindow = localAmplitudeHalfWindow
            self.minimumSequenceStepRegularity = minimumSequenceStepRegularity
            self.strideFrequencyLimit = strideFrequencyLimit
            self.maximumSequenceInterval = maximumSequenceInterval
            self.minimumSlowStrideRegularity = minimumSlowStrideRegularity
            self.detectsArmSwing = detectsArmSwing
            self.maximumArmSwingReversal = maximumArmSwingReversal
            self.minimumArmSwingRatio = minimumArmSwingRatio
            self.minimumArmSwingDuration = minimumArmSwingDuration
            self.countsShortRecordings = countsShortRecordings
            self.minimumShortRecordingSteps = minimumShortRecordingSteps
            self.minimumShortRecordingStepRegularity = minimumShortRecordingStepRegularity
            self.minimumShortRecordingBandFraction = minimumShortRecordingBandFraction
            self.minimumChainBandFraction = minimumChainBandFraction
            self.minimumIrregularChainNoiseRatio = minimumIrregularChainNoiseRatio
            self.shortRecordingDuration = shortRecordingDuration
        }

        /// Stops with the offending value when a parameter is out of range (a programmer error).
        func check() {
            precondition(
                lowCutoff > 0 && lowCutoff < highCutoff && highCutoff.isFinite,
                "StepDetector: need 0 < lowCutoff < highCutoff, were \(lowCutoff) and \(highCutoff)")
            precondition(
                filterOrder >= 1 && filterOrder <= 8, "StepDetector: filterOrder must be 1…8, was \(filterOrder)")
            precondition(
                minimumStepFrequency > 0 && minimumStepFrequency < maximumStepFrequency
                    && maximumStepFrequency.isFinite,
                "StepDetector: need 0 < minimumStepFrequency < maximumStepFrequency, were "
                    + "\(minimumStepFrequency) and \(maximumStepFrequency)")
            precondition(
                windowDuration > 0 && windowHop > 0 && windowHop.isFinite && windowDuration.isFinite,
                "StepDetector: windowDuration and windowHop must be positive, were \(windowDuration) and \(windowHop)")
            precondition(analysisRate > 0 && analysisRate.isFinite, "StepDetector: analysisRate must be positive")
            precondition(minimumLagOverlap > 0, "StepDetector: minimumLagOverlap must be positive")
            precondition(
                fundamentalFraction > 0 && fundamentalFraction <= 1,
                "StepDetector: fundamentalFraction must be in (0, 1]")
            precondition(minimumAmplitude >= 0 && minimumProminence >= 0, "StepDetector: amplitude floors must be ≥ 0")
            precondition(
                peakDistanceFraction > 0 && peakDistanceFraction < 1,
                "StepDetector: peakDistanceFraction must be in (0, 1)")
            precondition(maximumStepGap > 1, "StepDetector: maximumStepGap must exceed 1 step period")
            precondition(minimumStepsPerBout >= 1, "StepDetector: minimumStepsPerBout must be ≥ 1")
            precondition(
                edgeStepProminenceFraction >= 0 && edgeStepProminenceFraction <= 1,
                "StepDetector: edgeStepProminenceFraction must be in [0, 1], was \(edgeStepProminenceFraction)")
            precondition(
                minimumShortRecordingSteps >= 2 && minimumShortRecordingBandFraction >= 0
                    && minimumChainBandFraction >= 0 && minimumChainBandFraction <= 1
                    && minimumIrregularChainNoiseRatio >= 0,
                "StepDetector: minimumShortRecordingSteps must be ≥ 2, band fractions in [0, 1], noise ratio ≥ 0")
            precondition(maximumInterpolatedInterval > 0, "StepDetector: maximumInterpolatedInterval must be positive")
            precondition(
                minimumRunDuration >= 0 && shortRecordingDuration >= 0 && runMergeGap >= 0 && runExtension >= 0 && minimumSegmentDuration >= 0
                    && maximumBridgedGap >= 0 && bridgePeriodTolerance >= 0 && relativeProminence >= 0,
                "StepDetector: durations and tolerances must be ≥ 0")
            precondition(spectrumSegmentDuration > 0, "StepDetector: spectrumSegmentDuration must be positive")
            precondition(
                stepIntervalTolerance > 0 && stepIntervalTolerance < 1 && localAmplitudeHalfWindow > 0
                    && localAmplitudeHalfWindow.isFinite,
                "StepDetector: need 0 < stepIntervalTolerance < 1, localAmplitudeHalfWindow > 0")
            precondition(
                strideFrequencyLimit > 0 && strideFrequencyLimit.isFinite && maximumSequenceInterval > 0
                    && maximumSequenceInterval.isFinite,
                "StepDetector: strideFrequencyLimit and maximumSequenceInterval must be positive and finite")
            precondition(
                maximumArmSwingReversal >= -1 && maximumArmSwingReversal <= 1 && minimumArmSwingRatio >= 0
                    && minimumArmSwingRatio.isFinite && minimumArmSwingDuration >= 0,
                "StepDetector: need −1 ≤ maximumArmSwingReversal ≤ 1 and a finite minimumArmSwingRatio ≥ 0")
        }
    }
}
