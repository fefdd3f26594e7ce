import Foundation
import StudyInputs

/// The FHIR conformance resources behind what the `fhir` export writes under taskproc's canonical base
/// (``ConsentPolicy/fhirCanonicalBase``): the sharing-scope extension's `StructureDefinition`, and the `CodeSystem`
/// and `ValueSet` of its codes.
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
        let url = ConsentPolicy.sharingScopeExtension
        return object([
            ("resourceType", string("StructureDefinition")), ("id", string("sharing-scope")), ("url", string(url)),
            ("name", string("SharingScope")), ("title", string("Sharing scope")), ("status", string("active")),
            ("publisher", string("taskproc")),
            (
                "description",
                string(
                    "The scope with which a research participant agreed to share their data, as read from a "
                        + "ResearchKit consent task (its sharing step or form item) by taskproc: Bridge's names "
                        + "all_qualified_researchers, sponsors_and_partners, no_sharing.")
            ),
            ("fhirVersion", string("4.0.1")), ("kind", string("complex-type")), ("abstract", .bool(false)),
            ("context", .array([object([("type", string("element")), ("expression", string("Consent"))])])),
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
                                ("short", string("Sharing scope")),
                                ("definition", string("The participant's sharing choice.")), ("max", string("1")),
                            ]),
                            object([
                                ("id", string("Extension.extension")), ("path", string("Extension.extension")),
                                ("max", string("0")),
                            ]),
                            object([
                                ("id", string("Extension.url")), ("path", string("Extension.url")),
                                ("fixedUri", string(url)),
                            ]),
                            object([
                                ("id", string("Extension.value[x]")), ("path", string("Extension.value[x]")),
                                ("min", .number(1)), ("type", .array([object([("code", string("code"))])])),
                                (
                                    "binding",
                                    object([
                                        ("strength", string("required")), ("valueSet", string(sharingScopeValueSet)),
                                    ])
                                ),
                            ]),
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
        object([
            ("resourceType", string("CodeSystem")), ("id", string("sharing-scope")),
            ("url", string(ConsentPolicy.sharingScopeSystem)), ("name", string("SharingScope")),
            ("title", string("Sharing scope")), ("status", string("active")), ("publisher", string("taskproc")),
            ("description", string("Bridge's sharing scopes of a research participant's data.")),
            ("caseSensitive", .bool(true)), ("content", string("complete")), ("count", .number(Double(scopes.count))),
            (
                "concept",
                .array(
                    scopes.map {
                        object([
                            ("code", string($0.code)), ("display", string($0.display)),
                            ("definition", string($0.definition)),
                        ])
                    })
            ),
        ])
    }

    static var sharingScopeValues: JSONValue {
        object([
            ("resourceType", string("ValueSet")), ("id", string("sharing-scope")),
            ("url", string(sharingScopeValueSet)),
            ("name", string("SharingScope")), ("title", string("Sharing scope")), ("status", string("active")),
            ("publisher", string("taskproc")),
            ("description", string("Every code of the sharing-scope code system.")),
            (
                "compose",
                object([("include", .array([object([("system", string(ConsentPolicy.sharingScopeSystem))])]))])
            ),
        ])
    }
}
