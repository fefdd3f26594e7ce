import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 17, item 4: a tremor, balance or rest step is never analysed as walking for steps.
///
/// It gets the signal summary (``MotionSignalResult``) with a warning that says why. A recording whose task is unknown is analysed as
/// before.
@Suite(.tags(.taskAwareness)) struct MotionSignalRoutingTests {
    /// The two real mPower-2 tremor recordings (which gave 46 and 7 "steps" in the issue) and the balance recording:
    /// no walking result, one motion-signal result with the recording's signal summary.
    @Test(arguments: [
        ("kinetic_tremor_data_deviceMotion.json", MotionTask.tremor, TaskKind.tremor, 869),
        ("rest_tremor_data_deviceMotion.json", .tremor, .tremor, 862),
        ("balance_data_deviceMotion.json", .balance, .balance, 3002),
    ])
    func realTremorAndBalanceRecordingsAreNotWalking(file: String, task: MotionTask, kind: TaskKind, samples: Int)
        throws
    {
        let input = try AnalysisRegistry.load(path: sharedDataPath("mhealthtools-motion/" + file))
        #expect(input.kinds == [kind] && input.taskKind == kind)
        #expect(WalkingProcessor.analyze(input).isEmpty)
        let analysis = AnalysisRegistry.analyze(input)
        try #require(analysis.count == 1 && analysis[0].results.count == 1)
        #expect(analysis[0].failure == nil && analysis[0].results[0].kind == kind)
        let result = try #require(analysis[0].results[0].result as? MotionSignalResult)
        #expect(result.task == task && result.signal == "deviceMotion" && result.samples == samples)
        #expect(try #require(result.samplingRate) > 90 && result.duration > 9)
        #expect(abs(try #require(result.magnitudeMean) - 1) < 0.1)
        #expect(result.quality.warnings.first?.contains("not analysed for steps") == true)
        #expect(result.quality.warnings.first?.contains("a \(task.rawValue) step") == true)
        let json = try ResultEncoding.json(result)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "motionSignal" && object["task"] as? String == task.rawValue)
        for key in ["stepCount", "cadence", "bouts", "stepTimes"] { #expect(object[key] == nil, "\(key)") }
        for key in ["samples", "duration", "samplingRate", "magnitudeMean", "magnitudeSD", "timeOrigin", "quality"] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect((object["quality"] as? [String: Any])?["hygiene"] != nil)
    }

    /// Step identifiers and file names of tremor, balance and rest steps, and of walking or unknown recordings.
    @Test(
        arguments: [
            ("tremor.handInLap.right", nil, MotionTask.tremor), ("tremor.handAtShoulderLength.left", nil, .tremor),
            ("tremor.handAtShoulderLengthWithElbowBent.right", nil, .tremor), ("tremor.handToNose.left", nil, .tremor),
            ("tremor.handQueenWave.right", nil, .tremor), ("kineticTremor", nil, .tremor), ("restTremor", nil, .tremor),
            (nil, "/x/hand_in_lap_right_motion.json", .tremor), (nil, "/x/handToNose_left_motion.json", .tremor),
            (nil, "/x/rest_tremor_data_deviceMotion.json", .tremor), ("balance", nil, .balance),
            (nil, "/x/balance_motion.json", .balance), ("walking.rest", "/x/accel_rest.json", .rest),
            ("fitness.rest", nil, .rest), (nil, "/x/deviceMotion_walking_rest.json.items-1234.tmp", .rest),
            ("walking.outbound", "/x/accel_rest.json", nil), ("timed.walk.trial1", nil, nil), ("6mwt", nil, nil),
            ("fitness.walk", nil, nil), (nil, "/forest/test_data_bout.csv", nil),
            (nil, "/x/user1_hand_1506421989895.csv.gz", nil), (nil, "/x/pdkit_mpower_gait_stationary.json", nil),
            (nil, "/x/iPhoneSensors_T1_ID2_1L_WC.csv.gz", nil), (nil, "/x/interest_restaurant.csv", nil),
            ("walk", "/x/walk_motion.json", nil), ("tecumseh", nil, nil), ("walk.custom", nil, nil),
        ] as [(String?, String?, MotionTask?)])
    func tasksAreRecognisedByName(step: String?, file: String?, expected: MotionTask?) {
        #expect(MotionTask(stepIdentifier: step, file: file) == expected, "\(step ?? "-") \(file ?? "-")")
    }

    /// A still phone in a balance recording (synthetic, 30 s at 100 Hz): no steps are counted.
    ///
    /// The summary says the phone hardly moved. The same log as a bare recording (task unknown) is analysed as walking, as before: 0
    /// steps.
    @Test func stillBalanceRecordingHasNoSteps() throws {
        let directory = TemporaryDirectory()
        let still = SyntheticWalk.accelerometer(
            stepFrequency: 1.8, duration: 30, rate: 100, unit: .g, seed: 4, amplitude: 0)
        var items: [String] = []
        for i in still.timestamp.indices {
            items.append(
                "{\"timestamp\":\(still.timestamp[i]),\"x\":\(still.acceleration.x[i]),\"y\":\(still.acceleration.y[i]),"
                    + "\"z\":\(still.acceleration.z[i])}")
        }
        let json = "{\"items\":[" + items.joined(separator: ",") + "]}"
        for (name, task) in [("accel_balance.json", MotionTask.balance), ("accel_recording.json", nil)] {
            let path = directory.path(name)
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            let input = try AnalysisRegistry.load(path: path)
            if let task {
                #expect(WalkingProcessor.analyze(input).isEmpty)
                let summary = MotionSignalResult.results(for: input)
                try #require(summary.count == 1)
                #expect(summary[0].task == task && summary[0].signal == "accelerometer")
                #expect(try #require(summary[0].magnitudeSD) < 0.05)
            } else {
                #expect(input.kinds == [.walking])
                let walking = WalkingProcessor.analyze(input)
                #expect(walking.count == 1 && walking[0].stepCount == 0)
                #expect(MotionSignalResult.results(for: input).isEmpty)
            }
        }
    }

    /// A walking task folder with a walk and a rest step: the walk is counted, the rest step is summarised; an
    /// unknown-task CSV is walking as before.
    @Test func walkAndRestInOneTask() throws {
        let directory = TemporaryDirectory()
        let recorder = SyntheticWalk.recorderLog
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 30, rate: 100, unit: .g, seed: 6)
        let rest = SyntheticWalk.accelerometer(
            stepFrequency: 1.8, duration: 20, rate: 100, unit: .g, seed: 7, amplitude: 0)
        try recorder(walk).write(toFile: directory.path("accel_walk.json"), atomically: true, encoding: .utf8)
        try recorder(rest).write(toFile: directory.path("accel_still.json"), atomically: true, encoding: .utf8)
        func file(_ name: String) -> String {
            "{\"_class\":\"ORKFileResult\",\"identifier\":\"accelerometer\",\"contentType\":\"application/json\","
                + "\"fileName\":\"\(name)\"}"
        }
        let task = """
            {"_class":"ORKTaskResult","identifier":"shortWalk","taskRunUUID":"0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F31",
             "results":[
              {"_class":"ORKStepResult","identifier":"walking.outbound","results":[\(file("accel_walk.json"))]},
              {"_class":"ORKStepResult","identifier":"walking.rest","results":[\(file("accel_still.json"))]}
             ]}
            """
        try task.write(toFile: directory.path("taskResult.json"), atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: directory.url.path)
        #expect(input.kinds == [.walking, .balance] && input.taskKind == .walking)
        let analysis = AnalysisRegistry.analyze(input)
        try #require(analysis.count == 1)
        let walking = analysis[0].results.compactMap { $0.result as? WalkingResult }
        let summaries = analysis[0].results.compactMap { $0.result as? MotionSignalResult }
        try #require(walking.count == 1 && summaries.count == 1)
        #expect(walking[0].stepIdentifier == "walking.outbound")
        #expect(abs(Double(walking[0].stepCount ?? 0) - 54) <= 3)
        #expect(summaries[0].stepIdentifier == "walking.rest" && summaries[0].task == .rest)
    }

    /// A task folder whose only motion step has a custom identifier gives a result, never "nothing to analyse":
    /// `walk.custom` follows the word rule (a walk: 54 ± 3 steps of the synthetic 1.8 Hz walk, as in
    /// ``walkAndRestInOneTask()``); `tecumseh` and `myCustomStep` name no task and get the motion-signal summary
    /// (task `other`, kind `balance`) with a warning naming the step.
    @Test(arguments: [("walk.custom", true), ("tecumseh", false), ("myCustomStep", false)])
    func customMotionStepsInATaskFolderGiveAResult(step: String, isWalk: Bool) throws {
        let directory = TemporaryDirectory()
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 30, rate: 100, unit: .g, seed: 6)
        try SyntheticWalk.recorderLog(walk).write(
            toFile: directory.path("accel_custom.json"), atomically: true, encoding: .utf8)
        let task = """
            {"_class":"ORKTaskResult","identifier":"customTask","taskRunUUID":"0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F32",
             "results":[{"_class":"ORKStepResult","identifier":"\(step)","results":[
              {"_class":"ORKFileResult","identifier":"accelerometer","contentType":"application/json",
               "fileName":"accel_custom.json"}]}]}
            """
        try task.write(toFile: directory.path("taskResult.json"), atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: directory.url.path)
        let analysis = AnalysisRegistry.analyze(input)
        try #require(analysis.count == 1)
        #expect(analysis[0].failure == nil)
        if isWalk {
            #expect(input.kinds == [.walking] && input.taskKind == .walking)
            let walking = analysis[0].results.compactMap { $0.result as? WalkingResult }
            try #require(walking.count == 1)
            #expect(walking[0].stepIdentifier == step && abs(Double(walking[0].stepCount ?? 0) - 54) <= 3)
            #expect(!input.problems.contains { $0.message.contains("names no task") })
        } else {
            #expect(input.kinds == [.balance] && input.taskKind == .balance)
            let summaries = analysis[0].results.compactMap { $0.result as? MotionSignalResult }
            try #require(summaries.count == 1 && analysis[0].results.count == 1)
            #expect(summaries[0].task == .other && summaries[0].stepIdentifier == step)
            #expect(summaries[0].quality.warnings.first?.contains("whose name says no task (\(step))") == true)
            #expect(input.problems.contains { $0.severity == .warning && $0.message.contains("motion step \(step) names no task") })
        }
    }

    /// A task folder with a recognised kind keeps its custom motion steps as they were: a tapping task's
    /// accelerometer recording is neither a walk nor a motion summary.
    @Test func aRecognisedTaskKeepsItsCustomMotionSteps() throws {
        let directory = TemporaryDirectory()
        let walk = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 10, rate: 100, unit: .g, seed: 6)
        try SyntheticWalk.recorderLog(walk).write(
            toFile: directory.path("accel_custom.json"), atomically: true, encoding: .utf8)
        let task = """
            {"_class":"ORKTaskResult","identifier":"stroop","taskRunUUID":"0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F33",
             "results":[{"_class":"ORKStepResult","identifier":"stroop","results":[
              {"_class":"ORKStroopResult","identifier":"stroop","color":"RED","text":"RED","colorSelected":"RED",
               "startTime":1,"endTime":2},
              {"_class":"ORKFileResult","identifier":"accelerometer","contentType":"application/json",
               "fileName":"accel_custom.json"}]}]}
            """
        try task.write(toFile: directory.path("taskResult.json"), atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: directory.url.path)
        #expect(input.kinds == [.stroop])
        #expect(input.recordings.allSatisfy { $0.assignedMotionTask == nil })
        #expect(!input.problems.contains { $0.message.contains("names no task") })
    }
}
