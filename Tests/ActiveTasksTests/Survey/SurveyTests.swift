import Foundation
import TestSupport
import Testing

@testable import ActiveTasks
@testable import SensorSignal
@testable import StudyInputs
@testable import StudyOutputs

/// Surveys and consent (issue 18): every question result class and the consent signature read into tidy rows;
/// secrets never read. The expected values are the fixture's own (written by hand from ResearchKit's
/// serialisation keys in `ORKESerialization.m`), not the code's output.
@Suite struct SurveyTests {
    static func survey(_ name: String) throws -> SurveyResult {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path(name))
        #expect(input.kinds == [.survey], "\(input.kinds)")
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        let results = SurveyAnalysis.analyze(input, options: AnalysisOptions())
        try #require(results.count == 1)
        return results[0]
    }

    static func row(_ survey: SurveyResult, _ question: String) throws -> SurveyAnswer {
        try #require(survey.answers.first { $0.questionIdentifier == question }, "no row for \(question)")
    }

    @Test func everyAnswerTypeBecomesATypedRow() throws {
        let s = try Self.survey("all-answer-types.json")
        #expect(s.taskIdentifier == "symptomSurvey")
        #expect(s.answers.count == 19)
        #expect(s.answers.map(\.questionIdentifier).prefix(3) == ["painStep", "medication", "symptoms"])

        let pain = try Self.row(s, "painStep")
        #expect(pain.stepIdentifier == "painStep" && pain.answerType == "scale" && pain.valueNumber == 7)
        #expect(pain.value == "7" && pain.questionType == 1)
        #expect(pain.startDate?.description == "2024-05-02T09:15:01+02:00")

        let medication = try Self.row(s, "medication")
        #expect(medication.stepIdentifier == "aboutYou" && medication.answerType == "singleChoice")
        #expect(medication.valueText == "Just took PD medication (0-1 hour ago)")
        #expect(medication.choiceValues == [.string("Just took PD medication (0-1 hour ago)")])

        let symptoms = try Self.row(s, "symptoms")
        #expect(symptoms.answerType == "multipleChoice" && symptoms.value == "1|4|5")
        #expect(symptoms.choiceValues == [.number(1), .number(4), .number(5)] && symptoms.valueNumber == nil)

        let fell = try Self.row(s, "fell")
        #expect(fell.answerType == "boolean" && fell.value == "false" && fell.valueNumber == 0)

        let notes = try Self.row(s, "notes")
        #expect(notes.answerType == "text" && notes.valueText == "Slept badly, \"tired\", stiff")

        let weight = try Self.row(s, "weight")
        #expect(weight.answerType == "decimal" && weight.valueNumber == 71.25 && weight.unit == "kg")
        let steps = try Self.row(s, "stepsToday")
        #expect(steps.answerType == "integer" && steps.valueNumber == 3200 && steps.unit == nil)

        let dose = try Self.row(s, "lastDose")
        #expect(dose.answerType == "timeOfDay" && dose.valueText == "07:45")
        let sleep = try Self.row(s, "sleep")
        #expect(sleep.answerType == "timeInterval" && sleep.valueNumber == 25_200 && sleep.unit == "s")

        let diagnosed = try Self.row(s, "diagnosed")
        #expect(diagnosed.answerType == "date" && diagnosed.timeZone == 3600 && diagnosed.calendar == "gregorian")
        let date = try #require(diagnosed.valueDate)
        #expect(date.timeIntervalSince1970 == 1_572_822_000)  // 2019-11-03T23:00:00Z
        #expect(date.utcOffset == 3600)

        let home = try Self.row(s, "home")
        #expect(home.answerType == "location" && home.latitude == 46.948 && home.longitude == 7.4474)
        #expect(home.valueText == "Bern" && home.value == "46.948,7.4474")

        let pressure = try Self.row(s, "bloodPressure")
        #expect(pressure.answerType == "multipleComponent" && pressure.value == "120/80")
        #expect(pressure.choiceValues == [.string("120"), .string("80")])

        let ladder = try Self.row(s, "ladder")
        #expect(ladder.answerType == "socioeconomicLadder" && ladder.valueNumber == 6 && ladder.questionType == nil)

        // A web-view consent step: what the page posted, and its signature (present = signed).
        let web = try Self.row(s, "webConsent")
        #expect(web.answerType == "webViewResult" && web.valueText == "agreed:v3" && web.stepIdentifier == "webConsent")
        let signature = try Self.row(s, "webConsentSignature")
        #expect(signature.answerType == "signature" && signature.value == "true" && signature.valueNumber == 1)
        #expect(signature.endDate?.description == "2024-05-02T09:19:28+02:00")
    }

    /// "I don't know", skipped and a missing result are three different things.
    @Test func dontKnowSkippedAndMissingStayDistinct() throws {
        let s = try Self.survey("all-answer-types.json")
        let mood = try Self.row(s, "mood")
        #expect(mood.dontKnow && !mood.skipped && mood.value == nil && mood.valueNumber == nil)
        let comments = try Self.row(s, "comments")
        #expect(comments.skipped && !comments.dontKnow && comments.value == nil)
        // A question without a result has no row at all.
        #expect(!s.answers.contains { $0.questionIdentifier == "neverShown" })
        #expect(s.skippedCount == 1 && s.dontKnowCount == 1 && s.withheldCount == 1 && s.answeredCount == 16)
        for row in s.answers where row.questionIdentifier != "mood" && row.questionIdentifier != "comments"
            && row.withheld == nil
        {
            #expect(!row.skipped && !row.dontKnow && row.value != nil, "\(row.questionIdentifier)")
        }
    }

    @Test func consentSignatureKeepsTheDecisionAndTheSignerNotTheImage() throws {
        let s = try Self.survey("all-answer-types.json")
        let consent = try Self.row(s, "participant")
        #expect(consent.stepIdentifier == "consentReview" && consent.answerType == "consentSignature")
        #expect(consent.consented == false && consent.value == "false" && consent.valueNumber == 0)
        #expect(consent.signatureName == "Ada Muster" && consent.signatureDate == "02.05.24")
        let json = try ResultEncoding.json(s)
        #expect(!json.contains("iVBORw0KGgo="), "the signature image reached the output")
        // With a consent contract the decision keeps it, for the consent document (the answer never does).
        var options = AnalysisOptions()
        options.consentContract = try ConsentContract(file: SurveyFixtures.path("consent-contract.json"))
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("all-answer-types.json"))
        let kept = try #require(SurveyAnalysis.analyze(input, options: options).first)
        #expect(kept.consent?.signatureImage == "iVBORw0KGgo=")
        #expect(kept.answers.allSatisfy { $0.signatureImage == nil })
        options.dropsIdentifiers = true
        #expect(SurveyAnalysis.analyze(input, options: options).first?.consent?.signatureImage == nil)
    }

    /// `taskRunUUID` is optional (ResearchKit's own 2024 test results omit it); a malformed one is still an error.
    @Test func taskRunUUIDIsOptional() throws {
        let s = try Self.survey("all-answer-types.json")
        #expect(s.taskRunUUID == nil)
        #expect(s.warnings.contains("the task result has no taskRunUUID"))
        let bad = #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"not-a-uuid","results":[]}"#
        #expect(throws: InputError.self) { try ResearchKitDecoder.decode(Data(bad.utf8), file: "bad.json") }
        let good = #"{"_class":"ORKTaskResult","identifier":"t","taskRunUUID":"FAFFB3BF-79F7-4B33-A020-4CE98BDC79C4"}"#
        let document = try ResearchKitDecoder.decode(Data(good.utf8), file: "good.json")
        #expect(document.taskResult?.taskRunUUID?.uuidString == "FAFFB3BF-79F7-4B33-A020-4CE98BDC79C4")
    }

    // MARK: Secrets

    @Test func passwordsAndPasscodesAreNeverRead() throws {
        let s = try Self.survey("all-answer-types.json")
        let passcode = try Self.row(s, "appPasscode")
        #expect(passcode.withheld == "secret" && passcode.value == nil && passcode.valueText == nil)
        #expect(!passcode.skipped, "a withheld answer is not a skipped question")

        let registration = try Self.survey("registration.json")
        let withheld = registration.answers.filter { $0.withheld == "secret" }.map(\.questionIdentifier)
        #expect(withheld == ["ORKRegistrationFormItemPassword", "ORKRegistrationFormItemConfirmPassword"])
        #expect(try Self.row(registration, "ORKRegistrationFormItemEmail").valueText == "ada@example.org")
        #expect(registration.warnings.contains("2 answers are secrets (password or passcode fields) and were not read"))
    }

    @Test(arguments: [
        "ORKRegistrationFormItemPassword", "ORKLoginFormItemPassword", "newPasscode", "PASSWD2",
        // Spelled to slip past a plain substring test: Cyrillic с and о, spaces and punctuation, a zero-width
        // space, a soft hyphen, full-width letters, Greek ο.
        "Pass\u{441}ode", "p\u{430}ssw\u{43E}rd", "pass word", "pass_word", "pass-code", "pass\u{200B}word",
        "pass\u{AD}code", "\u{FF30}\u{FF41}\u{FF53}\u{FF53}\u{FF57}\u{FF4F}\u{FF52}\u{FF44}", "passw\u{3BF}rd",
        "PASS.CODE",
    ])
    func secretIdentifiers(identifier: String) { #expect(ResearchKit.isSecret(identifier)) }

    @Test(arguments: ["ORKRegistrationFormItemEmail", "pin", "spinalPain", "passage"])
    func ordinaryIdentifiers(identifier: String) { #expect(!ResearchKit.isSecret(identifier)) }

    /// A secret of the wrong JSON type is not an error whose message would quote it: it is withheld like any other.
    @Test func aMalformedSecretIsWithheldNotQuoted() throws {
        let json = #"""
            {"_class":"ORKStepResult","identifier":"login","results":[
              {"_class":"ORKTextQuestionResult","identifier":"ORKLoginFormItemPassword","textAnswer":982451653},
              {"_class":"ORKNumericQuestionResult","identifier":"pinPasscode","numericAnswer":"77331"}]}
            """#
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "login.json")
        let root = try #require(document.result)
        let s = SurveyAnalysis.survey(root, source: "login.json")
        #expect(s.answers.map(\.withheld) == ["secret", "secret"])
        let text = try ResultEncoding.json(s) + document.warnings.map(\.message).joined()
        #expect(!text.contains("982451653") && !text.contains("77331"))
    }

    /// Every rendering of the library (the command-line formats, the exports and batch are in
    /// `SurveyEndToEndTests`).
    @Test func noRenderingHoldsASecret() throws {
        for name in ["all-answer-types.json", "registration.json"] {
            let s = try Self.survey(name)
            for format in [OutputFormat.json, .table, .csv] {
                let text = try ResultEncoding.render(s, as: format)
                for secret in SurveyFixtures.secrets { #expect(!text.contains(secret), "\(name) \(format): \(secret)") }
            }
        }
    }

    // MARK: Renderings

    @Test func csvIsOneTidyRowPerAnswer() throws {
        let s = try Self.survey("registration.json")
        let table = s.csvTable
        #expect(Array(table.header.prefix(16)) == [
            "taskRunUUID", "taskIdentifier", "stepIdentifier", "questionIdentifier", "answerType", "value",
            "valueNumber", "valueText", "valueDate", "unit", "choiceValues", "dontKnow", "skipped", "withheld",
            "startDate", "endDate",
        ])
        #expect(table.rows.count == s.answers.count && table.rows.allSatisfy { $0.count == table.header.count })
        let gender = try #require(table.rows.first { $0[3] == "ORKRegistrationFormItemGender" })
        #expect(gender[0] == "2C7D5C1E-3F1B-4B52-9B8E-0D1C2A3B4C5D" && gender[1] == "registrationTask")
        #expect(gender[4] == "singleChoice" && gender[5] == "female" && gender[10] == #"["female"]"#)
    }

    /// A walking task that also asks a question gives both results, walking first.
    @Test func aTaskWithAnswersAndActiveStepsGivesBoth() throws {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("walking-with-mood"))
        #expect(input.kinds == [.walking, .survey], "\(input.kinds)")
        let analyses = AnalysisRegistry.analyze(input)
        let kinds = analyses.flatMap(\.results).map(\.kind)
        #expect(kinds.first == .walking && kinds.last == .survey, "\(kinds)")
        let survey = try #require(analyses.flatMap(\.results).last?.result as? SurveyResult)
        #expect(survey.answers.map(\.valueText) == ["Immediately before Parkinson medication"])
    }

    /// Answers stand last among an input's kinds whatever the registry order (``SurveyAnalysis/position``): a Stroop
    /// task with a question step is a Stroop task, its answers analysed after it.
    @Test func answersFollowTheTaskTheyArePartOf() throws {
        let directory = TemporaryDirectory()
        let task = """
            {"_class":"ORKTaskResult","identifier":"stroop","taskRunUUID":"0B8E2A55-3C1D-4F7A-9E61-2D4C8B7A1F51",
             "results":[
              {"_class":"ORKStepResult","identifier":"mood","results":[
               {"_class":"ORKTextQuestionResult","identifier":"mood","questionType":7,"textAnswer":"fine"}]},
              {"_class":"ORKStepResult","identifier":"stroop","results":[
               {"_class":"ORKStroopResult","identifier":"stroop","color":"RED","text":"RED","colorSelected":"RED",
                "startTime":1,"endTime":2}]}]}
            """
        try task.write(toFile: directory.path("taskResult.json"), atomically: true, encoding: .utf8)
        let input = try AnalysisRegistry.load(path: directory.path("taskResult.json"))
        #expect(input.kinds == [.stroop, .survey] && input.taskKind == .stroop, "\(input.kinds)")
        #expect(AnalysisRegistry.analyze(input).flatMap(\.results).map(\.kind) == [.stroop, .survey])
    }
}

/// `--drop-identifiers`: names, e-mail, birth date, phone, locations and a consent signer's details withheld.
@Suite struct DropIdentifiersTests {
    @Test func identifyingAnswersAreWithheld() throws {
        var options = AnalysisOptions()
        options.dropsIdentifiers = true
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.json"))
        let survey = try #require(SurveyAnalysis.analyze(input, options: options).first)
        let withheld = Dictionary(uniqueKeysWithValues: survey.answers.map { ($0.questionIdentifier, $0.withheld) })
        #expect(withheld["ORKRegistrationFormItemEmail"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemGivenName"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemFamilyName"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemDOB"] == "identifier")
        #expect(withheld["ORKRegistrationFormItemPassword"] == "secret")
        #expect(withheld["ORKRegistrationFormItemGender"] == .some(nil) && withheld["sharingStep"] == .some(nil))
        let consent = try #require(survey.answers.first { $0.answerType == "consentSignature" })
        #expect(consent.consented == true && consent.signatureGivenName == nil && consent.signatureFamilyName == nil)
        #expect(consent.signatureDate == nil)
        let text = try ["json", "csv", "table"].map { try ResultEncoding.render(survey, as: OutputFormat(rawValue: $0)!) }
            .joined()
        for identifying in ["ada@example.org", "Muster", "1987-03-09", "3/9/17"] {
            #expect(!text.contains(identifying), "\(identifying)")
        }
        // Without the option, nothing is withheld but the secrets.
        let kept = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        #expect(kept.answers.filter { $0.withheld != nil }.count == 2)
    }

    /// The report says which kind of withholding it was (it once said "secret" for every withheld answer).
    @Test func theReportNamesTheWithholding() throws {
        let json = try String(contentsOfFile: SurveyFixtures.path("registration.json"), encoding: .utf8)
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "r.json")
        let survey = SurveyAnalysis.survey(try #require(document.result), source: "r.json", dropsIdentifiers: true)
        let object = try #require(try JSONParser.parse(Data(try ResultEncoding.json(survey).utf8), file: "r").objectValue)
        let html = SurveyAnalysis.reportPlots(object, readSources: false)
        #expect(html.contains("<td>ORKRegistrationFormItemEmail</td><td>withheld (identifier)</td>"))
        #expect(html.contains("<td>ORKRegistrationFormItemPassword</td><td>withheld (secret)</td>"))
    }

    @Test func locationsAreIdentifying() throws {
        let json = try String(contentsOfFile: SurveyFixtures.path("all-answer-types.json"), encoding: .utf8)
        let document = try ResearchKitDecoder.decode(Data(json.utf8), file: "s.json")
        let survey = SurveyAnalysis.survey(try #require(document.result), source: "s.json", dropsIdentifiers: true)
        let home = try #require(survey.answers.first { $0.questionIdentifier == "home" })
        #expect(home.withheld == "identifier" && home.latitude == nil && home.value == nil)
    }

    @Test(arguments: ["ORKRegistrationFormItemDOB", "email_address", "Participant.FirstName", "mobilePhone", "birthDate"])
    func identifying(identifier: String) { #expect(ResearchKit.isIdentifying(identifier)) }

    @Test(arguments: ["medication", "gender", "painStep", "symptoms"])
    func notIdentifying(identifier: String) { #expect(!ResearchKit.isIdentifying(identifier)) }
}

/// ResearchKit results archived with NSKeyedArchiver (BridgeAppSDK): a binary property list whose object graph is
/// resolved into the serializer's JSON. The fixture is written by `Tools/fixtures/make_keyed_archive.py` with the
/// values of `registration.json`, so the two readings must agree.
@Suite struct KeyedArchiveTests {
    @Test func anArchivedRegistrationReadsLikeItsJSON() throws {
        let input = try AnalysisRegistry.load(path: SurveyFixtures.path("registration.keyed.plist"))
        #expect(input.dialect == .researchKitResult && input.kinds == [.survey], "\(input.kinds)")
        #expect(!input.problems.contains { $0.severity == .error }, "\(input.problems)")
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        #expect(survey.taskIdentifier == "registrationTask")
        #expect(survey.taskRunUUID == "2C7D5C1E-3F1B-4B52-9B8E-0D1C2A3B4C5D")
        func row(_ id: String) throws -> SurveyAnswer { try SurveyTests.row(survey, id) }
        #expect(try row("ORKRegistrationFormItemEmail").valueText == "ada@example.org")
        #expect(try row("ORKRegistrationFormItemPassword").withheld == "secret")
        #expect(try row("ORKRegistrationFormItemGender").choiceValues == [.string("female")])
        // The same instant as registration.json's 1987-03-09T16:48:33-0800; the archive's time zone is a name,
        // read as its offset at that date.
        let json = try SurveyTests.survey("registration.json")
        let dob = try row("ORKRegistrationFormItemDOB")
        #expect(dob.valueDate?.date == (try SurveyTests.row(json, "ORKRegistrationFormItemDOB")).valueDate?.date)
        #expect(dob.timeZone == -28_800 && dob.calendar == "gregorian")
        #expect(try row("pain").valueNumber == 7 && (try row("fell")).value == "false")
        #expect(try row("lastDose").valueText == "07:45")
        #expect(try row("weight").valueNumber == 71.25 && (try row("weight")).unit == "kg")
        let consent = try row("participant")
        #expect(consent.consented == true && consent.signatureName == "Ada Muster" && consent.signatureDate == "3/9/17")
        #expect(try row("ORKRegistrationFormItemEmail").startDate?.description == "2017-03-10T00:48:45Z")
        let text = try ResultEncoding.json(survey) + (try ResultEncoding.render(survey, as: .csv))
        for secret in SurveyFixtures.secrets { #expect(!text.contains(secret)) }
    }

    /// A binary property list of `objects` (encoded object bytes), 1-byte offsets and references, top object 0.
    static func plist(_ objects: [[UInt8]], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects {
            offsets.append(UInt8(bytes.count))
            bytes += o
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    /// 20 levels of an array holding its child twice, then a number.
    static var sharedLevels: Data {
        var objects: [[UInt8]] = []
        for i in 0..<20 {
            let child = UInt8(i + 1)
            objects.append([0xA2, child, child])
        }
        objects.append([0x10, 0x01])
        return plist(objects)
    }

    @Test func hostilePropertyListsAreErrorsNotTraps() throws {
        let good = try Data(contentsOf: URL(fileURLWithPath: SurveyFixtures.path("registration.keyed.plist")))
        var cases: [(String, Data)] = [
            ("truncated", good.prefix(good.count / 2)),
            ("header only", Data("bplist00".utf8)),
            ("an array that contains itself", Self.plist([[0xA1, 0x00]])),
            ("a reference past the objects", Self.plist([[0xA1, 0x05]])),
            ("a dictionary with a number key", Self.plist([[0xD1, 0x01, 0x01], [0x10, 0x07]])),
            ("a string longer than the file", Self.plist([[0x5F, 0x10, 0xFF, 0x61]])),
            ("an unknown marker", Self.plist([[0x70]])),
            // 20 levels of an array holding its child twice: 2^20 reads if shared objects were re-read freely.
            ("shared objects", Self.sharedLevels),
            ("not an archive", Self.plist([[0x10, 0x07]])),
        ]
        var bad = [UInt8](good)
        bad[bad.count - 9] ^= 0x40  // the offset table moved
        cases.append(("a corrupt trailer", Data(bad)))
        for (name, data) in cases {
            #expect(throws: InputError.self, "\(name)") { _ = try KeyedArchive.researchKitJSON(data, file: "x.plist") }
        }
    }
}

/// The front-facing camera step: its video as an answer row, with the duration FFmpeg reads from the file beside
/// the result (issue 18 item 1: "file, content type, duration via the existing FFmpeg path").
@Suite struct CameraStepTests {
    @Test func theVideoRowHasItsContentTypeAndDuration() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("camera-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 1.5 s video, 10 frames/s, no audio, made by FFmpeg (a dependency of taskproc).
        let video = dir.appendingPathComponent("face.mp4").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = [
            "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1.5:size=64x64:rate=10", "-pix_fmt",
            "yuv420p", video,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not make the test video")
        let task = #"""
            {"_class":"ORKTaskResult","identifier":"selfie","taskRunUUID":"9D0E4C2A-1B3F-4A5D-8C7E-6F5A4B3C2D1E",
             "results":[{"_class":"ORKStepResult","identifier":"camera","results":[
               {"_class":"ORKFrontFacingCameraStepResult","identifier":"camera","fileName":"face.mp4",
                "contentType":"video/mp4","retryCount":1},
               {"_class":"ORKFrontFacingCameraStepResult","identifier":"missing","fileName":"gone.mov",
                "contentType":"video/quicktime","retryCount":0}]}]}
            """#
        let file = dir.appendingPathComponent("taskResult.json").path
        try Data(task.utf8).write(to: URL(fileURLWithPath: file))
        let input = try AnalysisRegistry.load(path: file)
        let survey = try #require(SurveyAnalysis.analyze(input, options: AnalysisOptions()).first)
        let row = try SurveyTests.row(survey, "camera")
        #expect(row.answerType == "video" && row.value == "face.mp4" && row.contentType == "video/mp4")
        #expect(abs((row.valueNumber ?? 0) - 1.5) < 0.05 && row.unit == "s", "\(String(describing: row.valueNumber))")
        let missing = try SurveyTests.row(survey, "missing")
        #expect(missing.valueNumber == nil && missing.contentType == "video/quicktime")
        #expect(survey.warnings.contains { $0.contains("gone.mov") })
        // FHIR: an attachment; ResearchKit: the result written back.
        let bundle = FHIRExport.bundle(try ExportRecord.records(of: survey), context: ExportContext(input: input))
        #expect(try ResultEncoding.json(bundle.bundle).contains("\"valueAttachment\""))
    }

    @Test(arguments: ["1.500000", "0", "N/A", "inf", "1e300", "-2", "", "nan"])
    func durationsFromFFprobe(text: String) {
        let parsed = FFmpegMediaProbe.parsedDuration(text + "\n")
        let expected: Double? = ["1.500000": 1.5, "0": 0][text]
        #expect(parsed == expected, "\(text)")
    }
}
