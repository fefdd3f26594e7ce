import Foundation
import SensorSignal
import Testing

/// Recordings shorter than the shortest walking run the detector counts (3 s, `shortRecordingDuration`) are read as one
/// short walk (`countsShortRecordings`): a clean 2 s walk is counted, and a warning says so; what cannot be counted
/// says exactly why, instead of blaming the motion.
@Suite struct ShortRecordingTests {
    /// A 2 s walk of 3.2–4 steps (1.6–2.0 steps/s) gives 4 ± 1 steps, as one `shortRecording` bout.
    @Test(arguments: [1.6, 1.8, 2.0], [25.0, 50.0, 100.0])
    func aTwoSecondWalkIsCounted(frequency: Double, rate: Double) {
        let signal = Gait.magnitude(stepFrequency: frequency, duration: 2, rate: rate, seed: 3)
        let detection = StepDetector().detect(timestamps: signal.times, magnitude: signal.values)
        #expect(abs(detection.stepCount - 4) <= 1, "\(detection.stepCount) \(detection.warnings)")
        #expect(detection.stepCount >= 3)
        #expect(detection.bouts.map(\.detection) == [.shortRecording])
        #expect(detection.warnings.contains { $0.hasPrefix("short recording (2 s") }, "\(detection.warnings)")
        #expect(!detection.warnings.contains { $0.contains("irregular motion") })
        // The warning judges the detector's own count, so a caller replacing the steps can leave it out.
        #expect(detection.stepVerdicts.allSatisfy(detection.warnings.contains))
        #expect(detection.stepVerdicts.contains { $0.hasPrefix("short recording (2 s") }, "\(detection.stepVerdicts)")
    }

    /// Turned off, a 2 s walk is too short and says so.
    @Test func withoutTheShortWalkAnalysisTwoSecondsAreTooShort() {
        var configuration = StepDetector.Configuration()
        configuration.countsShortRecordings = false
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 2, rate: 50, seed: 3)
        let detection = StepDetector(configuration: configuration).detect(
            timestamps: signal.times, magnitude: signal.values)
        #expect(detection.stepCount == 0)
        let warning = detection.warnings.first { $0.hasPrefix("too short to count steps") }
        #expect(warning?.contains("needs at least 3 s of walking") == true, "\(detection.warnings)")
    }

    /// Short noise is not a walk, and the warning gives the reason.
    @Test func twoSecondsOfNoiseAreTooShortAndSayWhy() {
        let noise = Gait.magnitude(stepFrequency: 1.8, duration: 2, rate: 100, noise: 0.3, amplitude: 0, seed: 21)
        let detection = StepDetector().detect(timestamps: noise.times, magnitude: noise.values)
        #expect(detection.stepCount == 0)
        let warning = detection.warnings.first { $0.hasPrefix("too short to count steps") }
        #expect(warning?.contains("read as one short walk, it does not count") == true, "\(detection.warnings)")
    }

    /// From 3 s on the usual verdicts apply: random motion is irregular motion, a walk is counted.
    @Test func fromThreeSecondsOnTheUsualVerdictsApply() {
        let noise = Gait.magnitude(stepFrequency: 1.8, duration: 60, rate: 100, noise: 0.3, amplitude: 0, seed: 21)
        let random = StepDetector().detect(timestamps: noise.times, magnitude: noise.values)
        #expect(random.stepCount == 0)
        #expect(!random.warnings.contains { $0.hasPrefix("too short") }, "\(random.warnings)")
        let walk = Gait.magnitude(stepFrequency: 1.8, duration: 10, rate: 100, seed: 4)
        let detection = StepDetector().detect(timestamps: walk.times, magnitude: walk.values)
        #expect(abs(detection.stepCount - 18) <= 1, "\(detection.stepCount)")
        #expect(!detection.warnings.contains { $0.hasPrefix("too short") })
    }
}
