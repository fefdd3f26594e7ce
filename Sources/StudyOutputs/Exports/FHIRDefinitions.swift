import Foundation
import StudyInputs

/// The FHIR conformance resources behind what the `fhir` export writes under taskproc's canonical base
/// (``ConsentPolicy/fhirCanonicalBase``): the `StructureDefinition` of each extension (sharing scope, eligibility,
/// attachment SHA-256), and the `CodeSystem` and `ValueSet` of the sharing-scope and eligibility codes.
///
/// Published in `docs/fhir/` (one JSON file each, `<type>-<id>.json`; a test compares them with these) and written by
/// `taskproc batch --format fhir` beside its export as `export.fhir.definitions.json` (a `collection` Bundle), so a
/// server can be given the definitions the data refers to.
public enum FHIRDefinitions {
    /// The canonical base.
    public static let base = ConsentPolicy.fhirCanonicalBase

    /// The ValueSet of the sharing-scope codes.
    public static let sharingScopeValueSet = base + "/ValueSet/sharing-scope"

    /// The definitions, with their `docs/fhir/` file names.
    public static var resources: [(file: String, resource: JSONValue)] {
        [
            ("StructureDefinition-sharing-scope.json", sharingScopeExtension),
            ("CodeSystem-sharing-scope.json", sharingScopeCodeSystem),
            ("ValueSet-sharing-scope.json", sharingScopeValues),
            ("StructureDefinition-eligibility.json", eligibilityExtension),
            ("CodeSystem-eligibility.json", eligibilityCodeSystem),
            ("ValueSet-eligibility.json", eligibilityValues),
            ("StructureDefinition-attachment-sha256.json", sha256Extension),
        ]
    }

    /// A `collection` Bundle of ``resources``.
    public static var bundle: JSONValue {
        .object(
            JSONObject([
                ("resourceType", .string("Bundle")), ("type", .string("collection")),
                (
                    "entry",
                    .array(
                        resources.map { item in
                            let url = item.resource.objectValue?["url"] ?? .null
                            return .object(JSONObject([("fullUrl", url), ("resource", item.resource)]))
                        })
                ),
            ]))
    }

