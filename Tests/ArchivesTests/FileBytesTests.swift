import Archives
import Foundation
import TestSupport
import Testing

@Suite struct FileBytesTests {
    func gzip(_ path: String) throws { try ArchiveFixtures.gzip(path) }

    @Test func plainAndGzipFilesReadTheSame() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("log.csv")
        let text = (0..<20_000).map { i in "\(i * 7919 % 1000),\(Double(i * 104_729 % 100_000) / 7)" }
            .joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try gzip(path)
        #expect(try FileBytes.read(path: path) == Data(text.utf8))
        #expect(try FileBytes.read(path: path + ".gz") == Data(text.utf8))
        // Detection is by content, not name.
        try FileManager.default.moveItem(atPath: path + ".gz", toPath: dir.path("renamed.csv"))
        #expect(try FileBytes.read(path: dir.path("renamed.csv")) == Data(text.utf8))
    }

    @Test func sharedOxfordFileDecompresses() throws {
        let path = sharedDataPath("oxford-step-counter/user1_hand_1506421989895.csv.gz")
        try #require(
            FileManager.default.fileExists(atPath: path),
            "the shared reference data must sit beside the repository (../shared)")
        let text = String(decoding: try FileBytes.read(path: path), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count > 19_000)
        #expect(lines[0].split(separator: ",").count == 7)  // timestamp, accx, accy, accz, 3 step columns
    }

    @Test func truncatedAndCorruptGzipAreErrors() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("a.txt")
        try Data(String(repeating: "taskproc ", count: 50_000).utf8).write(to: URL(fileURLWithPath: path))
        try gzip(path)
        let gz = try Data(contentsOf: URL(fileURLWithPath: path + ".gz"))
        let cut = dir.path("cut.gz")
        try gz.prefix(gz.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(throws: FileReadError.self) { try FileBytes.read(path: cut) }
        var bad = gz
        for k in 20..<min(60, bad.count) { bad[k] ^= 0x5A }
        let corrupt = dir.path("corrupt.gz")
        try bad.write(to: URL(fileURLWithPath: corrupt))
        #expect(throws: FileReadError.self) { try FileBytes.read(path: corrupt) }
        #expect(throws: FileReadError.tooLarge(path: path + ".gz", limit: 1000)) {
            try FileBytes.read(path: path + ".gz", limit: 1000)
        }
        #expect(throws: FileReadError.fileNotFound(path: dir.path("none"))) {
            try FileBytes.read(path: dir.path("none"))
        }
    }

    /// Fuzz finding (every reader target, LeakSanitizer): zero-size files are read through a handle.
    ///
    /// Foundation's whole-file reader leaks 4 KiB per file of size 0. An empty file is empty; a file that reports
    /// size 0 but has content (Linux /proc) is still read whole. The leak itself is caught by `make fuzz-smoke` (ASan), whose
    /// corpora start with an empty input.
    @Test func zeroSizeFilesReadWhole() throws {
        let dir = TemporaryDirectory()
        let empty = dir.path("empty.json")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try FileBytes.read(path: empty) == Data())
        let proc = "/proc/self/status"
        if FileManager.default.fileExists(atPath: proc) {
            let text = String(decoding: try FileBytes.read(path: proc), as: UTF8.self)
            #expect(text.contains("Pid:"))
        }
    }
}

/// Issue 16: one decompressed-size limit, 512 MiB by default, for gzip files and ZIP entries.
@Suite(.tags(.hostileInput)) struct DecompressionLimitTests {
    @Test func oneNamedDefaultForGzipAndZip() {
        #expect(ArchiveLimits.defaultMaxEntryBytes == 512 << 20)
        #expect(ArchiveLimits().maxEntryBytes == ArchiveLimits.defaultMaxEntryBytes)
    }

    @Test func aSmallGzipBombStopsAtTheDefaultLimit() throws {
        // 513 MiB of zeros gzip to about 0.5 MB; reading must stop at 512 MiB with a clear error, not inflate it all.
        let dir = TemporaryDirectory()
        let path = dir.path("bomb.json.gz")
        #expect(
            try ArchiveFixtures.python(
                """
                import gzip, sys
                with gzip.open(sys.argv[1], 'wb', compresslevel=9) as f:
                    block = bytes(1 << 20)
                    for _ in range(513): f.write(block)
                """, [path]))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < 1 << 20)
        let error = #expect(throws: FileReadError.self) { try FileBytes.read(path: path) }
        #expect(error == .tooLarge(path: path, limit: 512 << 20))
        #expect(
            error?.description
                == "\(path): decompressed size exceeds the limit (max 512 MiB = 536870912 bytes, --max-entry-bytes)")
    }
}
