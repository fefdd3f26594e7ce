import Foundation
import SensorSignal
import StudyOutputs
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Where walking results get their turns from, and what they say when they cannot: a step's device-motion log
/// beside its accelerometer log, a device-motion log of its own, none.
@Suite struct WalkingTurnsTests {
    /// A synthetic 40 s walk's device-motion log (gravity fixed in the device, as `SyntheticWalk` rotates it) that turns
    /// `angle` degrees about gravity from 15 to 17 s (raised cosine), in the walk's clock.
    static func turningDeviceMotion(seed: UInt64, angle: Double = 90, timeShift: Double = 0) -> DeviceMotionLog {
        var log = SyntheticWalk.deviceMotion(stepFrequency: 1.8, duration: 40, rate: 50, seed: seed)
        let start = log.timestamp[0]
        for i in log.timestamp.indices {
            let t = log.timestamp[i] - start
            var yaw = 0.0  // rad/s
            if t >= 15 && t < 17 { yaw = angle * Double.pi / 180 / 2 * (1 - cos(2 * Double.pi * (t - 15) / 2)) }
            log.rotationRate.x[i] = yaw * log.gravity.x[i]
            log.rotationRate.y[i] = yaw * log.gravity.y[i]
            log.rotationRate.z[i] = yaw * log.gravity.z[i]
            log.timestamp[i] += timeShift
        }
        return log
    }

    /// An accelerometer log of a step takes its turns from the step's one device-motion log: one 90° turn while
    /// walking, in bout 0, encoded with every turn key.
    @Test func accelerometerStepTakesTurnsFromItsDeviceMotionLog() throws {
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 40, rate: 50, unit: .g, seed: 41)
        let motion = Self.turningDeviceMotion(seed: 41)
        let folder = WalkingStepFolder.folder(
            [
                WalkingStepFolder.child(
                    "/data/a/walking.outbound/Accelerometer.json", .accelerometer(walk.cleaned()), kind: .walking),
                WalkingStepFolder.child(
                    "/data/a/walking.outbound/DeviceMotion.json", .deviceMotion(motion.cleaned()), kind: .walking),
            ], kind: .walking)
        let results = WalkingProcessor.analyze(folder)
        try #require(results.count == 1)
        let result = results[0]
        #expect(result.signal == "accelerometer")
        #expect(result.turnSignal == "deviceMotion")
        #expect(result.turns == 1)
        let events = try #require(result.turnEvents)
        try #require(events.count == 1)
        #expect(abs(events[0].angle - 90) < 3, "\(events[0])")
        #expect(abs(events[0].peak - 16) < 0.3)
        #expect(events[0].boutIndex == 0 && result.bouts.first?.turns == 1)
        #expect(abs((result.meanTurnAngle ?? 0) - 90) < 3)
        #expect(result.meanTurnDuration == events[0].duration)
        let json = try ResultEncoding.render(result, as: .json)
        for key in [
            "\"turnSignal\" : \"deviceMotion\"", "\"turnEvents\" : [", "\"boutIndex\" : 0", "\"meanTurnAngle\"",
        ] {
            #expect(json.contains(key), "\(key)")
        }
        let csv = try ResultEncoding.render(result, as: .csv).split(separator: "\n")
        #expect(csv[0].hasSuffix(",turns,meanTurnAngle,meanTurnDuration,turnSignal"))
        #expect(csv[1].hasSuffix(",deviceMotion"))
    }

    /// A device-motion log analysed for steps gives its own turns; without rotation it has none (an empty list,
    /// not null).
    @Test func deviceMotionGivesItsOwnTurns() throws {
        let turning = WalkingProcessor.analyze(Self.turningDeviceMotion(seed: 42, angle: 180).cleaned())
        #expect(turning.turnSignal == "deviceMotion" && turning.turns == 1)
        #expect(abs((turning.turnEvents?.first?.angle ?? 0) - 180) < 3)
        let straight = WalkingProcessor.analyze(
            SyntheticWalk.deviceMotion(stepFrequency: 1.8, duration: 40, rate: 50, seed: 43).cleaned())
        #expect(straight.turns == 0 && straight.turnEvents == [] && straight.meanTurnAngle == nil)
    }

    /// Without a gyroscope the turn keys are null; a lower-back result says why, an unknown placement says nothing.
    @Test func noGyroscopeNoTurns() throws {
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 50, unit: .g, seed: 44)
        let unknown = WalkingProcessor.analyze(walk.cleaned())
        #expect(unknown.turns == nil && unknown.turnEvents == nil && unknown.turnSignal == nil)
        #expect(!unknown.quality.warnings.contains { $0.contains("turns") })
        let lowerBack = WalkingProcessor.analyze(walk.cleaned(), gait: GaitOptions(placement: .lowerBack))
        #expect(lowerBack.turns == nil)
        #expect(
            lowerBack.quality.warnings.contains { $0.hasPrefix("turns need a gyroscope") },
            "\(lowerBack.quality.warnings)")
        #expect(lowerBack.bouts.allSatisfy { $0.turns == nil })
    }

    /// A device-motion log that does not cover the accelerometer log (another clock, another time) gives no turns
    /// and a warning with both spans, rather than turns at the wrong time.
    @Test func aDeviceMotionLogOfAnotherTimeIsNotUsed() throws {
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 40, rate: 50, unit: .g, seed: 45)
        let elsewhere = Self.turningDeviceMotion(seed: 45, timeShift: 500)
        let result = WalkingProcessor.analyze(walk.cleaned(), deviceMotion: elsewhere)
        #expect(result.turns == nil && result.turnEvents == nil)
        #expect(
            result.quality.warnings.contains {
                $0.hasPrefix("the step's device-motion log (1500–") && $0.hasSuffix("turns are null")
            },
            "\(result.quality.warnings)")
    }
}
