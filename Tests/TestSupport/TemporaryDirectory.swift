import Foundation

/// A fresh temporary directory per test, removed when the value is deinitialised.
public final class TemporaryDirectory {
    /// The directory.
    public let url: URL

    /// Creates the directory (`taskproc-tests-<UUID>` in the system's temporary folder).
    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("taskproc-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
