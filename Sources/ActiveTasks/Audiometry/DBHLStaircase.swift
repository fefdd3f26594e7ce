import StudyInputs

/// ResearchKit's dB HL staircase (`ORKAudiometry`), a modified Hughson–Westlake procedure, as a value type.
///
/// Behaviour follows `researchkit-formats.md` §4.3 exactly, including its quirks: an initial descent that is
/// not counted, the miss list (+20/+10/+10 dB) before +5 dB steps, presentations provisionally counted as
/// heard, the acceptance rule (≥ 50 % of ≥ 2 presentations heard at the level, 100 % when exactly 2, and
/// ≤ 50 % of ≥ 2 heard 5 dB below or the level being the floor; or the floor heard more than twice during the
/// initial descent), the −10 dB HL floor, at most ``DBHLStaircaseParameters/maxPresentationsPerFrequency``
/// presentations per frequency, the clipping fallback and false alarms (taps before tone onset). Consecutive
/// list entries with the same frequency continue one test, as in ResearchKit.
///
/// Drive it like ResearchKit's step view controller does: read ``nextStimulus``, optionally
/// ``registerPreStimulusDelay(_:)``, call ``registerStimulusPlayback()`` at tone onset, then exactly one of
/// ``registerResponse(heard:at:)`` or ``signalClipped(at:)``; repeat until ``isFinished``. Times are seconds of
/// step runtime and only fill the units' timestamps. Responses after the end are ignored.
///
/// The presentation table is keyed by `Float(level)` and its counts are `Float`, as in ResearchKit, so the
/// ratios compare exactly as there. Memory: one unit per presentation; no other per-presentation allocation.
public struct DBHLStaircase: Sendable {
    /// One tone to present.
    public struct Stimulus: Sendable, Hashable {
        /// Tone frequency, Hz.
        public var frequency: Double
        /// Nominal level, dB HL.
        public var level: Double
        /// The ear.
        public var channel: ResearchKit.AudioChannel
    }

    /// Heard count and presentation count at one level (ResearchKit's `ORKAudiometryTransition`).
    private struct Tally {
        var heard: Float
        var presented: Float
    }

    /// The parameters.
    public let parameters: DBHLStaircaseParameters
    /// True once every frequency of the list has been tested.
    public private(set) var isFinished = false
    /// One sample per frequency started, in test order; the last one is still growing until ``isFinished``.
    /// A threshold of nil is ResearchKit's `DBL_MAX` ("no threshold").
    public private(set) var samples: [ResearchKit.DBHLToneAudiometryFrequencySample] = []
    /// The tone to present next (the last one presented once ``isFinished``).
    public private(set) var nextStimulus: Stimulus

    private var listIndex = 0
    private var previousFrequency = 0.0
    private var level: Double
    private var presentationCounter = 0
    private var missIndex = 0
    private var usingMissList = true
    private var initialDescent = true
    private var heardOnce = false
    private var floorCount = 0
    private var tallies: [Float: Tally] = [:]
    private var beforeOnset = true

    /// Starts a test: the first unit (at runtime 0) is presented at once.
    /// - Precondition: `parameters.problem == nil` (validate user input first).
    public init(parameters: DBHLStaircaseParameters = DBHLStaircaseParameters()) {
        precondition(parameters.problem == nil, "invalid staircase parameters: \(parameters.problem ?? "")")
        self.parameters = parameters
        level = parameters.initialLevel
        nextStimulus = Stimulus(frequency: parameters.frequencies[0], level: level, channel: parameters.channel)
        present(at: 0)
    }

    /// Index of the current frequency in the parameters' list.
    public var frequencyIndex: Int { listIndex }

    /// Records the silent gap before the current tone, s (stored in the current unit).
    public mutating func registerPreStimulusDelay(_ delay: Double) {
        guard !isFinished else { return }
        lastUnit { $0.preStimulusDelay = delay }
    }

    /// Marks tone onset: a tap from now on is a response, before it a false alarm.
    public mutating func registerStimulusPlayback() { beforeOnset = false }

    /// Registers a tap (`heard` true) or a timeout (`heard` false) at step runtime `time`, s, and moves on.
    public mutating func registerResponse(heard: Bool, at time: Double) {
        guard !isFinished else { return }
        if heard { acknowledged(at: time) } else { missed(at: time) }
    }

    /// Registers that the current tone would clip (§4.3.5) and moves on; `time` is the step runtime, s.
    ///
    /// While the miss list is in use the last miss-list increase is replaced by a step-up; otherwise the
    /// frequency is abandoned.
    public mutating func signalClipped(at time: Double) {
        guard !isFinished else { return }
        if usingMissList && missIndex <= parameters.missSteps.count {
            usingMissList = false
            level = level - parameters.missSteps[missIndex == 0 ? 0 : missIndex - 1] + parameters.stepUp
            present(at: time)
        } else {
            advanceFrequency(at: time)
        }
    }

    // MARK: - ResearchKit's transitions

