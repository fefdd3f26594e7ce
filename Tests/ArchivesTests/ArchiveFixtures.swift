import Archives
import Foundation
import TestSupport

/// Hostile and ordinary archives for the tests: written byte by byte, or by independent tools (gzip, Python).
enum ArchiveFixtures {
    /// One entry of a hand-written ZIP archive (see ``ZipFixture``).
    typealias ZipEntry = ZipFixture.Entry

    /// A ZIP archive of the entries, written as given (see ``ZipFixture/zip(_:)``).
    static func zip(_ entries: [ZipEntry]) -> Data { ZipFixture.zip(entries) }

    /// Runs a Python snippet (`sys.argv[1:]` are `arguments`); true when it exited 0.
    @discardableResult
    static func python(_ script: String, _ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// `gzip -kf path`: writes `path.gz` beside the file.
    static func gzip(_ path: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-kf", path]
        try p.run()
        p.waitUntilExit()
    }
}
