import Foundation

/// Absolute path of a file in the shared reference data (`../shared/data` beside the repository),
/// located from this source file so tests do not depend on the working directory.
func sharedDataPath(_ relative: String, filePath: String = #filePath) -> String {
    // Tests/<Target>/<file>.swift → repository root → ../shared/data
    let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return root.deletingLastPathComponent().appendingPathComponent("shared/data").appendingPathComponent(relative).path
}
