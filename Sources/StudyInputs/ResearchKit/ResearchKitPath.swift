import Foundation

/// A JSON path such as `$.results[2].results[1].samples[5].timestamp`, built while decoding so that every
/// error and warning can say where it applies.
struct ResearchKitPath: Sendable, Hashable, CustomStringConvertible {
    /// The path text; `$` is the document root.
    private(set) var description: String

    /// The document root, `$`.
    static let root = ResearchKitPath(description: "$")

    private init(description: String) { self.description = description }

    /// The path of member `key` of the object at this path: `.key`, or `["key"]` when the key is not a
    /// plain identifier.
    func key(_ key: String) -> ResearchKitPath {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
            }
        if plain { return ResearchKitPath(description: description + "." + key) }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return ResearchKitPath(description: description + "[\"" + escaped + "\"]")
    }

    /// The path of element `index` (0-based) of the array at this path: `[index]`.
    func index(_ index: Int) -> ResearchKitPath { ResearchKitPath(description: description + "[\(index)]") }
}
