import StudyInputs

/// A threshold re-derived from the recorded presentations of one frequency, independently of the recorded
/// `calculatedThreshold`.
///
/// The units are replayed through ``DBHLStaircase`` (same parameters): each unit's outcome is read from its
/// timestamps (§1.3: both tap and timeout 0 = clipped; a tap before `startOfUnitTimeStamp + preStimulusDelay` =
/// false alarm; a later tap = heard; a timeout = missed) and fed to the engine, checking that the engine asks for
/// the level the unit recorded. The re-derived threshold is the one the engine accepts; it is nil when the
/// engine accepts none. When the recorded levels leave the staircase (other step parameters, edited data,
/// another engine) the replay stops there and ``divergence`` says where.
public struct ThresholdRederivation: Sendable, Hashable, Codable {
    /// The re-derived threshold, dB HL; nil when none was accepted (or the replay diverged first).
    public var threshold: Double?
    /// 1-based index of the unit whose response was accepted as the threshold.
    public var acceptedAtUnit: Int?
    /// Where and how the recorded units stop following the staircase; nil when they follow it to the end.
    public var divergence: String?

    /// Creates a re-derivation.
    public init(threshold: Double?, acceptedAtUnit: Int?, divergence: String?) {
        self.threshold = threshold
        self.acceptedAtUnit = acceptedAtUnit
        self.divergence = divergence
    }

    /// Replays `sample`'s units with `parameters` (its frequency list is replaced by the sample's frequency).
    public static func rederive(
        _ sample: ResearchKit.DBHLToneAudiometryFrequencySample,
        parameters: DBHLStaircaseParameters = DBHLStaircaseParameters()
    ) -> ThresholdRederivation {
        var p = parameters
        p.frequencies = [sample.frequency]
        p.channel = sample.channel
        guard p.problem == nil, !sample.units.isEmpty else {
            return ThresholdRederivation(
                threshold: nil, acceptedAtUnit: nil,
                divergence: sample.units.isEmpty ? "no units were recorded" : "invalid parameters: \(p.problem!)")
        }
        var engine = DBHLStaircase(parameters: p)
        for (k, unit) in sample.units.enumerated() {
            let n = k + 1
            if engine.isFinished {
                let done = engine.samples.first?.calculatedThreshold != nil ? "accepted a threshold" : "ended the frequency"
                return ThresholdRederivation(
                    threshold: engine.samples.first?.calculatedThreshold,
                    acceptedAtUnit: engine.samples.first?.calculatedThreshold != nil ? k : nil,
                    divergence: "the staircase \(done) after unit \(k), but \(sample.units.count - k) more unit(s) follow")
            }
            let expected = engine.nextStimulus.level
            guard abs(expected - unit.dBHLValue) < 1e-6 else {
                return ThresholdRederivation(
                    threshold: nil, acceptedAtUnit: nil,
                    divergence: "unit \(n) was presented at \(ResultEncoding.number(unit.dBHLValue)) dB HL where the "
                        + "staircase presents \(ResultEncoding.number(expected)) dB HL")
            }
            engine.registerPreStimulusDelay(unit.preStimulusDelay)
            let time = unit.wasTapped ? unit.userTapTimeStamp : unit.timeoutTimeStamp
            if unit.wasAborted {
                engine.registerStimulusPlayback()
                engine.signalClipped(at: unit.toneOnset)
            } else if unit.isFalseAlarm {
                engine.registerResponse(heard: true, at: time)
            } else {
                engine.registerStimulusPlayback()
                engine.registerResponse(heard: unit.wasTapped, at: time)
            }
        }
        let threshold = engine.samples.first?.calculatedThreshold
        return ThresholdRederivation(
            threshold: threshold, acceptedAtUnit: threshold != nil && engine.isFinished ? sample.units.count : nil,
            divergence: nil)
    }
}
