import Foundation
import TestSupport
import Testing

@testable import StudyInputs

@Suite struct MPowerTests {
    // MARK: File names

    typealias Expected = (
        content: MPowerFileName.Content, activity: String?, phase: MPowerFileName.Phase?,
        hand: MPowerFileName.Hand?, upload: String, field: String?
    )

    static let names: [(String, Expected)] = [
        (
            "accel_walking_outbound.json.items",
            (.recorder(.accelerometer), "walking", .outbound, nil, "accel_walking_outbound.json", "items")
        ),
        (
            "deviceMotion_walking_return.json.items",
            (.recorder(.deviceMotion), "walking", .return, nil, "deviceMotion_walking_return.json", "items")
        ),
        (
            "pedometer_walking_outbound.json.items",
            (.recorder(.pedometer), "walking", .outbound, nil, "pedometer_walking_outbound.json", "items")
        ),
        (
            "accelerometer_walking_outbound.json.items",
            (.recorder(.accelerometer), "walking", .outbound, nil, "accelerometer_walking_outbound.json", "items")
        ),
        (
            "accel_walking_rest.json.items",
            (.recorder(.accelerometer), "walking", .rest, nil, "accel_walking_rest.json", "items")
        ),
        (
            "/cache/853/accel_walking_outbound.json.items-7c1d2e3f-0a4b-4c5d-8e9f-0123456789ab.tmp",
            (.recorder(.accelerometer), "walking", .outbound, nil, "accel_walking_outbound.json", "items")
        ),
        (
            "accel_walking_return.json.items-1234567",
            (.recorder(.accelerometer), "walking", .return, nil, "accel_walking_return.json", "items")
        ),
        (
            "tapping_results.json.TappingSamples",
            (.tappingSamples, "tapping", nil, nil, "tapping_results.json", "TappingSamples")
        ),
        (
            "tapping_left.json.TappingSamples",
            (.tappingSamples, "tapping", nil, .left, "tapping_left.json", "TappingSamples")
        ),
        (
            "tapping_right.json.TappingSamples",
            (.tappingSamples, "tapping", nil, .right, "tapping_right.json", "TappingSamples")
        ),
        ("accel_tapping.json.items", (.recorder(.accelerometer), "tapping", nil, nil, "accel_tapping.json", "items")),
        (
            "deviceMotion_walking_outboundu002ejsonu002eitems",
            (.recorder(.deviceMotion), "walking", .outbound, nil, "deviceMotion_walking_outbound.json", "items")
        ),
        (
            "accel_walking_outbound.json",
            (.recorder(.accelerometer), "walking", .outbound, nil, "accel_walking_outbound.json", nil)
        ),
        (
            "DEVICEMOTION_WALKING_REST.JSON.ITEMS.gz",
            (.recorder(.deviceMotion), "walking", .rest, nil, "DEVICEMOTION_WALKING_REST.json", "ITEMS")
        ),
        ("tapping_results.json", (.tappingSamples, "tapping", nil, nil, "tapping_results.json", nil)),
    ]

    @Test(arguments: names)
    func fileNamesAreClassified(name: String, expected: Expected) throws {
        let n = try #require(MPowerFileName(path: name))
        #expect(n.content == expected.content)
        #expect(n.activity == expected.activity)
        #expect(n.phase == expected.phase)
        #expect(n.hand == expected.hand)
        #expect(n.uploadFileName == expected.upload)
        #expect(n.field == expected.field)
    }

    @Test(arguments: [
        "pdkit_mpower_gait_stationary.json", "accel_walking_outbound.csv", "voice_walking.json.items",
        "accel_walking_sideways.json.items", "accel_walking_outbound.json.TappingSamples",
        "tapping_left.json.items", "audio_audio.m4a", "accel_walking_outbound.json.items.bak", "",
    ])
    func otherNamesAreNotClassified(name: String) {
        #expect(MPowerFileName(path: name) == nil)
    }

    // MARK: Tapping

