import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// The dB HL staircase driven by scripted listeners: a fixed heard (H) / not heard (M) answer per presentation,
/// at one frequency with ResearchKit's default parameters (start 30 dB HL, −10 dB after a hit, miss list
/// +20/+10/+10 dB then +5 dB, floor −10 dB HL).
///
/// Every expected level sequence and threshold below was worked out by hand from ResearchKit's own algorithm,
/// `ORKAudiometry.m` (github.com/ResearchKit/ResearchKit, `ResearchKitActiveTask/dBHL Tone Audiometry/ORKAudiometry/`):
/// `estimatedBHLForFrequency` adds a unit and, once the initial descent is over, counts the presentation in the
/// level's transition record as provisionally heard (`userInitiated += 1, totalTransitions += 1`, a new record
/// starting at 1/1); `stimulusMissed` takes one heard back, and the first miss after a hit ends the initial
/// descent by replacing the level's record with 0 heard / 1 presented; `stimulusAcknowledged` calls
/// `validateResultFordBHL`, which accepts level L when, with the hit counted, L has heard/presented ≥ 0.5 over
/// ≥ 2 presentations, and (L − 5 has heard/presented ≤ 0.5 over ≥ 2 presentations, or L is the floor), and, if L
/// has exactly 2 presentations, both were heard; or when the floor was heard more than twice in the initial
/// descent. Otherwise a hit steps down 10 dB (to the floor at most).
///
/// Notation in the traces: `L H/M → next` and `t[L]={heard,presented}` for a record after the step, counting the
/// provisional hit of the presentation just made. None of the expectations is computed by taskproc's code.
@Suite struct AudiometryScriptedListenerTests {
    /// Runs one frequency with `script` ("H" heard, "M" not heard), one answer per presentation.
    /// - Returns: the presented levels, the threshold, whether the test ended, and how many answers were used.
    static func run(_ script: String) -> (levels: [Double], threshold: Double?, finished: Bool, used: Int) {
        var parameters = DBHLStaircaseParameters()
        parameters.frequencies = [1000]
        var engine = DBHLStaircase(parameters: parameters)
        var used = 0
        for answer in script {
            guard !engine.isFinished else { break }
            engine.registerStimulusPlayback()
            engine.registerResponse(heard: answer == "H", at: Double(used))
            used += 1
        }
        let sample = engine.samples.first
        return (sample?.units.map(\.dBHLValue) ?? [], sample?.calculatedThreshold, engine.isFinished, used)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var script: String
        var levels: [Double]
        var threshold: Double
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // The 50 % rule at its boundary: the level below has exactly 1 heard of 2 (ratio 0.5, accepted by `<= 0.5`).
        //  30 H → 20 (initial descent: no records)
        //  20 M → descent ends: t[20]={0,1}; the hit at 30 ended the miss list, so +5 → 25; t[25]={1,1}
        //  25 H → 1 presentation: rejected → 15; t[15]={1,1}
        //  15 H → rejected (1 presentation) → 5; t[5]={1,1}
        //   5 M → 10; t[5]={0,1}; t[10]={1,1}
        //  10 H → rejected (1 presentation) → 0; t[0]={1,1}
        //   0 M → 5; t[0]={0,1}; t[5]={1,2}
        //   5 M → 10; t[5]={0,2}; t[10]={2,2}
        //  10 M → 15; t[10]={1,2}; t[15]={2,2}
        //  15 H → t[15]={2,2}: 2/2 ≥ 0.5, and exactly 2 presentations all heard; below t[10]={1,2}: 0.5 ≤ 0.5 over 2
        //         → threshold 15 dB HL. (With `< 0.5` the hit is rejected and the test goes on at 5 dB HL.)
        Case(
            name: "level below heard 1 of 2 (ratio exactly 0.5)", script: "HMHHMHMMMH",
            levels: [30, 20, 25, 15, 5, 10, 0, 5, 10, 15], threshold: 15),
        // The same boundary one step above the floor, the floor being the level below.
        //  30 H → 20, 20 H → 10, 10 H → 0 (initial descent)
        //   0 M → descent ends: t[0]={0,1}; +5 → 5; t[5]={1,1}
        //   5 H → rejected (1 presentation) → −5; t[−5]={1,1}
        //  −5 H → rejected (1 presentation); −5 − 10 is not above the floor → −10; t[−10]={1,1}
        // −10 H → t[−10]={1,1}: 1 presentation, and the floor counter only counts the initial descent (0) → rejected;
        //         stays at −10; t[−10]={2,2}
        // −10 M → −5; t[−10]={1,2}; t[−5]={2,2}
        //  −5 H → t[−5]={2,2} all heard; below t[−10]={1,2}: 0.5 ≤ 0.5 → threshold −5 dB HL.
        Case(
            name: "floor below heard 1 of 2", script: "HHHMHHHMH",
            levels: [30, 20, 10, 0, 5, -5, -10, -10, -5], threshold: -5),
        // The level itself heard 2 of 3: 0.67 ≥ 0.5 over 3 presentations needs no 100 %.
        //  30 H → 20
        //  20 M → descent ends: t[20]={0,1}; +5 → 25; t[25]={1,1}
        //  25 H → rejected (1 presentation) → 15; t[15]={1,1}
        //  15 M → 20; t[15]={0,1}; t[20]={1,2}
        //  20 H → t[20]={1,2} passes 0.5 over 2, but below t[15]={0,1} has 1 presentation → rejected → 10; t[10]={1,1}
        //  10 M → 15; t[10]={0,1}; t[15]={1,2}
        //  15 M → 20; t[15]={0,2}; t[20]={2,3}
        //  20 H → t[20]={2,3}; below t[15]={0,2} → threshold 20 dB HL.
        Case(
            name: "level heard 2 of 3", script: "HMHMHMMH", levels: [30, 20, 25, 15, 20, 10, 15, 20], threshold: 20),
        // Exactly 2 presentations need both heard: 1 of 2 is rejected although the level below qualifies.
        //  30 H → 20
        //  20 M → descent ends: t[20]={0,1}; +5 → 25; t[25]={1,1}
        //  25 M → 30; t[25]={0,1}; t[30]={1,1}
        //  30 H → rejected (1 presentation) → 20; t[20]={1,2}
        //  20 M → 25; t[20]={0,2}; t[25]={1,2}
        //  25 H → t[25]={1,2}, below t[20]={0,2} qualifies, but 2 presentations with 1 heard → rejected → 15; t[15]={1,1}
        //  15 M → 20; t[15]={0,1}; t[20]={1,3}
        //  20 M → 25; t[20]={0,3}; t[25]={2,3}
        //  25 H → t[25]={2,3}; below t[20]={0,3} → threshold 25 dB HL.
        Case(
            name: "two presentations need both heard", script: "HMMHMHMMH",
            levels: [30, 20, 25, 30, 20, 25, 15, 20, 25], threshold: 25),
        // The floor needs no level below; with 2 presentations it still needs both heard.
        //  30 H → 20, 20 H → 10, 10 H → 0
        //   0 H → 0 − 10 is not above the floor → −10, floor counter 1 (initial descent)
        // −10 M → descent ends: t[−10]={0,1}; +5 → −5; t[−5]={1,1}
        //  −5 H → rejected (1 presentation) → −10; t[−10]={1,2}
        // −10 H → t[−10]={1,2}: floor, but 2 presentations with 1 heard → rejected; stays; t[−10]={2,3}
        // −10 H → t[−10]={2,3}: no record at −15, but −10 is the floor → threshold −10 dB HL.
        Case(
            name: "floor rule", script: "HHHHMHHH", levels: [30, 20, 10, 0, -10, -5, -10, -10], threshold: -10),
        // The floor at exactly 50 % over 4 presentations (≥ 0.5, not > 0.5).
        //  as above up to −10 H (rejected) with t[−10]={2,3}, then
        // −10 M → −5; t[−10]={1,3}; t[−5]={2,2}
        //  −5 M → 0; t[−5]={1,2}; t[0]={1,1}
        //   0 H → rejected (1 presentation) → −10; t[−10]={2,4}
        // −10 H → t[−10]={2,4}: 0.5 ≥ 0.5 over 4, floor → threshold −10 dB HL.
        Case(
            name: "floor heard 2 of 4", script: "HHHHMHHMMHH",
            levels: [30, 20, 10, 0, -10, -5, -10, -10, -5, 0, -10], threshold: -10),
        // The floor heard more than twice in the initial descent (no records are kept there).
        //  30 H → 20 → 10 → 0 → −10 (counter 1); −10 H → counter 2; −10 H → counter 3; −10 H → 3 > 2 → −10 dB HL.
        Case(
            name: "floor heard three times in the initial descent", script: "HHHHHHH",
            levels: [30, 20, 10, 0, -10, -10, -10], threshold: -10),
        // The miss list: +20, +10, +10 before the first hit.
        //  30 M → 50, 50 M → 60, 60 M → 70 (no hit yet: still the initial descent)
        //  70 H → 60
        //  60 M → descent ends: t[60]={0,1}; +5 → 65; t[65]={1,1}
        //  65 H → rejected (1 presentation) → 55; t[55]={1,1}
        //  55 M → 60; t[55]={0,1}; t[60]={1,2}
        //  60 M → 65; t[60]={0,2}; t[65]={2,2}
        //  65 H → t[65]={2,2}; below t[60]={0,2}: it holds only because the replacement at the end of the
        //         descent made t[60] 0 heard of 1 → threshold 65 dB HL.
        Case(
            name: "miss list and the initial-descent replacement", script: "MMMHMHMMH",
            levels: [30, 50, 60, 70, 60, 65, 55, 60, 65], threshold: 65),
        // A hit ends the miss list: the next miss steps up 5 dB, not the list's second +10.
        //  30 M → 50 (+20)
        //  50 H → 40
        //  40 M → descent ends: t[40]={0,1}; +5 → 45; t[45]={1,1}
        //  45 H → rejected (1 presentation) → 35; t[35]={1,1}
        //  35 M → 40; t[35]={0,1}; t[40]={1,2}
        //  40 M → 45; t[40]={0,2}; t[45]={2,2}
        //  45 H → t[45]={2,2}; below t[40]={0,2} → threshold 45 dB HL.
        Case(
            name: "a hit ends the miss list", script: "MHMHMMH", levels: [30, 50, 40, 45, 35, 40, 45], threshold: 45),
        // The level below needs 2 presentations: with 1 (ratio 0) it does not count.
        //  30 H → 20
        //  20 M → descent ends: t[20]={0,1}; +5 → 25; t[25]={1,1}
        //  25 H → rejected (1 presentation) → 15; t[15]={1,1}
        //  15 H → rejected (1 presentation) → 5; t[5]={1,1}
        //   5 M → 10; t[5]={0,1}; t[10]={1,1}
        //  10 M → 15; t[10]={0,1}; t[15]={2,2}
        //  15 H → t[15]={2,2} all heard, but below t[10]={0,1} has 1 presentation → rejected → 5; t[5]={1,2}
        //   5 M → 10; t[5]={0,2}; t[10]={1,2}
        //  10 M → 15; t[10]={0,2}; t[15]={3,3}
        //  15 M → 20; t[15]={2,3}; t[20]={1,2}
        //  20 H → t[20]={1,2}: 2 presentations with 1 heard → rejected → 10; t[10]={1,3}
        //  10 M → 15; t[10]={0,3}; t[15]={3,4}
        //  15 H → t[15]={3,4}; below t[10]={0,3} → threshold 15 dB HL.
        Case(
            name: "level below with one presentation does not count", script: "HMHHMMHMMMHMH",
            levels: [30, 20, 25, 15, 5, 10, 15, 5, 10, 15, 20, 10, 15], threshold: 15),
    ]

    @Test(arguments: cases)
    func scriptedListenerGivesTheHandDerivedRun(_ c: Case) {
        let r = Self.run(c.script)
        // The test ends exactly at the last scripted answer: no answer is left over and none is missing.
        #expect(r.finished, "the staircase wanted more answers than the script has")
        #expect(r.used == c.script.count)
        #expect(r.levels == c.levels)
        #expect(r.threshold == c.threshold)
    }
}
