import Foundation

/// The repository root, located from this file (`Tests/TestSupport/SharedData.swift`), so tests do not depend on
/// the working directory.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Absolute path of a file in the shared reference data (`../shared/data` beside the repository).
public func sharedDataPath(_ relative: String) -> String {
    repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data").appendingPathComponent(relative)
        .path
}

/// Absolute path of a hand-made test fixture in `Tests/Fixtures/` (`""` for the folder itself), shared by the test
/// targets and read from disk: the folder is outside every target, so nothing bundles it.
public func fixturePath(_ relative: String) -> String {
    repositoryRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relative).path
}

/// Absolute path of `relative` inside the repository (`""` for the root itself).
public func repositoryPath(_ relative: String) -> String {
    relative.isEmpty ? repositoryRoot.path : repositoryRoot.appendingPathComponent(relative).path
}