    private mutating func acknowledged(at time: Double) {
        heardOnce = true
        lastUnit { $0.userTapTimeStamp = time }
        let key = Float(level)
        if beforeOnset {
            tallies[key]?.heard -= 1
        } else if accepts(level) {
            samples[samples.count - 1].calculatedThreshold = level
            level = parameters.initialLevel
            advanceFrequency(at: time)
            return
        }
        if !beforeOnset {
            usingMissList = false
            if level - parameters.stepDown > parameters.floor {
                level -= parameters.stepDown
            } else {
                level = parameters.floor
                if initialDescent { floorCount += 1 }
            }
        }
        present(at: time)
    }

    private mutating func missed(at time: Double) {
        guard listIndex < parameters.frequencies.count else { return }
        let key = Float(level)
        let hadRecord = tallies[key] != nil
        var replaced = false
        if initialDescent && heardOnce {
            initialDescent = false
            tallies[key] = Tally(heard: 0, presented: 1)
            replaced = true
        }
        if usingMissList && missIndex < parameters.missSteps.count {
            level += parameters.missSteps[missIndex]
            missIndex += 1
        } else {
            usingMissList = false
            level += parameters.stepUp
        }
        // ResearchKit decrements the record it looked up before the overwrite; an overwritten one is discarded.
        if hadRecord && !replaced { tallies[key]?.heard -= 1 }
        lastUnit { $0.timeoutTimeStamp = time }
        present(at: time)
    }

    /// `validateResultFordBHL`: the acceptance test at a genuine hit (the hit already counted in the table).
    private func accepts(_ level: Double) -> Bool {
        let key = Float(level)
        if let c = tallies[key], c.heard / c.presented >= 0.5, c.presented >= 2 {
            let p = tallies[Float(level - parameters.stepUp)]
            let below = p.map { $0.heard / $0.presented <= 0.5 && $0.presented >= 2 } ?? false
            guard below || Double(key) == parameters.floor else { return false }
            return c.presented == 2 ? c.heard / c.presented == 1 : true
        }
        return floorCount > 2
    }

    private mutating func advanceFrequency(at time: Double) {
        listIndex += 1
        if listIndex >= parameters.frequencies.count {
            isFinished = true
        } else {
            present(at: time)
        }
    }

    /// `estimatedBHLForFrequency`: starts a frequency (when it differs from the previous one) or counts one
    /// more presentation of the current one, abandoning it at the limit; then adds a unit at the current level.
    private mutating func present(at time: Double) {
        while true {
            let frequency = parameters.frequencies[listIndex]
            if previousFrequency != frequency {
                presentationCounter = 0
                level = parameters.initialLevel
                initialDescent = true
                heardOnce = false
                usingMissList = true
                missIndex = 0
                floorCount = 0
                tallies.removeAll(keepingCapacity: true)
                previousFrequency = frequency
                samples.append(
                    ResearchKit.DBHLToneAudiometryFrequencySample(
                        frequency: frequency, calculatedThreshold: nil, channel: parameters.channel))
                break
            }
            presentationCounter += 1
            guard presentationCounter >= parameters.maxPresentationsPerFrequency else { break }
            listIndex += 1
            if listIndex >= parameters.frequencies.count {
                isFinished = true
                return
            }
        }
        samples[samples.count - 1].units.append(
            ResearchKit.DBHLToneAudiometryUnit(
                dBHLValue: level, startOfUnitTimeStamp: time, preStimulusDelay: 0, userTapTimeStamp: 0,
                timeoutTimeStamp: 0))
        if !initialDescent {
            let key = Float(level)
            if tallies[key] != nil {
                tallies[key]!.heard += 1
                tallies[key]!.presented += 1
            } else {
                tallies[key] = Tally(heard: 1, presented: 1)
            }
        }
        beforeOnset = true
        nextStimulus = Stimulus(frequency: parameters.frequencies[listIndex], level: level, channel: parameters.channel)
    }

    private mutating func lastUnit(_ change: (inout ResearchKit.DBHLToneAudiometryUnit) -> Void) {
        guard !samples.isEmpty, !samples[samples.count - 1].units.isEmpty else { return }
        let s = samples.count - 1
        change(&samples[s].units[samples[s].units.count - 1])
    }
}

extension DBHLStaircase {
    /// Runs a whole test the way ResearchKit's conformance test does (`ORKAudiometryTests.m`): every tone is
    /// played (no clipping, no false alarms, all timestamps 0) and answered with `hears`.
    /// - Parameter hears: whether the listener hears a stimulus.
    /// - Returns: the frequency samples.
    public static func run(
        parameters: DBHLStaircaseParameters = DBHLStaircaseParameters(), hears: (Stimulus) -> Bool
    ) -> [ResearchKit.DBHLToneAudiometryFrequencySample] {
        var engine = DBHLStaircase(parameters: parameters)
        while !engine.isFinished {
            let s = engine.nextStimulus
            engine.registerStimulusPlayback()
            engine.registerResponse(heard: hears(s), at: 0)
        }
        return engine.samples
    }
}