    @Test func pdkitTappingSample() throws {
        let path = DialectFixtures.shared("mpower-samples/pdkit_mpower_finger_tapping.json")
        let rec = try MPowerTappingReader.read(path: path)
        #expect(rec.samples.count == 166)
        #expect(rec.samples.filter { $0.button == .left }.count == 84)
        #expect(rec.samples.filter { $0.button == .right }.count == 82)
        #expect(rec.samples.filter { $0.button == .none }.count == 0)
        #expect(
            rec.samples[0]
                == TapSample(timestamp: 0, duration: nil, button: .left, location: ViewPoint(x: 89.5, y: 454)))
        #expect(rec.samples[1].timestamp == 0.05325162500230363)
        #expect(rec.samples[1].location == ViewPoint(x: 227, y: 382.5))
        #expect(rec.samples.last!.timestamp == 19.93806495833269)
        #expect(rec.samples.allSatisfy { $0.duration == nil })
        #expect(rec.leftButton == nil && rec.rightButton == nil && rec.viewSize == nil && rec.startDate == nil)
    }

    @Test func tappingFixturesInBothContainers() throws {
        let path = fixturePath("mpower/tapping_left.json.TappingSamples")
        #expect(MPowerFileName(path: path)?.hand == .left)
        let rec = try MPowerTappingReader.read(path: path)
        #expect(rec.samples.map(\.button) == [.left, .right, .left, .none, .right, .left])
        #expect(rec.samples.map(\.timestamp) == [0, 0.131, 0.262, 0.377, 0.455, 0.598])
        #expect(rec.samples[4].location == ViewPoint(x: 233.25, y: 399))
        #expect(rec.samples[5].location == ViewPoint(x: -3, y: 0.5))
        let whole = try MPowerTappingReader.read(path: fixturePath("mpower/tapping_results.json"))
        #expect(whole.samples == Array(rec.samples.prefix(3)))
    }

    @Test(arguments: [
        ("{89.5, 454}", ViewPoint?.some(ViewPoint(x: 89.5, y: 454))), ("{227,382.5}", ViewPoint(x: 227, y: 382.5)),
        (" { -1e1 , 2.5E-1 } ", ViewPoint(x: -10, y: 0.25)), ("{1, 2, 3}", nil), ("89.5, 454", nil),
        ("{89.5 454}", nil),
        ("{x, y}", nil), ("{1, 2}}", nil), ("{1, nan}", nil), ("{{1, 2}, {3, 4}}", nil), ("", nil),
    ])
    func tapCoordinateStrings(text: String, expected: ViewPoint?) {
        #expect(MPowerTappingReader.coordinate(text) == expected)
    }

    // MARK: Recorder files

    @Test func stationaryAccelerometerSampleDecodes() throws {
        let path = DialectFixtures.shared("mpower-samples/pdkit_mpower_gait_stationary.json")
        let decoded = try RecorderLogDecoder.decode(path: path)
        #expect(decoded.container == .bareArray)
        guard case .accelerometer(let log) = decoded.log else {
            Issue.record("expected an accelerometer log, got \(decoded.log.kind)")
            return
        }
        #expect(log.timestamp.count == 2023)
        #expect(abs(log.timestamp.last! - log.timestamp[0] - 20.0009) < 1e-3)
        #expect(log.unit == .g)
        let n = Double(log.timestamp.count)
        let mean = (
            log.acceleration.x.reduce(0, +) / n, log.acceleration.y.reduce(0, +) / n,
            log.acceleration.z.reduce(0, +) / n
        )
        #expect(abs(mean.0 - 0.0329) < 1e-3 && abs(mean.1) < 1e-2 && abs(mean.2 + 1.0095) < 1e-3)
    }

    @Test func recorderFixturesDecodeWithTheKindFromTheirNames() throws {
        for (file, count) in [
            ("accel_walking_outbound.json.items-7c1d2e3f-0a4b-4c5d-8e9f-0123456789ab.tmp", 10),
            ("deviceMotion_walking_return.json.items", 10), ("pedometer_walking_outbound.json.items", 3),
        ] {
            let path = fixturePath("mpower/" + file)
            let name = try #require(MPowerFileName(path: path))
            guard case .recorder(let kind) = name.content else {
                Issue.record("\(file) is not a recorder file")
                continue
            }
            let decoded = try RecorderLogDecoder.decode(path: path, kind: kind)
            #expect(decoded.log.kind == kind)
            #expect(decoded.log.count == count)
            #expect(decoded.container == .bareArray)
        }
        let motion = try RecorderLogDecoder.decode(
            path: fixturePath("mpower/deviceMotion_walking_return.json.items"))
        guard case .deviceMotion(let log) = motion.log else {
            Issue.record("not device motion")
            return
        }
        #expect(log.magneticFieldAccuracy == Array(repeating: -1, count: 10))
        #expect(log.rotationRate.y[3] == -0.3)
        let pedometer = try RecorderLogDecoder.decode(
            path: fixturePath("mpower/pedometer_walking_outbound.json.items"))
        guard case .items(.pedometer, let items) = pedometer.log else {
            Issue.record("not pedometer")
            return
        }
        #expect(items.last?["numberOfSteps"] == .number(15))  // cumulative: the last item is the total
        let typed = try PedometerLog.decode(path: fixturePath("mpower/pedometer_walking_outbound.json.items"))
        #expect(typed.samples.map(\.numberOfSteps) == [4, 9, 15])
        #expect(typed.samples.last?.distance == 10.6)
        #expect(typed.issues.isEmpty)
    }

    // MARK: Bad input

    static func json(_ text: String) -> Data { Data(text.utf8) }

    static let badInputs: [DialectBadInput] = [
        DialectBadInput(
            name: "malformed TapCoordinate", kind: .schema, location: "$[1].TapCoordinate",
            messagePart: "found string \"{12; 30}\": malformed TapCoordinate"
        ) {
            _ = try MPowerTappingReader.decode(
                json(
                    #"[{"TapTimeStamp":0,"TapCoordinate":"{1, 2}","TappedButtonId":"TappedButtonLeft"},"#
                        + #"{"TapTimeStamp":0.1,"TapCoordinate":"{12; 30}","TappedButtonId":"TappedButtonRight"}]"#),
                file: "bad.json")
        },
        DialectBadInput(
            name: "unknown TappedButtonId", kind: .schema, location: "$[0].TappedButtonId",
            messagePart: "found string \"TappedButtonMiddle\": unknown TappedButtonId"
        ) {
            _ = try MPowerTappingReader.decode(
                json(#"[{"TapTimeStamp":0,"TapCoordinate":"{1, 2}","TappedButtonId":"TappedButtonMiddle"}]"#),
                file: "bad.json")
        },
        DialectBadInput(
            name: "TapTimeStamp as text", kind: .schema, location: "$[0].TapTimeStamp",
            messagePart: "expected a number (s), found string \"0.5\""
        ) {
            _ = try MPowerTappingReader.decode(
                json(#"[{"TapTimeStamp":"0.5","TapCoordinate":"{1, 2}","TappedButtonId":"TappedButtonLeft"}]"#),
                file: "bad.json")
        },
        DialectBadInput(
            name: "tap without TapCoordinate", kind: .schema, location: "$[0]",
            messagePart: "expected field \"TapCoordinate\""
        ) {
            _ = try MPowerTappingReader.decode(
                json(#"[{"TapTimeStamp":0,"TappedButtonId":"TappedButtonLeft"}]"#), file: "bad.json")
        },
        DialectBadInput(
            name: "not an array of taps", kind: .schema, location: "$",
            messagePart: "expected an array of tap samples (TappingSamples), found object with keys items"
        ) { _ = try MPowerTappingReader.decode(json(#"{"items":[]}"#), file: "bad.json") },
        DialectBadInput(
            name: "truncated tapping JSON", kind: .syntax, location: "$[0] (line 1, column 17)",
            messagePart: "end of file"
        ) { _ = try MPowerTappingReader.decode(json(#"[{"TapTimeStamp""#), file: "bad.json") },
        DialectBadInput(
            name: "empty tapping file", kind: .syntax, location: "$ (line 1, column 1)", messagePart: "empty document"
        ) {
            _ = try MPowerTappingReader.decode(Data(), file: "bad.json")
        },
        DialectBadInput(
            name: "binary garbage instead of tapping JSON", kind: .syntax, location: "$ (line 1, column 1)",
            messagePart: "byte 0x89"
        ) { _ = try MPowerTappingReader.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]), file: "bad.json") },
    ]

    @Test(arguments: badInputs)
    func badInputIsReportedPrecisely(_ badInput: DialectBadInput) { badInput.check() }
}
