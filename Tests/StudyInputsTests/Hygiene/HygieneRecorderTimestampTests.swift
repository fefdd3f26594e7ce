import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Issue 17, item 3: timestamp hygiene tells a recorder that stamps batches backwards (rows in order, times
/// overlapping) from true disorder (rows out of place, times right), and repairs the first by sequence and the
/// second by sorting — saying which, and how many rows, in the report and a warning.
@Suite(.tags(.honestInput)) struct HygieneRecorderTimestampTests {
    /// Timestamps of a recorder that delivers `batch` samples at a time and stamps each batch backwards from its
    /// delivery time (the true time of its last sample) at `assumedInterval` s per sample: every batch starts before
    /// the previous one ended when `assumedInterval` exceeds the true interval.
    static func batchStamped(_ truth: [Double], batch: Int, assumedInterval: Double) -> [Double] {
        var stamped = truth
        var start = 0
        while start < truth.count {
            let end = min(start + batch, truth.count)
            let delivery = truth[end - 1]
            for i in start..<end { stamped[i] = delivery - Double(end - 1 - i) * assumedInterval }
            start = end
        }
        return stamped
    }

    /// The log with its rows sorted by the given timestamps — what sorting makes of a batch-stamped file.
    static func sortedByTime(_ log: AccelerometerLog) -> AccelerometerLog {
        let order = log.timestamp.indices.sorted { log.timestamp[$0] < log.timestamp[$1] }
        var sorted = log
        sorted.timestamp = order.map { log.timestamp[$0] }
        sorted.acceleration = Vector3Series(
            x: order.map { log.acceleration.x[$0] }, y: order.map { log.acceleration.y[$0] },
            z: order.map { log.acceleration.z[$0] })
        return sorted
    }

    /// A sinusoidal walk at a known cadence (1.8 steps/s for 60 s: 108 steps) recorded by a batching recorder (20
    /// samples per batch at 100 Hz, stamped as if at 50 Hz, and two other patterns): re-sequenced, it is analysed as
    /// recorded; sorted, the samples of consecutive batches are interleaved (a quarter to all of them out of place)
    /// and the step regularity drops (on this clean sinusoid the count itself survives sorting).
    @Test(arguments: [(20, 0.02), (25, 0.015), (10, 0.03)])
    func batchStampedWalkIsResequencedAndCountsItsSteps(batch: Int, assumedInterval: Double) throws {
        let clean = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 60, rate: 100, unit: .g, seed: 11)
        var stamped = clean
        stamped.timestamp = Self.batchStamped(clean.timestamp, batch: batch, assumedInterval: assumedInterval)
        let cleaned = stamped.cleaned()
        let report = cleaned.report
        #expect(report.orderRepair == .resequenced)
        #expect(report.backwardSteps == 6_000 / batch - 1)
        #expect(report.stampingBatches == 6_000 / batch && report.medianBatchSize == batch)
        #expect(report.samplesRestamped > 6_000 / 2 && report.samplesReordered == 0)
        #expect(report.outputCount == 6_000 && report.duplicatesDropped == 0)
        #expect(report.repairs.contains { $0.hasPrefix("kept the samples in file order and re-stamped") })
        #expect(report.warnings.contains { $0.contains("regular recorder-batch pattern") })
        // The file order is the truth: every sample is where it was, at most one true interval off in time.
        #expect(cleaned.log.acceleration == clean.acceleration)
        #expect(zip(cleaned.log.timestamp, clean.timestamp).allSatisfy { abs($0 - $1) <= 0.0101 })
        let truth = 108.0
        let resequenced = try #require(WalkingProcessor.analyze(cleaned).stepCount)
        #expect(abs(Double(resequenced) - truth) <= 3, "\(resequenced) steps")
        let result = WalkingProcessor.analyze(cleaned)
        #expect(result.quality.warnings.contains { $0.contains("regular recorder-batch pattern") })
        // What sorting makes of it: the samples of consecutive batches shuffled into each other.
        let sortedLog = Self.sortedByTime(stamped)
        var misplaced = 0
        for i in clean.timestamp.indices where sortedLog.acceleration.z[i] != clean.acceleration.z[i] { misplaced += 1 }
        let sortedResult = WalkingProcessor.analyze(sortedLog.cleaned())
        print(
            "batch \(batch) at \(assumedInterval) s: re-sequenced \(resequenced) steps, regularity "
                + "\(result.stepRegularity ?? .nan); sorted \(sortedResult.stepCount ?? -1) steps, regularity "
                + "\(sortedResult.stepRegularity ?? .nan), \(misplaced) samples out of place")
        #expect(misplaced > 6_000 / 4)
        // Re-sequenced, the analysis is the one of the recording as it was made.
        let asRecorded = WalkingProcessor.analyze(clean.cleaned())
        #expect(result.stepCount == asRecorded.stepCount)
        #expect(abs((result.stepRegularity ?? 0) - (asRecorded.stepRegularity ?? 1)) < 1e-6)
        #expect((sortedResult.stepRegularity ?? 1) < (result.stepRegularity ?? 0))
    }

    /// The same artefact on a real walk (Oxford, hand, 326 foot-switch steps): re-sequenced, the count is the one
    /// of the file as recorded.
    @Test func realWalkWithBatchStampingKeepsItsCount() throws {
        let path = sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")
        let original = try AccelerometerCSVReader.read(path: path).log
        let reference = try #require(WalkingProcessor.analyze(original.cleaned()).stepCount)
        #expect(abs(reference - 326) <= 2)
        var stamped = original
        stamped.timestamp = Self.batchStamped(original.timestamp, batch: 16, assumedInterval: 0.018)
        let cleaned = stamped.cleaned()
        #expect(cleaned.report.orderRepair == .resequenced)
        let steps = try #require(WalkingProcessor.analyze(cleaned).stepCount)
        #expect(abs(steps - reference) <= 2, "\(steps) steps re-sequenced, \(reference) as recorded")
    }

    /// True disorder still sorts: random isolated swaps, a displaced row, a reversed block, and a swap every 20
    /// rows (regular, but the timestamps are right — sorting restores the truth exactly).
    @Test(arguments: ["random swaps", "periodic swaps", "reversed block", "displaced rows"])
    func trueDisorderIsSorted(kind: String) throws {
        let clean = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 30, rate: 100, unit: .g, seed: 5)
        var order = Array(clean.timestamp.indices)
        var random = SplitMix64(seed: 77)
        switch kind {
        case "random swaps":
            for _ in 0..<40 {
                let i = 1 + Int(random.next() % UInt64(order.count - 2))
                order.swapAt(i, i + 1)
            }
        case "periodic swaps":
            for i in stride(from: 20, to: order.count - 1, by: 20) { order.swapAt(i, i + 1) }
        case "reversed block":
            order[1_000..<1_050].reverse()
        default:
            for i in stride(from: 100, to: order.count - 10, by: 97) { order.insert(order.remove(at: i), at: i + 7) }
        }
        var shuffled = clean
        shuffled.timestamp = order.map { clean.timestamp[$0] }
        shuffled.acceleration = Vector3Series(
            x: order.map { clean.acceleration.x[$0] }, y: order.map { clean.acceleration.y[$0] },
            z: order.map { clean.acceleration.z[$0] })
        let cleaned = shuffled.cleaned()
        #expect(cleaned.report.orderRepair == .sorted, "\(kind)")
        #expect(cleaned.report.samplesReordered > 0 && cleaned.report.samplesRestamped == 0)
        #expect(cleaned.report.warnings.contains { $0.contains("sorted by time") })
        #expect(cleaned.log == clean, "\(kind)")
    }

    /// The real recordings of the shared data have no batching artefact: nothing is re-sequenced (the Oxford
    /// neck-pouch file's two repeated timestamps are duplicates, not backward steps).
    @Test(arguments: [
        "oxford-step-counter/user1_neckpouch_1506422851785.csv.gz", "mobilise-d-lab/HA_001_Test11_Trial1.csv.gz",
        "mpower-samples/mhealthtools_walk_data_devicemotion.csv.gz", "mpower-samples/pdkit_mpower_gait_stationary.json",
    ])
    func realRecordingsAreNotResequenced(file: String) throws {
        let input = try AnalysisRegistry.load(path: sharedDataPath(file))
        let reports = input.recordings.compactMap { recording -> QualityReport? in
            switch recording.data {
            case .accelerometer(let log): log.report
            case .deviceMotion(let log): log.report
            default: nil
            }
        }
        try #require(reports.count == 1)
        #expect(reports[0].orderRepair == .none && reports[0].samplesRestamped == 0)
    }

    /// A second clock moves with the re-stamping (it is the same time in another origin).
    @Test func unixTimesFollowTheRestamping() throws {
        var log = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 10, rate: 100, unit: .g, seed: 3)
        log.timestamp = Self.batchStamped(log.timestamp, batch: 20, assumedInterval: 0.02)
        log.timestampSince1970 = log.timestamp.map { $0 + 1_700_000_000 }
        let cleaned = log.cleaned()
        #expect(cleaned.report.orderRepair == .resequenced)
        let unix = try #require(cleaned.log.timestampSince1970)
        #expect(zip(unix, cleaned.log.timestamp).allSatisfy { abs($0 - $1 - 1_700_000_000) < 1e-6 })
    }

    /// The new keys are in the JSON of the hygiene report (documented in the README's walking output table).
    @Test func reportKeysAreEncoded() throws {
        let clean = SyntheticWalk.accelerometer(stepFrequency: 1.8, duration: 20, rate: 50, unit: .g, seed: 2)
        var stamped = clean
        stamped.timestamp = Self.batchStamped(clean.timestamp, batch: 10, assumedInterval: 0.04)
        let json = try ResultEncoding.json(WalkingProcessor.analyze(stamped.cleaned()))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let hygiene = try #require((object["quality"] as? [String: Any])?["hygiene"] as? [String: Any])
        #expect(hygiene["orderRepair"] as? String == "resequenced")
        #expect(hygiene["samplesRestamped"] as? Int ?? 0 > 0)
        #expect(hygiene["samplesReordered"] as? Int == 0)
        #expect(hygiene["stampingBatches"] as? Int == 100)
        #expect(hygiene["medianBatchSize"] as? Int == 10)
        #expect(hygiene["backwardSteps"] as? Int == 99)
    }
}
