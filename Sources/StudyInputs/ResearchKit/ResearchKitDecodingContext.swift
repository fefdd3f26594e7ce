/// The state of one decode call: the file name for errors and the warnings collected so far.
///
/// Confined to the call that created it (not Sendable).
final class ResearchKitDecodingContext {
    /// The file named in errors and the document.
    let file: String
    /// Warnings in document order, unknown keys excluded.
    private var warnings: [ResearchKitWarning] = []
    /// Unknown keys, one entry per class and key: where first seen and how often.
    private var unknownKeys: [(className: String, key: String, path: String, count: Int)] = []
    private var unknownKeyIndex: [String: Int] = [:]

    init(file: String) { self.file = file }

    /// Records a warning.
    func warn(_ kind: ResearchKitWarning.Kind, at path: ResearchKitPath, _ message: String) {
        warnings.append(ResearchKitWarning(kind, path: path.description, message: message))
    }

    /// Records a key outside the documented key set of `className`.
    func noteUnknownKey(_ key: String, className: String, at path: ResearchKitPath) {
        let id = className + "\u{0}" + key
        if let k = unknownKeyIndex[id] {
            unknownKeys[k].count += 1
        } else {
            unknownKeyIndex[id] = unknownKeys.count
            unknownKeys.append((className, key, path.description, 1))
        }
    }

    /// All warnings: the ordinary ones in document order, then one per unknown class and key.
    var allWarnings: [ResearchKitWarning] {
        warnings
            + unknownKeys.map { u in
                let times = u.count == 1 ? "" : " (\(u.count) occurrences; first shown)"
                return ResearchKitWarning(
                    .unknownKey, path: u.path,
                    message: "key \"\(u.key)\" is not part of the documented \(u.className) format; ignored\(times)")
            }
    }

    /// A schema error at `path`.
    func error(at path: ResearchKitPath, expected: String?, found: String?, message: String? = nil) -> InputError {
        InputError(.schema, file: file, location: path.description, expected: expected, found: found, message: message)
    }

    /// The object `value` holds, or a schema error naming `expected`.
    func object(_ value: JSONValue, at path: ResearchKitPath, expected: String) throws(InputError) -> JSONObject {
        guard case .object(let o) = value else { throw error(at: path, expected: expected, found: value.summary) }
        return o
    }

    /// The `_class` of `object`; a schema error when it is missing, empty or not a string.
    func className(of object: JSONObject, at path: ResearchKitPath) throws(InputError) -> String {
        guard let value = object["_class"], value != .null else {
            throw error(
                at: path.key("_class"), expected: "\"_class\" naming a ResearchKit class",
                found: "an object without \"_class\" (keys: \(object.keys.prefix(6).joined(separator: ", ")))",
                message: "missing _class: cannot tell which ResearchKit class this object is")
        }
        guard case .string(let name) = value, !name.isEmpty else {
            throw error(
                at: path.key("_class"), expected: "a class name string such as \"ORKStepResult\"", found: value.summary,
                message: "invalid _class")
        }
        return name
    }

    /// Field access for an object whose class the position fixes (samples, units, device): `_class` may be
    /// absent, but when present it must be `expectedClass`.
    func positional(_ value: JSONValue, at path: ResearchKitPath, expectedClass: String) throws(InputError)
        -> ResearchKitFields
    {
        let o = try object(value, at: path, expected: "an \(expectedClass) object")
        if let v = o["_class"], v != .null {
            guard case .string(let name) = v, name == expectedClass else {
                throw error(
                    at: path.key("_class"), expected: "\"\(expectedClass)\"", found: v.summary,
                    message: "wrong class in a position that holds \(expectedClass) objects")
            }
        }
        return ResearchKitFields(object: o, path: path, className: expectedClass, context: self)
    }
}
