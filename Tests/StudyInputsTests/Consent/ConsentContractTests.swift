import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// The study's consent as a FHIR Contract (C3-PRO's consent module input, issue 54 item 5): its terms, its
/// eligibility Group, and the eligibility of a participant's answers.
///
/// Expected outcomes follow C3-PRO's rule (`Group+C3-PRO.swift`: a criterion must be met when `valueBoolean` ≠
/// `exclude`) and R4's `Group.characteristic` (value[x], `exclude` 1..1, Quantity comparators).
@Suite struct ConsentContractTests {
    static let fixture = SurveyFixtures.path("consent-contract.json")

    static func answer(_ step: String, _ question: String, type: String, value: String?, number: Double? = nil)
        -> SurveyAnswer
    {
        var a = SurveyAnswer(
            stepIdentifier: step, questionIdentifier: question, className: "ORKQuestionResult", answerType: type)
        a.value = value
        a.valueNumber = number
        a.skipped = value == nil
        return a
    }

    static func answers(age: Double?, livesInUS: Bool?, pregnant: Bool?) -> [SurveyAnswer] {
        [
            answer("eligibilityStep", "age", type: "integer", value: age.map(SurveyAnswer.text), number: age),
            answer("livesInUS", "livesInUS", type: "boolean", value: livesInUS.map { $0 ? "true" : "false" }),
            answer("eligibilityStep", "pregnant", type: "boolean", value: pregnant.map { $0 ? "true" : "false" }),
        ]
    }

    @Test func readsTermsCriteriaAndTheTeam() throws {
        let c = try ConsentContract(file: Self.fixture)
        #expect(c.title == "Walk Study consent" && c.authority == "Walk Study Team" && c.version == "2")
        #expect(c.url == "https://example.org/fhir/Contract/walkstudy-consent")
        #expect(c.terms.map(\.type) == ["Overview", "Privacy"])
        #expect(c.terms.map(\.title) == ["Welcome", "Privacy"])
        #expect(c.terms[0].htmlContent == "<p>This study measures how you walk.</p>")
        #expect(c.criteria.count == 3)
        #expect(
            c.criteria[0].value == .quantity(comparator: ">=", value: 18)
                && c.criteria[0].questions == ["eligibilityStep/age"])
        #expect(c.criteria[2].exclude && c.criteria[2].requirement == "not true")
        // The hash names the exact file (coreutils' sha256sum of the fixture).
        let sum = try runProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), [Self.fixture])
        #expect(c.sha256 == String(sum.stdout.prefix(64)))
    }

    @Test func eligibilityFollowsC3PROsRule() throws {
        let c = try ConsentContract(file: Self.fixture)
        #expect(c.eligibility(of: Self.answers(age: 34, livesInUS: true, pregnant: false))?.status == .eligible)
        // Exactly 18 meets >= 18; 17 does not.
        #expect(c.eligibility(of: Self.answers(age: 18, livesInUS: true, pregnant: false))?.status == .eligible)
        let young = try #require(c.eligibility(of: Self.answers(age: 17, livesInUS: true, pregnant: false)))
        #expect(young.status == .ineligible && young.checks.map(\.met) == [false, true, true])
        // An exclusion criterion (valueBoolean true, exclude true): answering yes excludes.
        let pregnant = try #require(c.eligibility(of: Self.answers(age: 30, livesInUS: true, pregnant: true)))
        #expect(pregnant.status == .ineligible && pregnant.checks[2].met == false)
        // Skipped: not decided, so unknown unless another criterion fails.
        let skipped = try #require(c.eligibility(of: Self.answers(age: 30, livesInUS: nil, pregnant: false)))
        #expect(skipped.status == .unknown && skipped.checks[1].met == nil && skipped.checks[1].question == "livesInUS")
        #expect(c.eligibility(of: Self.answers(age: 17, livesInUS: nil, pregnant: false))?.status == .ineligible)
        // Not asked at all.
        let none = try #require(c.eligibility(of: []))
        #expect(none.status == .unknown && none.checks.allSatisfy { $0.question == nil && $0.met == nil })
        // The latest answer to a question counts.
        let edited =
            Self.answers(age: 17, livesInUS: true, pregnant: false) + [
                Self.answer("eligibilityStep", "age", type: "integer", value: "19", number: 19)
            ]
        #expect(c.eligibility(of: edited)?.status == .eligible)
    }

    static func contract(criterion: String) -> JSONValue {
        let text = """
            {"resourceType": "Contract", "subject": [{"reference": "#g"}], "contained": [{"resourceType": "Group",
             "id": "g", "type": "person", "actual": false, "characteristic": [\(criterion)]}]}
            """
        return (try? JSONParser.parse(Data(text.utf8), file: "c.json")) ?? .null
    }

    @Test func choicesAndRangesAreCompared() throws {
        let choice = try ConsentContract(
            Self.contract(
                criterion: """
                    {"code": {"coding": [{"code": "site"}], "text": "Where do you live?"}, "exclude": false,
                     "valueCodeableConcept": {"coding": [{"code": "north"}, {"code": "east"}]}}
                    """), sha256: "", fileName: "c.json")
        var site = Self.answer("where", "site", type: "singleChoice", value: "east")
        site.choiceValues = [.string("east")]
        #expect(choice.eligibility(of: [site])?.status == .eligible)
        site.choiceValues = [.string("south")]
        #expect(choice.eligibility(of: [site])?.status == .ineligible)
        let range = try ConsentContract(
            Self.contract(
                criterion: """
                    {"code": {"coding": [{"code": "s/bmi"}], "text": "BMI"}, "exclude": false,
                     "valueRange": {"low": {"value": 18.5}, "high": {"value": 30}}}
                    """), sha256: "", fileName: "c.json")
        #expect(
            range.eligibility(of: [Self.answer("s", "bmi", type: "decimal", value: "30", number: 30)])?.status
                == .eligible)
        #expect(
            range.eligibility(of: [Self.answer("s", "bmi", type: "decimal", value: "31", number: 31)])?.status
                == .ineligible)
        // C3-PRO's criterion without a value is a yes.
        let bare = try ConsentContract(
            Self.contract(criterion: #"{"code": {"coding": [{"code": "ok"}], "text": "OK?"}, "exclude": false}"#),
            sha256: "", fileName: "c.json")
        #expect(bare.criteria.first?.value == .boolean(true))
    }

    @Test func badContractsNameTheField() {
        func message(_ value: JSONValue) -> String {
            do {
                _ = try ConsentContract(value, sha256: "", fileName: "c.json")
                return "read"
            } catch { return "\(error)" }
        }
        #expect(message(.object(JSONObject([("resourceType", .string("Consent"))]))).contains("resourceType"))
        #expect(
            message(Self.contract(criterion: #"{"code": {"text": "Adult?"}, "valueBoolean": true}"#))
                .contains("characteristic[0].exclude"))
        #expect(
            message(
                Self.contract(
                    criterion:
                        #"{"code": {"text": "Age"}, "exclude": false, "valueQuantity": {"value": 1, "comparator": "ad"}}"#
                )
            ).contains("comparator"))
        #expect(
            message(Self.contract(criterion: #"{"code": {"text": "Who"}, "exclude": false, "valueReference": {}}"#))
                .contains("valueReference"))
        let dangling = JSONValue.object(
            JSONObject([
                ("resourceType", .string("Contract")),
                ("subject", .array([.object(JSONObject([("reference", .string("#nowhere"))]))])),
            ]))
        #expect(message(dangling).contains("subject[0]"))
    }
}
