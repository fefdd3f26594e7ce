import ActiveTasks
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs
import TestSupport
import Testing

/// `analyze -` and `inspect -` read standard input: the bytes are recognised by their content and give the same
/// numbers as the file they came from.
@Suite struct StandardInputEndToEndTests {
    static func taskproc(_ arguments: [String], stdin: String) throws -> ProcessOutput {
        try runProcess(CommandLineEndToEndTests.binary, arguments, standardInput: stdin)
    }

    static func json(_ text: String) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return (value as? [[String: Any]]) ?? [(value as? [String: Any]) ?? [:]]
    }

    @Test(arguments: [
        "mpower-samples/mhealthtools_tap_data.csv", "oxford-step-counter/user1_hand_1506421989895.csv.gz",
    ])
    func aPipedSharedFileGivesTheFilesNumbers(relative: String) throws {
        let path = sharedDataPath(relative)
        let direct = try runProcess(CommandLineEndToEndTests.binary, ["analyze", path])
        let piped = try Self.taskproc(["analyze", "-"], stdin: path)
        #expect(direct.status == 0 && piped.status == 0, "\(piped.stderr)")
        let a = try Self.json(direct.stdout)
        let b = try Self.json(piped.stdout)
        try #require(a.count == 1 && b.count == 1)
        for key in ["kind", "stepCount", "meanTapInter", "numberTaps", "cadence"] {
            #expect((a[0][key] as? NSObject) == (b[0][key] as? NSObject), "\(key)")
        }
        #expect(a[0]["kind"] != nil)
    }

    @Test func aPipedResearchKitTaskAndRecordingAreRecognisedByContent() throws {
        let dbhl = try Self.taskproc(
            ["analyze", "-", "--format", "csv"], stdin: E2E.fixture("audiometry/dbhl-task.json"))
        #expect(dbhl.status == 0, "\(dbhl.stderr)")
        #expect(dbhl.stdout.hasPrefix("kind,") && dbhl.stdout.contains("dBHLToneAudiometry"))
        let dir = try E2E.temporaryDirectory("stdin-audio")
        defer { E2E.remove(dir) }
        let wav = dir.path + "/tone.wav"
        let synth = try E2E.run(["synth", wav, "--signal", "sine", "--frequency", "1000", "--duration", "1"])
        #expect(synth.status == 0)
        let audio = try Self.taskproc(["analyze", "-"], stdin: wav)
        #expect(audio.status == 0, "\(audio.stderr)")
        #expect(try Self.json(audio.stdout).first?["kind"] as? String == "audio")
    }

    @Test func emptyOrRepeatedStandardInputIsRefused() throws {
        let dir = try E2E.temporaryDirectory("stdin-empty")
        defer { E2E.remove(dir) }
        let empty = dir.path + "/empty"
        try Data().write(to: URL(fileURLWithPath: empty))
        let none = try Self.taskproc(["analyze", "-"], stdin: empty)
        #expect(none.status == ExpectedExit.dataError)
        #expect(none.stderr.contains("nothing (0 bytes)"))
        #expect(try Self.taskproc(["analyze", "-", "-"], stdin: empty).status == ExpectedExit.usage)
        let truncated = dir.path + "/truncated"
        try Data(#"{"_class":"ORKTaskResult","#.utf8).write(to: URL(fileURLWithPath: truncated))
        #expect(try Self.taskproc(["inspect", "-"], stdin: truncated).status == ExpectedExit.partlyUnreadable)
    }

    @Test(arguments: [
        ("RIFF\u{0}\u{0}\u{0}\u{0}WAVE", "wav"), ("fLaC", "flac"), ("OggS", "ogg"), ("FORM\u{0}\u{0}\u{0}\u{0}AIFF", "aiff"),
        ("caff", "caf"), ("\u{0}\u{0}\u{0}\u{20}ftypM4A ", "m4a"), ("PK\u{3}\u{4}", "zip"), ("  \n{\"a\":1}", "json"),
        ("\u{FEFF}[1]", "json"), ("time,x,y,z\n", "csv"), ("", "csv"),
    ])
    func contentGivesTheExtension(head: String, expected: String) {
        #expect(StandardInput.fileExtension(forContentStartingWith: Data(head.utf8)) == expected)
    }
}
