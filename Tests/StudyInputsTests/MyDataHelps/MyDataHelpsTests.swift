import Foundation
import TestSupport
import Testing

@testable import StudyInputs

@Suite struct MyDataHelpsTests {
    // MARK: Motion files

    @Test(arguments: [
        (
            "export/SurveyData/P-0001/SR-77/walking.outbound/Accelerometer.json", "P-0001", "SR-77", "walking.outbound",
            RecorderKind.accelerometer
        ),
        ("SurveyData/abc/def/walking.return/DeviceMotion.json", "abc", "def", "walking.return", .deviceMotion),
        ("/x/y/SurveyData/p/s/fitness.walk/pedometer.json.gz", "p", "s", "fitness.walk", .pedometer),
        (#"C:\exports\SurveyData\P9\K3\tapping.left\Accelerometer.json"#, "P9", "K3", "tapping.left", .accelerometer),
    ])
    func motionPathsAreClassified(path: String, participant: String, result: String, step: String, kind: RecorderKind)
        throws
    {
        let file = try #require(MyDataHelpsMotionFile(path: path))
        #expect(file.participantIdentifier == participant)
        #expect(file.surveyResultKey == result)
        #expect(file.stepIdentifier == step)
        #expect(file.kind == kind)
        #expect(file.path == path)
    }

    @Test(arguments: [
        "SurveyData/P/S/Accelerometer.json",  // no step directory
        "SurveyData/P/S/step/extra/Accelerometer.json",  // one level too deep
        "SurveyData/P/S/step/Location.json",  // not a motion recorder
        "Data/P/S/step/Accelerometer.json",  // no SurveyData root
        "SurveyData/P/S/step/Accelerometer.csv",
    ])
    func otherPathsAreNotClassified(path: String) {
        #expect(MyDataHelpsMotionFile(path: path) == nil)
    }

    @Test func motionFixturesDecode() throws {
        let dir = "mydatahelps/SurveyData/P-0001/SR-77/walking.outbound/"
        let accel = try #require(MyDataHelpsMotionFile(path: fixturePath(dir + "Accelerometer.json")))
        let decoded = try accel.decode()
        #expect(decoded.container == .itemsObject)
        guard case .accelerometer(let log) = decoded.log else {
            Issue.record("not accelerometer")
            return
        }
        #expect(log.timestamp.count == 10)
        #expect(log.acceleration.y.allSatisfy { $0 == -1 })
        let motion = try #require(MyDataHelpsMotionFile(path: fixturePath(dir + "DeviceMotion.json")))
        #expect(try motion.decode().log.kind == .deviceMotion)
        let pedometer = try #require(MyDataHelpsMotionFile(path: fixturePath(dir + "Pedometer.json")))
        let p = try pedometer.decode()
        guard case .items(.pedometer, let items) = p.log else {
            Issue.record("not pedometer")
            return
        }
        #expect(items.count == 2 && items[1]["numberOfSteps"] == .number(13))
        let typed = try PedometerLog.decode(path: pedometer.path)
        #expect(typed.samples.map(\.numberOfSteps) == [6, 13])
        #expect(typed.samples[0].startDate == ResultDate("2021-03-04T09:15:00-08:00"))
    }

    // MARK: Tapping

    @Test func tappingResultsInEveryAcceptedShape() throws {
        let rows = try MyDataHelpsTappingResults.read(
            path: fixturePath("mydatahelps/SurveyTappingIntervalResults.csv"))
        #expect(rows.count == 5)
        #expect(rows.map(\.line) == [2, 3, 4, 5, 6])
        #expect(rows.map(\.keys.participantIdentifier) == ["P-0001", "P-0002", "P-0003", "P-0004", "P-0005"])
        #expect(rows.map(\.keys.resultKey) == ["TI-1", "TI-2", "TI-3", "TI-4", "TI-5"])
        #expect(rows.map(\.keys.surveyStepResultKey) == ["SSR-1", "SSR-2", "SSR-3", "SSR-4", nil])
        #expect(rows[0].keys.surveyResultKey == "SR-100")

        // ResearchKit spelling.
        let rk = try rows[0].get()
        #expect(rk.leftButton == ViewRect(origin: ViewPoint(x: 37.5, y: 480), size: ViewSize(width: 100, height: 100)))
        #expect(rk.rightButton?.origin.x == 237.5)
        #expect(rk.viewSize == ViewSize(width: 375, height: 667))
        #expect(rk.startDate == ResultDate("2021-03-04T09:15:00-0800"))
        #expect(rk.endDate?.utcOffset == -8 * 3600)
        #expect(rk.samples.map(\.button) == [.left, .right, .none, .left])
        #expect(rk.samples.map(\.duration) == [0.081, 0.07, 0, 0.066])
        #expect(rk.samples[1].location == ViewPoint(x: 290.5, y: 528))

        // PascalCase spelling, flat rectangles, no duration on the "none" tap.
        let pascal = try rows[1].get()
        #expect(
            pascal.leftButton == ViewRect(origin: ViewPoint(x: 20, y: 500), size: ViewSize(width: 120, height: 120)))
        #expect(pascal.viewSize == ViewSize(width: 375, height: 812))
        #expect(pascal.samples.map(\.button) == [.right, .left, .none])
        #expect(pascal.samples.map(\.duration) == [0.09, 0.075, nil])
        #expect(pascal.samples[0].location == ViewPoint(x: 300, y: 560))
        #expect(pascal.startDate?.timeIntervalSince1970 == 1_614_963_601.25)

        // Foundation geometry strings, integer button identifiers, mPower key names.
        let strings = try rows[2].get()
        #expect(
            strings.rightButton == ViewRect(origin: ViewPoint(x: 235, y: 500), size: ViewSize(width: 120, height: 120)))
        #expect(strings.viewSize == ViewSize(width: 375, height: 667))
        #expect(strings.samples.map(\.button) == [.left, .right, .none])
        #expect(strings.samples[1].location == ViewPoint(x: 300, y: 561))

