import Foundation
import StudyInputs
import StudyOutputs

/// The FHIR Bulk Data form of a batch's `fhir` export, written beside `export.fhir.jsonl`: `export.fhir.ndjson`
/// holds every resource of every record's bundle, one per line in record order, and
/// `export.fhir.<ResourceType>.ndjson` the resources of one type (the files a Bulk Data export or `$import` uses).
///
/// References inside a bundle (`urn:uuid:<id>`, a transaction's entry `fullUrl`s) become `<ResourceType>/<id>`, the
/// form a resource has outside a bundle; a participant's Patient (`--fhir-patient`) is written once.
final class FHIRBulkFiles {
    /// The file of every resource.
    static let allFileName = "export.fhir.ndjson"

    /// The conformance resources the export refers to (``FHIRDefinitions/bundle``).
    static let definitionsFileName = "export.fhir.definitions.json"

    /// The file of one resource type.
    static func fileName(type: String) -> String { "export.fhir.\(type).ndjson" }

    /// True for a file this writer makes (for `--force` cleanup and for leftovers of types no longer present).
    static func isBulkFile(_ name: String) -> Bool {
        name.hasPrefix("export.fhir.") && (name.hasSuffix(".ndjson") || name == definitionsFileName)
    }

    private let folder: String
    private let all: BufferedFile
    private var byType: [String: BufferedFile] = [:]
    private var written: Set<String> = []
    /// Resources written, by type.
    private(set) var counts: [String: Int] = [:]

    /// Creates the files' `.partial` forms in `folder`.
    init(folder: String) throws {
        self.folder = folder
        all = try BufferedFile(folder + "/" + Self.allFileName + ".partial")
    }

    /// Adds the resources of one `export.fhir.jsonl` line (`{"export": <Bundle>, "source": …}`).
    func add(line: String) throws {
        guard let root = try? JSONParser.parse(Data(line.utf8), file: "export.fhir.jsonl").objectValue,
            let entries = root["export"]?.objectValue?["entry"]?.arrayValue
        else { return }
        var local: [String: String] = [:]
        for entry in entries.compactMap(\.objectValue) {
            guard let url = entry["fullUrl"]?.stringValue, let resource = entry["resource"]?.objectValue,
                let type = resource["resourceType"]?.stringValue, let id = resource["id"]?.stringValue
            else { continue }
            local[url] = type + "/" + id
        }
        for entry in entries.compactMap(\.objectValue) {
            guard let resource = entry["resource"]?.objectValue, let type = resource["resourceType"]?.stringValue,
                let id = resource["id"]?.stringValue
            else { continue }
            guard written.insert(type + "/" + id).inserted else { continue }  // a Patient of an earlier record
            let text = try ResultEncoding.compactJSON(Self.resolved(.object(resource), local)) + "\n"
            try all.append(text)
            if byType[type] == nil {
                byType[type] = try BufferedFile(folder + "/" + Self.fileName(type: type) + ".partial")
            }
            try byType[type]?.append(text)
            counts[type, default: 0] += 1
        }
    }

    /// Closes the files; returns their final names (to rename from `.partial`).
    func close() throws -> [String] {
        try all.close()
        for file in byType.values { try file.close() }
        return [Self.allFileName] + byType.keys.sorted().map(Self.fileName(type:))
    }

    /// `value` with every `reference` that names a bundle entry replaced by the entry's `<type>/<id>`.
    static func resolved(_ value: JSONValue, _ local: [String: String]) -> JSONValue {
        switch value {
        case .object(let o):
            return .object(
                JSONObject(
                    o.entries.map { entry in
                        if entry.key == "reference", let text = entry.value.stringValue, let target = local[text] {
                            return (entry.key, .string(target))
                        }
                        return (entry.key, resolved(entry.value, local))
                    }))
        case .array(let items): return .array(items.map { resolved($0, local) })
        default: return value
        }
    }
}
