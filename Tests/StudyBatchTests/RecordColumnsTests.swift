import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import StudyBatch
@testable import StudyInputs

/// The columns every batch row carries about its record (`participant`, `date`, `startTime`) and the quality
/// flags (`flag_*`), with the thresholds of `docs/batch.md`.
@Suite struct RecordColumnsTests {
    // MARK: participant

    @Test func participantIsHealthCodeThenParticipantIdentifierThenAFolderKey() {
        #expect(
            RecordKeys(path: "/x/healthCode=HC1/ParticipantIdentifier=P1/participant=F1/r.json").participant == "HC1")
        #expect(RecordKeys(path: "/x/ParticipantIdentifier=P1/subject=F1/r.json").participant == "P1")
        #expect(RecordKeys(path: "/x/SurveyData/P7/r.json").participant == "P7")
        #expect(RecordKeys(path: "/x/SubjectID=S3/r.json").participant == "S3")
        #expect(RecordKeys(path: "/x/externalId=E9/userId=U1/r.json").participant == "E9")
        #expect(RecordKeys(path: "/x/site=Boston/r.json").participant == nil)
        #expect(RecordKeys(path: "/x/healthCode=/participant=F2/r.json").participant == "F2")
        #expect(RecordKeys(path: "/x/r.json").participant == nil)
    }

    /// The folder participant is kept in the journal under `participant`, and an entry of an earlier version
    /// (without it) still decodes.
    @Test func folderParticipantRoundTripsAndOldKeysDecode() throws {
        let keys = RecordKeys(path: "/x/participant=F1/r.json")
        let data = try JSONEncoder().encode(keys)
        #expect(String(decoding: data, as: UTF8.self).contains("\"participant\":\"F1\""))
        #expect(try JSONDecoder().decode(RecordKeys.self, from: data) == keys)
        let old = try JSONDecoder().decode(RecordKeys.self, from: Data(#"{"healthCode":"H"}"#.utf8))
        #expect(old.participant == "H" && old.folderParticipant == nil)
    }

    // MARK: date and startTime

    /// `date` is the device's local date: 16:48 at −08:00 is the next day in UTC, and must stay 2017-03-09.
    @Test func dateIsTheLocalDateOfTheTaskStart() throws {
        let outcome = RecordAnalysis.analyze(recordAt: SurveyFixtures.path("registration.json"))
        #expect(outcome.startTime?.description == "2017-03-09T16:48:33-08:00")
        #expect(outcome.endTime?.description == "2017-03-09T16:49:18-08:00")
        #expect(outcome.taskIdentifier == "registrationTask")
        let record = BatchRecord(
            source: "healthCode=H1/registration.json", location: SurveyFixtures.path("registration.json"))
        var entry = BatchEntry(record: record, hash: "h", outcome: outcome)
        entry.keys.healthCode = "H1"
        #expect(entry.date == "2017-03-09")
        let table = try #require(entry.tables.first)
        let row = BatchOutputs.expanded(try #require(table.rows.first), entry: entry)
        let columns = BatchOutputs.keyColumns
        #expect(row.count == table.rows[0].count + BatchOutputs.recordColumns.count)
        #expect(row[columns.firstIndex(of: "participant")!] == "H1")
        #expect(row[columns.firstIndex(of: "date")!] == "2017-03-09")
        #expect(row[columns.firstIndex(of: "startTime")!] == "2017-03-09T16:48:33-08:00")
        #expect(row[columns.firstIndex(of: "status")!] == "ok")
    }

    /// A record without a date (a bare sensor CSV) has blank date columns, not a guessed one.
    @Test func aRecordWithoutADateHasBlankDateColumns() throws {
        let walk = try Self.write(Self.walk(seconds: 10, rate: 100, frequency: 1.8))
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let outcome = RecordAnalysis.analyze(recordAt: walk)
        #expect(outcome.startTime == nil && outcome.endTime == nil)
        let entry = BatchEntry(record: BatchRecord(source: "walk.csv", location: walk), hash: "h", outcome: outcome)
        #expect(entry.date == nil)
        let row = BatchOutputs.expanded(try #require(entry.tables.first?.rows.first), entry: entry)
        #expect(row[BatchOutputs.keyColumns.firstIndex(of: "date")!] == "")
    }

    // MARK: quality flags

    @Test func aCleanWalkRaisesNoFlag() throws {
        let flags = try Self.walkingFlags(Self.walk(seconds: 10, rate: 100, frequency: 1.8))
        #expect(flags == QualityFlags(short: false, rate: false, still: false, repaired: false, implausible: false))
    }

    /// A phone lying on a table: no step, so `still`; no measure, so `implausible` is not judged.
    @Test func aStillRecordingIsStillAndNotJudgedImplausible() throws {
        let flags = try Self.walkingFlags(Self.walk(seconds: 10, rate: 100, frequency: 1.8, amplitude: 0))
        #expect(flags.still == true && flags.implausible == nil && flags.short == false)
    }

    @Test func aWalkSampledAt10HzIsFlaggedForRate() throws {
        let flags = try Self.walkingFlags(Self.walk(seconds: 20, rate: 10, frequency: 1.8))
        #expect(flags.rate == true)
    }

    @Test func aTwoSecondWalkIsShort() throws {
        let flags = try Self.walkingFlags(Self.walk(seconds: 2, rate: 100, frequency: 1.8))
        #expect(flags.short == true)
    }

    /// Mobilise-D's cadence range: 40–172.9 steps/min, inclusive.
    @Test func walkingPlausibilityUsesMobiliseDRanges() throws {
        let cadence = try #require(WalkingAnalysis.plausibleRanges.first { $0.key == "cadence" }?.range)
        #expect(QualityFlags.outside(40, cadence) == false && QualityFlags.outside(172.9, cadence) == false)
        #expect(QualityFlags.outside(39.9, cadence) == true && QualityFlags.outside(173, cadence) == true)
        #expect(QualityFlags.outside(nil, cadence) == nil && QualityFlags.outside(.nan, cadence) == nil)
    }

    @Test func rateFlagCountsIrregularIntervals() {
        #expect(QualityFlags.rateFlag(rate: 100, hygiene: nil, minimumRate: 15) == false)
        #expect(QualityFlags.rateFlag(rate: 14.9, hygiene: nil, minimumRate: 15) == true)
        #expect(QualityFlags.rateFlag(rate: nil, hygiene: nil, minimumRate: 15) == nil)
    }

    @Test func cellsAreTrueFalseOrBlank() {
        #expect(QualityFlags(short: true, rate: false).cells == ["true", "false", "", "", ""])
        #expect(QualityFlags.columns.count == QualityFlags().cells.count)
    }

    /// Tapping flags on the tapping fixtures: (file, short, still, repaired, implausible).
    @Test(
        arguments: [
            ("tapping/fatigue_rounding.csv", false, false, false, false),  // 26 taps, median 0.147 s
            ("tapping/backwards_timestamps.csv", false, false, true, false),  // 11 taps, a timestamp runs back
            ("tapping/identical_timestamps.csv", true, false, true, true),  // 8 taps, median interval 0 s
            ("researchkit/tapping-task.json", true, false, false, nil),  // 3 taps: too few for an interval
        ] as [(String, Bool, Bool, Bool, Bool?)])
    func tappingFlags(file: String, short: Bool, still: Bool, repaired: Bool, implausible: Bool?) throws {
        let input = try AnalysisRegistry.load(path: fixturePath(file))
        let result = try #require(AnalysisRegistry.analyze(input).flatMap(\.results).first { $0.kind == .tapping })
        let flags = TappingAnalysis.qualityFlags(ofAny: result.result)
        #expect(
            flags == QualityFlags(short: short, rate: nil, still: still, repaired: repaired, implausible: implausible))
        let rendered = RecordAnalysis.analyze(recordAt: fixturePath(file)).results
        let tapping = try #require(rendered.first { $0.kind == "tapping" })
        let row = try #require(tapping.csvRows.first)
        for (column, cell) in zip(QualityFlags.columns, flags.cells) {
            #expect(row[try #require(tapping.csvHeader.firstIndex(of: column))] == cell)
        }
    }

    // MARK: steps.csv

    /// A 1.8 steps/s walk: one `steps` row per counted step, step times 1/1.8 s and stride times 2/1.8 s (physics of
    /// the synthetic signal), numbered in order, inside the one bout.
    @Test func stepsTableHasOneRowPerStepWithItsStepAndStrideTime() throws {
        let walk = try Self.write(Self.walk(seconds: 20, rate: 100, frequency: 1.8))
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let outcome = RecordAnalysis.analyze(recordAt: walk)
        let walking = try #require(outcome.results.first { $0.kind == "walking" })
        let stepCount = try #require(walking.csvHeader.firstIndex(of: "stepCount"))
        let count = try #require(Int(walking.csvRows[0][stepCount]))
        let steps = try #require(outcome.detailTables.first { $0.name == "steps" })
        #expect(steps.header == WalkingAnalysis.stepsColumns)
        #expect(steps.rows.count == count && count > 30)
        let column = { (name: String) in steps.header.firstIndex(of: name)! }
        #expect(steps.rows.map { $0[column("step")] } == (1...count).map(String.init))
        #expect(steps.rows.allSatisfy { $0[column("bout")] == "1" })
        let stepTimes = steps.rows.compactMap { Double($0[column("stepTime")]) }
        let strideTimes = steps.rows.compactMap { Double($0[column("strideTime")]) }
        #expect(stepTimes.count == count - 1 && strideTimes.count == count - 2)
        #expect(stepTimes.allSatisfy { abs($0 - 1 / 1.8) < 0.02 }, "\(stepTimes)")
        #expect(strideTimes.allSatisfy { abs($0 - 2 / 1.8) < 0.02 }, "\(strideTimes)")
        // in the batch entry, as its own table after the key columns
        let entry = BatchEntry(record: BatchRecord(source: "walk.csv", location: walk), hash: "h", outcome: outcome)
        let table = try #require(entry.tables.first { $0.kind == "steps" })
        #expect(table.rows.count == count && table.rows[0].count == BatchOutputs.storedKeyColumns.count + 6)
    }

    // MARK: taps.csv

    /// The mhealthtools tap file: one `taps` row per tap of the file, in its order, with the file's own time,
    /// location and button (read here with a plain CSV split), and the time since the previous row.
    @Test func tapsTableHasOneRowPerTapAsRecorded() throws {
        let path = sharedDataPath("mpower-samples/mhealthtools_tap_data.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        let file = lines.map { line in
            line.split(separator: ",").map { String($0).replacingOccurrences(of: "\"", with: "") }
        }
        let outcome = RecordAnalysis.analyze(recordAt: path)
        let taps = try #require(outcome.detailTables.first { $0.name == "taps" })
        #expect(taps.header == TappingAnalysis.tapsColumns)
        #expect(taps.rows.count == file.count && file.count > 100)
        let column = { (name: String) in taps.header.firstIndex(of: name)! }
        let buttons = ["TappedButtonLeft": "left", "TappedButtonRight": "right", "TappedButtonNone": "none"]
        // Cells carry 10 significant digits (as steps.csv).
        func same(_ cell: String, _ value: Double) -> Bool {
            guard let x = Double(cell) else { return false }
            return abs(x - value) <= 5e-10 * max(abs(value), 1e-3)
        }
        for (k, (row, cells)) in zip(taps.rows, file).enumerated() {
            #expect(row[column("tap")] == String(k + 1))
            #expect(same(row[column("time")], Double(cells[0])!), "tap \(k + 1)")
            #expect(same(row[column("x")], Double(cells[1])!), "tap \(k + 1)")
            #expect(same(row[column("y")], Double(cells[2])!), "tap \(k + 1)")
            #expect(row[column("button")] == buttons[cells[3]], "tap \(k + 1)")
            let since = k == 0 ? nil : Double(cells[0])! - Double(file[k - 1][0])!
            #expect(since.map { same(row[column("sincePrevious")], $0) } ?? (row[column("sincePrevious")] == ""))
        }
        let entry = BatchEntry(record: BatchRecord(source: "taps.csv", location: path), hash: "h", outcome: outcome)
        let table = try #require(entry.tables.first { $0.kind == "taps" })
        #expect(table.rows.count == file.count && table.rows[0].count == BatchOutputs.storedKeyColumns.count + 8)
    }

    // MARK: helpers

    /// A vertical-axis gait signal `t,x,y,z` in g: gravity plus a sine at the step frequency (Hz).
    static func walk(seconds: Double, rate: Double, frequency: Double, amplitude: Double = 0.2) -> String {
        let count = Int(seconds * rate)
        let rows = (0..<count).map { i -> String in
            let t = Double(i) / rate
            return "\(t),0,0,\(1 + amplitude * sin(t * 2 * .pi * frequency))"
        }
        return "t,x,y,z\n" + rows.joined(separator: "\n")
    }

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func walkingFlags(_ csv: String) throws -> QualityFlags {
        let path = try write(csv)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try AnalysisRegistry.load(path: path)
        let result = try #require(AnalysisRegistry.analyze(input).flatMap(\.results).first { $0.kind == .walking })
        return WalkingAnalysis.qualityFlags(ofAny: result.result)
    }
}