        // A bad tap fails its row only, located in the cell.
        guard case .failure(let error) = rows[3].result else {
            Issue.record("row 4 should fail")
            return
        }
        #expect(error.kind == .schema)
        #expect(error.location == "line 5, column 10, cell $[1].buttonIdentifier")
        #expect(error.description.contains("found string \"middle\": unknown tap button"))
        #expect(rows[3].keys.participantIdentifier == "P-0004")

        // Blank and null cells.
        let blank = try rows[4].get()
        #expect(blank.samples.isEmpty)
        #expect(blank.leftButton == nil && blank.rightButton == nil && blank.viewSize == nil && blank.startDate == nil)
    }

    // MARK: Tone audiometry

    @Test func toneAudiometryResults() throws {
        let rows = try MyDataHelpsToneAudiometryResults.read(
            path: fixturePath("mydatahelps/SurveyToneAudiometryResults.csv"))
        #expect(rows.count == 3)
        #expect(rows.map(\.keys.resultKey) == ["TA-1", "TA-2", "TA-3"])
        #expect(rows.map(\.keys.surveyResultKey) == ["SR-200", "SR-201", "SR-202"])
        let first = try rows[0].get()
        #expect(first.outputVolume == 0.75)
        #expect(first.startDate == ResultDate("2021-04-01T10:00:00-04:00"))
        #expect(
            first.samples == [
                ToneAudiometrySample(frequency: 250, channel: 0, channelSelected: 0, amplitude: 0.00885),
                ToneAudiometrySample(frequency: 1000, channel: 1, channelSelected: 1, amplitude: 0.0125),
                ToneAudiometrySample(frequency: 4000, channel: 0, channelSelected: -1, amplitude: 0.5),
                ToneAudiometrySample(frequency: 8000, channel: 1, channelSelected: -1, amplitude: 0.031),
                ToneAudiometrySample(frequency: 500, channel: 1, channelSelected: 0, amplitude: 0.02),
            ])
        let second = try rows[1].get()
        #expect(second.outputVolume == 1)
        #expect(second.samples.map(\.channel) == [0, 1])
        #expect(second.samples.map(\.channelSelected) == [1, -1])
        #expect(second.samples.map(\.frequency) == [2000, 3000])
        guard case .failure(let error) = rows[2].result else {
            Issue.record("row 3 should fail")
            return
        }
        #expect(error.kind == .syntax)
        #expect(error.location == "line 4, column 8, cell $[0] (line 1, column 36)")
        #expect(error.description.contains("does not hold valid JSON"))
    }

    // MARK: Bad input

    static let tappingHeader =
        "SurveyTappingIntervalResultKey,SurveyStepResultKey,SurveyResultKey,ParticipantIdentifier,ButtonRect1,"
        + "ButtonRect2,StepViewSize,StartDate,EndDate,Taps\n"
    static let toneHeader =
        "SurveyToneAudiometryResultKey,SurveyStepResultKey,SurveyResultKey,ParticipantIdentifier,OutputVolume,"
        + "StartDate,EndDate,Samples\n"

    /// Decodes one tapping row and returns its value (rethrowing the row's error).
    static func tappingRow(_ row: String) throws(InputError) {
        _ = try MyDataHelpsTappingResults.decode(Data((tappingHeader + row + "\n").utf8), file: "bad.csv")[0].get()
    }

    static func toneRow(_ row: String) throws(InputError) {
        _ = try MyDataHelpsToneAudiometryResults.decode(Data((toneHeader + row + "\n").utf8), file: "bad.csv")[0].get()
    }

    static let badInputs: [DialectBadInput] = [
        DialectBadInput(
            name: "Taps cell that is not JSON", kind: .syntax, location: "line 2, column 10, cell $ (line 1, column 1)",
            messagePart: "cell \"Taps\" does not hold valid JSON"
        ) { try tappingRow("a,b,c,P1,,,,,,taps: L R L") },
        DialectBadInput(
            name: "unknown button in a Taps cell", kind: .schema,
            location: "line 2, column 10, cell $[0].ButtonIdentifier", messagePart: "unknown tap button"
        ) {
            try tappingRow(
                #"a,b,c,P1,,,,,,"[{""Timestamp"":0,""ButtonIdentifier"":""Both"",""Location"":{""X"":1,""Y"":2}}]""#)
        },
        DialectBadInput(
            name: "tap without a location", kind: .schema, location: "line 2, column 10, cell $[0]",
            messagePart: "expected field \"location\" (or TapCoordinate, coordinate)"
        ) { try tappingRow(#"a,b,c,P1,,,,,,"[{""timestamp"":0,""buttonIdentifier"":""left""}]""#) },
        DialectBadInput(
            name: "malformed button rectangle", kind: .schema, location: "line 2, column 5, cell $",
            messagePart: "found object with keys origin"
        ) { try tappingRow(#"a,b,c,P1,"{""origin"":{""x"":1,""y"":2}}",,,,,[]"#) },
        DialectBadInput(
            name: "Taps cell that is an object", kind: .schema, location: "line 2, column 10, cell $",
            messagePart: "expected an array of tap objects"
        ) { try tappingRow(#"a,b,c,P1,,,,,,"{""x"":1}""#) },
        DialectBadInput(
            name: "date without an offset", kind: .schema, location: "line 2, column 8",
            messagePart: "found '2021-03-04 09:15:00'"
        ) { try tappingRow("a,b,c,P1,,,,2021-03-04 09:15:00,,[]") },
        DialectBadInput(
            name: "row without a participant", kind: .schema, location: "line 2, column 4",
            messagePart: "expected a ParticipantIdentifier, found an empty cell"
        ) { try tappingRow("a,b,c,,,,,,,[]") },
        DialectBadInput(
            name: "missing Taps column", kind: .schema, location: "line 1",
            messagePart: "expected a column named \"Taps\""
        ) {
            _ = try MyDataHelpsTappingResults.decode(
                Data("ParticipantIdentifier,SurveyResultKey\nP,S\n".utf8), file: "bad.csv")
        },
        DialectBadInput(
            name: "unknown ChannelSelected", kind: .schema, location: "line 2, column 8, cell $[0].ChannelSelected",
            messagePart: "found string \"Both\""
        ) {
            try toneRow(
                #"a,b,c,P1,0.5,,,"[{""Amplitude"":0.1,""Channel"":""Left"",""ChannelSelected"":""Both"",""Frequency"":250}]""#
            )
        },
        DialectBadInput(
            name: "tone sample without a frequency", kind: .schema, location: "line 2, column 8, cell $[0]",
            messagePart: "expected field \"Frequency\""
        ) { try toneRow(#"a,b,c,P1,0.5,,,"[{""Amplitude"":0.1,""Channel"":""Left""}]""#) },
        DialectBadInput(
            name: "non-numeric OutputVolume", kind: .schema, location: "line 2, column 5",
            messagePart: "found 'loud'"
        ) { try toneRow("a,b,c,P1,loud,,,[]") },
        DialectBadInput(
            name: "missing Samples column", kind: .schema, location: "line 1", messagePart: "missing required column"
        ) {
            _ = try MyDataHelpsToneAudiometryResults.decode(
                Data("ParticipantIdentifier,SurveyResultKey,OutputVolume\nP,S,1\n".utf8), file: "bad.csv")
        },
        DialectBadInput(
            name: "unterminated quote in a JSON cell", kind: .syntax, location: "line 2, column 8",
            messagePart: "unterminated quoted field"
        ) { try toneRow(#"a,b,c,P1,0.5,,,"[{""Amplitude"":0.1"#) },
    ]

    @Test(arguments: badInputs)
    func badInputIsReportedPrecisely(_ badInput: DialectBadInput) { badInput.check() }

    @Test func oneBadRowDoesNotStopTheOthers() throws {
        let text = Self.tappingHeader + "a,b,c,P1,,,,,,[]\na,b,c,P2,,,,,,not json\na,b,c,P3,,,,,,[]\n"
        let rows = try MyDataHelpsTappingResults.decode(Data(text.utf8), file: "t.csv")
        #expect(rows.map(\.keys.participantIdentifier) == ["P1", "P2", "P3"])
        #expect(rows.map { (try? $0.get()) != nil } == [true, false, true])
    }

    /// One ragged row of a table of many participants (a cell with an unquoted comma, a cut line) fails only
    /// itself: it used to fail the whole table.
    @Test func oneRaggedRowFailsOnlyItself() throws {
        let text = Self.tappingHeader + "a,b,c,P1,,,,,,[]\na,b\na,b,c,P3,,,,,,[]\n"
        let rows = try MyDataHelpsTappingResults.decode(Data(text.utf8), file: "t.csv")
        #expect(rows.map(\.line) == [2, 3, 4])
        #expect(rows.map(\.keys.participantIdentifier) == ["P1", "", "P3"])
        #expect(rows.map { (try? $0.get()) != nil } == [true, false, true])
        let error = try #require(rows[1].result.failure)
        #expect(
            error.description
                == "t.csv: at line 3, column 3: expected 10 fields, as in line 1, found 2 fields: ragged record")
        // A table of one recording still fails as a whole.
        #expect(throws: InputError.self) { try CSVTable.parse(Data("t,x\n1,2\n3\n".utf8), file: "w.csv") }
        let aside = try CSVTable.parse(Data("t,x\n1,2\n3\n4,5\n".utf8), file: "w.csv", ragged: .setAside)
        #expect(aside.rowCount == 2 && aside.raggedRecords.map(\.line) == [3])
        #expect(aside.string(row: 1, column: 1) == "5")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