    static func string(_ s: String) -> JSONValue { .string(s) }
    static func object(_ entries: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(entries.map { (key: $0.0, value: $0.1) }))
    }

    /// The extension a `Consent` carries for the participant's sharing choice.
    static var sharingScopeExtension: JSONValue {
        extensionDefinition(
            id: "sharing-scope", name: "SharingScope", title: "Sharing scope",
            description: "The scope with which a research participant agreed to share their data, as read from a "
                + "ResearchKit consent task (its sharing step or form item) by taskproc: Bridge's names "
                + "all_qualified_researchers, sponsors_and_partners, no_sharing.",
            short: "Sharing scope", definition: "The participant's sharing choice.", contexts: ["Consent"],
            valueType: "code", valueSet: sharingScopeValueSet, url: ConsentPolicy.sharingScopeExtension)
    }

    /// The extension a signed `Contract` or a `Consent` carries for the eligibility outcome.
    static var eligibilityExtension: JSONValue {
        extensionDefinition(
            id: "eligibility", name: "Eligibility", title: "Eligibility",
            description: "Whether a research participant's answers met the eligibility criteria of the study's "
                + "consent Contract (its contained Group), as taskproc checked them: eligible, ineligible, unknown.",
            short: "Eligibility outcome", definition: "Whether the participant met the eligibility criteria.",
            contexts: ["Contract", "Consent"], valueType: "code", valueSet: eligibilityValueSet,
            url: FHIRExport.eligibilityExtension)
    }

    /// The extension an `Attachment` carries for its data's SHA-256 (R4's `hash` is SHA-1).
    static var sha256Extension: JSONValue {
        extensionDefinition(
            id: "attachment-sha256", name: "AttachmentSHA256", title: "Attachment SHA-256",
            description: "The SHA-256 of an attachment's data (base64), beside R4's SHA-1 Attachment.hash: the "
                + "consent document a signed Contract or Consent points to.",
            short: "SHA-256 of the data", definition: "The SHA-256 digest of the attachment's data, base64.",
            contexts: ["Attachment"], valueType: "base64Binary", valueSet: nil, url: ConsentDocument.sha256Extension)
    }

    /// A simple (one-value) extension's `StructureDefinition`.
    static func extensionDefinition(
        id: String, name: String, title: String, description: String, short: String, definition: String,
        contexts: [String], valueType: String, valueSet: String?, url: String
    ) -> JSONValue {
        var value: [(String, JSONValue)] = [
            ("id", string("Extension.value[x]")), ("path", string("Extension.value[x]")),
            ("min", .number(1)), ("type", .array([object([("code", string(valueType))])])),
        ]
        if let valueSet {
            value.append(("binding", object([("strength", string("required")), ("valueSet", string(valueSet))])))
        }
        return object([
            ("resourceType", string("StructureDefinition")), ("id", string(id)), ("url", string(url)),
            ("name", string(name)), ("title", string(title)), ("status", string("active")),
            ("publisher", string("taskproc")), ("description", string(description)),
            ("fhirVersion", string("4.0.1")), ("kind", string("complex-type")), ("abstract", .bool(false)),
            ("context", .array(contexts.map { object([("type", string("element")), ("expression", string($0))]) })),
            ("type", string("Extension")),
            ("baseDefinition", string("http://hl7.org/fhir/StructureDefinition/Extension")),
            ("derivation", string("constraint")),
            (
                "differential",
                object([
                    (
                        "element",
                        .array([
                            object([
                                ("id", string("Extension")), ("path", string("Extension")),
                                ("short", string(short)), ("definition", string(definition)), ("max", string("1")),
                            ]),
                            object([
                                ("id", string("Extension.extension")), ("path", string("Extension.extension")),
                                ("max", string("0")),
                            ]),
                            object([
                                ("id", string("Extension.url")), ("path", string("Extension.url")),
                                ("fixedUri", string(url)),
                            ]),
                            object(value),
                        ])
                    )
                ])
            ),
        ])
    }

    /// The codes, with Bridge's meaning.
    static let scopes: [(code: String, display: String, definition: String)] = [
        (
            "all_qualified_researchers", "All qualified researchers",
            "The participant shares their data with qualified researchers worldwide."
        ),
        (
            "sponsors_and_partners", "Sponsors and partners",
            "The participant shares their data only with the study's sponsors and partners."
        ),
        ("no_sharing", "No sharing", "The participant does not share their data beyond the study."),
    ]

    static var sharingScopeCodeSystem: JSONValue {
        codeSystem(
            id: "sharing-scope", url: ConsentPolicy.sharingScopeSystem, name: "SharingScope", title: "Sharing scope",
            description: "Bridge's sharing scopes of a research participant's data.", concepts: scopes)
    }

    static var sharingScopeValues: JSONValue {
        valueSet(
            id: "sharing-scope", url: sharingScopeValueSet, name: "SharingScope", title: "Sharing scope",
            system: ConsentPolicy.sharingScopeSystem)
    }

    /// The code system of the eligibility outcomes.
    public static let eligibilitySystem = base + "/CodeSystem/eligibility"
    /// The ValueSet of the eligibility outcomes.
    public static let eligibilityValueSet = base + "/ValueSet/eligibility"

    /// The eligibility outcomes (``Eligibility/Status``).
    static let eligibilityCodes: [(code: String, display: String, definition: String)] = [
        ("eligible", "Eligible", "The participant's answers meet every eligibility criterion."),
        ("ineligible", "Ineligible", "Some answer does not meet its eligibility criterion."),
        ("unknown", "Unknown", "No criterion is unmet, but some have no answer that decides them."),
    ]

    static var eligibilityCodeSystem: JSONValue {
        codeSystem(
            id: "eligibility", url: eligibilitySystem, name: "Eligibility", title: "Eligibility",
            description: "Whether a participant's answers met the eligibility criteria of a study's consent.",
            concepts: eligibilityCodes)
    }

    static var eligibilityValues: JSONValue {
        valueSet(
            id: "eligibility", url: eligibilityValueSet, name: "Eligibility", title: "Eligibility",
            system: eligibilitySystem)
    }

    /// A complete `CodeSystem` of `concepts`.
    static func codeSystem(
        id: String, url: String, name: String, title: String, description: String,
        concepts: [(code: String, display: String, definition: String)]
    ) -> JSONValue {
        object([
            ("resourceType", string("CodeSystem")), ("id", string(id)), ("url", string(url)), ("name", string(name)),
            ("title", string(title)), ("status", string("active")), ("publisher", string("taskproc")),
            ("description", string(description)),
            ("caseSensitive", .bool(true)), ("content", string("complete")), ("count", .number(Double(concepts.count))),
            (
                "concept",
                .array(
                    concepts.map {
                        object([
                            ("code", string($0.code)), ("display", string($0.display)),
                            ("definition", string($0.definition)),
                        ])
                    })
            ),
        ])
    }

    /// A `ValueSet` of every code of `system`.
    static func valueSet(id: String, url: String, name: String, title: String, system: String) -> JSONValue {
        object([
            ("resourceType", string("ValueSet")), ("id", string(id)), ("url", string(url)),
            ("name", string(name)), ("title", string(title)), ("status", string("active")),
            ("publisher", string("taskproc")),
            ("description", string("Every code of the \(title.lowercased()) code system.")),
            ("compose", object([("include", .array([object([("system", string(system))])]))])),
        ])
    }
}
