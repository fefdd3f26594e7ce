import Foundation
import TestSupport
import Testing

@testable import Archives

/// ZIP reading and its safety rules, on archives crafted byte by byte.
@Suite struct ZipArchiveTests {
    /// Writes the archive into a fresh folder beside an empty `out` folder (the folder lives as long as `dir`).
    func write(_ entries: [ArchiveFixtures.ZipEntry], name: String = "a.zip", in dir: TemporaryDirectory) throws
        -> (zip: String, folder: String)
    {
        let folder = dir.url.path
        let path = folder + "/" + name
        try ArchiveFixtures.zip(entries).write(to: URL(fileURLWithPath: path))
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        return (path, folder + "/out")
    }

    @Test func extractsGoodEntriesAndRefusesZipSlip() throws {
        let good = Data("{\"items\":[]}".utf8)
        let dir = TemporaryDirectory()
        let (zip, out) = try write(
            [
                .init(name: "study/ok.json", data: good),
                .init(name: "../evil.json", data: good),
                .init(name: "/etc/evil.json", data: good),
                .init(name: "a/../../evil.json", data: good),
                .init(name: "C:/evil.json", data: good),
                .init(name: "..\\evil2.json", data: good),
                .init(name: "link.json", data: Data("/etc/passwd".utf8), mode: 0o120777),
            ], in: dir)
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.files == ["study/ok.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/study/ok.json")) == good)
        let reasons = Dictionary(uniqueKeysWithValues: result.rejected.map { ($0.entry, $0.reason) })
        #expect(reasons.count == 6)
        for name in ["../evil.json", "a/../../evil.json", "..\\evil2.json"] {
            #expect(reasons[name]?.contains("zip slip") == true, "\(name): \(reasons[name] ?? "accepted")")
        }
        #expect(reasons["/etc/evil.json"]?.contains("absolute path") == true)
        #expect(reasons["C:/evil.json"]?.contains("drive-letter") == true)
        #expect(reasons["link.json"]?.contains("symbolic link") == true)
        // Nothing was written outside the extraction folder.
        let parent = (out as NSString).deletingLastPathComponent
        #expect(!FileManager.default.fileExists(atPath: parent + "/evil.json"))
        #expect(!FileManager.default.fileExists(atPath: (parent as NSString).deletingLastPathComponent + "/evil.json"))
    }

    @Test func entryCountLimitRejectsTheArchive() throws {
        let entries = (0..<5).map { ArchiveFixtures.ZipEntry(name: "f\($0).json", data: Data("{}".utf8)) }
        let dir = TemporaryDirectory()
        let (zip, out) = try write(entries, in: dir)
        var limits = ArchiveLimits()
        limits.maxEntries = 4
        let error = #expect(throws: (any Error).self) {
            try ZipArchive.extract(zip, into: out, limits: limits)
        }
        #expect(error.map { "\($0)" }?.contains("holds 5 entries, over the limit of 4 (--max-archive-entries)") == true)
        limits.maxEntries = 5
        #expect(try ZipArchive.extract(zip, into: out, limits: limits).files.count == 5)
    }

    @Test func sizeLimitsRejectArchiveOrEntry() throws {
        let big = Data(repeating: 0x41, count: 1000)
        let dir = TemporaryDirectory()
        let (zip, out) = try write([.init(name: "a.csv", data: big), .init(name: "b.csv", data: big)], in: dir)
        var limits = ArchiveLimits()
        limits.maxTotalBytes = 1500
        let error = #expect(throws: (any Error).self) {
            try ZipArchive.extract(zip, into: out, limits: limits)
        }
        #expect(
            error.map { "\($0)" }?.contains("declares 2000 bytes decompressed, over the limit of 1500 bytes") == true)
        limits = ArchiveLimits()
        limits.maxEntryBytes = 999
        let result = try ZipArchive.extract(zip, into: out, limits: limits)
        #expect(result.files.isEmpty)
        #expect(result.rejected.count == 2)
        #expect(
            result.rejected.allSatisfy {
                $0.reason == "decompressed size exceeds the limit (max 999 bytes, --max-entry-bytes)"
            })
    }

    /// The overlapping-entry bomb (Fifield 2019): many central-directory entries read one stored piece of data.
    @Test func overlappingEntriesRefuseTheArchive() throws {
        let dir = TemporaryDirectory()
        let single = ZipFixture.zip([.init(name: "a.csv", data: Data(repeating: 0x41, count: 4000))])
        // The single archive's local header and data end where its central directory starts.
        let centralStart = Int(
            single.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: single.count - 6, as: UInt32.self) })
        let record = single.subdata(in: centralStart..<(single.count - 22))
        var bomb = single.prefix(centralStart)
        var central = Data()
        for i in 0..<50 {
            var copy = record
            // Names differ (a.csv, b.csv, ...), so this is not a duplicate-name refusal.
            copy[46] = 0x61 + UInt8(i % 26)
            copy[47] = 0x30 + UInt8(i / 26)
            central.append(copy)
        }
        bomb.append(central)
        var end = single.suffix(22)
        end.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt16(50).littleEndian, toByteOffset: 8, as: UInt16.self)
            raw.storeBytes(of: UInt16(50).littleEndian, toByteOffset: 10, as: UInt16.self)
            raw.storeBytes(of: UInt32(central.count).littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        bomb.append(end)
        let path = dir.path("bomb.zip")
        try bomb.write(to: URL(fileURLWithPath: path))
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        #expect(try ZipArchive.entries(of: path).count == 50)
        do {
            _ = try ZipArchive.extract(path, into: dir.path("out"))
            Issue.record("the overlapping entries were extracted")
        } catch {
            #expect(error.message.contains("entries overlap"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).isEmpty)
    }

    @Test func aSharedBudgetBindsAcrossArchives() throws {
        let big = Data(repeating: 0x41, count: 1000)
        let dir = TemporaryDirectory()
        let (zip, out) = try write([.init(name: "a.csv", data: big), .init(name: "b.csv", data: big)], in: dir)
        let error = #expect(throws: ArchiveError.self) { try ZipArchive.extract(zip, into: out, budget: 1500) }
        #expect(error?.message.contains("over what is left (1500 bytes) of the run's --max-archive-bytes") == true)
        #expect(try ZipArchive.extract(zip, into: out, budget: 2000).bytes == 2000)
    }

    @Test func lyingHeadersAndBadChecksumsAreCaught() throws {
        let data = Data(repeating: 0x42, count: 100)
        let dir = TemporaryDirectory()
        let (zip, out) = try write(
            [
                .init(name: "small.csv", data: data, declaredSize: 10),
                .init(name: "crc.csv", data: data, declaredCRC: 0xDEAD_BEEF),
            ], in: dir)
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.files.isEmpty)
        #expect(
            result.rejected.first { $0.entry == "small.csv" }?.reason.contains("more than its declared 10 bytes")
                == true)
        #expect(result.rejected.first { $0.entry == "crc.csv" }?.reason.contains("CRC-32 mismatch") == true)
        #expect(!FileManager.default.fileExists(atPath: out + "/small.csv"))
    }

    @Test func notAZipIsAClearError() throws {
        let dir = TemporaryDirectory()
        let folder = dir.url.path
        let path = folder + "/x.zip"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: (any Error).self) {
            try ZipArchive.extract(path, into: folder)
        }
        #expect(error.map { "\($0)" }?.contains("is not a ZIP archive") == true)
    }

    @Test func zip64CentralDirectoryFromPythonsZipfile() throws {
        // 65 536 entries do not fit the classic 16-bit count: Python's zipfile writes ZIP64 end records.
        let dir = TemporaryDirectory()
        let folder = dir.url.path
        let path = folder + "/many.zip"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    for i in range(65536): z.writestr('f%05d.csv' % i, str(i))",
            path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let entries = try ZipArchive.entries(of: path)
        #expect(entries.count == 65_536)
        #expect(entries.last?.name == "f65535.csv")
        #expect(entries.last?.uncompressedSize == 5)
        var limits = ArchiveLimits()
        limits.maxEntries = 65_535
        #expect(throws: ArchiveError.self) { try ZipArchive.entries(of: path, limits: limits) }
    }

    @Test func truncatedArchivesAreClearErrors() throws {
        let data = Data(repeating: 0x43, count: 5000)
        let dir = TemporaryDirectory()
        let (zip, out) = try write([.init(name: "a.csv", data: data), .init(name: "b.csv", data: data)], in: dir)
        let whole = try Data(contentsOf: URL(fileURLWithPath: zip))
        // Without its end: no central directory.
        try whole.prefix(7000).write(to: URL(fileURLWithPath: zip))
        let error = #expect(throws: ArchiveError.self) { try ZipArchive.extract(zip, into: out) }
        #expect(error?.message.contains("is not a ZIP archive") == true)
        // A central directory pointing past the data: the entry is refused, nothing half-written is kept.
        var broken = whole
        let cdOffset = whole.count - 22 - (46 + 5) * 2
        broken[cdOffset + 42] = 0xFF  // local header offset of a.csv → far beyond the file
        broken[cdOffset + 43] = 0xFF
        try broken.write(to: URL(fileURLWithPath: zip))
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.files == ["b.csv"])
        #expect(result.rejected.first?.reason.contains("out of range") == true)
        #expect(!FileManager.default.fileExists(atPath: out + "/a.csv"))
    }

    @Test func deflatedEntriesFromPythonsZipfileMatchTheirSources() throws {
        // Python's zipfile (an independent writer) deflates; the extracted bytes must equal the originals.
        let dir = TemporaryDirectory()
        let plain = dir.path("plain")
        let zip = dir.path("deflated.zip")
        #expect(
            try ArchiveFixtures.python(
                """
                import os, random, sys, zipfile
                random.seed(3)
                plain, path = sys.argv[1], sys.argv[2]
                with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
                    for i in range(40):
                        name = 'study/p%02d/walk_%d.csv' % (i % 7, i)
                        text = 't,x,y,z\\n' + ''.join('%d,%.4f,%.4f,%.4f\\n' % (k, random.gauss(0, 1),
                            random.gauss(0, 1), random.gauss(9.8, 1)) for k in range(200 + 97 * i))
                        os.makedirs(os.path.dirname(os.path.join(plain, name)), exist_ok=True)
                        open(os.path.join(plain, name), 'w').write(text)
                        z.writestr(name, text)
                """, [plain, zip]))
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.rejected.isEmpty)
        #expect(result.files.count == 40)
        for file in result.files {
            let mine = try Data(contentsOf: URL(fileURLWithPath: out + "/" + file))
            let original = try Data(contentsOf: URL(fileURLWithPath: plain + "/" + file))
            #expect(mine == original, "\(file)")
        }
    }
}

/// Issue 16 and 15: write failures, duplicate names.
@Suite(.tags(.hostileInput)) struct ZipExtractionPolicyTests {
    @Test func aFullDiskIsAThrownErrorNamingTheFileNotATrap() throws {
        // Issue 16: `ZipArchive.writeEntry` used FileHandle.write(_:), which traps on ENOSPC and killed the batch.
        let dir = TemporaryDirectory()
        let zip = dir.path("a.zip")
        try ArchiveFixtures.zip([.init(name: "data/a.csv", data: Data(repeating: 0x41, count: 5000))])
            .write(to: URL(fileURLWithPath: zip))
        let file = try ZipArchive.ZipFile(zip)
        let entry = try #require(try ZipArchive.entries(of: zip).first)
        var total: Int64 = 0
        let error = #expect(throws: ArchiveError.self) {
            try ZipArchive.writeEntry(
                entry, from: file, to: "/dev/full", createNew: false, limits: ArchiveLimits(), total: &total)
        }
        #expect(error?.archive == zip)
        #expect(error?.message == "cannot write /dev/full (entry data/a.csv): No space left on device")
    }

    @Test func aDestinationThatIsAFileRefusesEntriesWithoutTrapping() throws {
        // The extraction folder is a file: nothing can be created in it; each entry is refused with a reason.
        let dir = TemporaryDirectory()
        let zip = dir.path("a.zip")
        try ArchiveFixtures.zip([.init(name: "a.csv", data: Data("x".utf8))]).write(to: URL(fileURLWithPath: zip))
        let notAFolder = dir.path("plain-file")
        try Data().write(to: URL(fileURLWithPath: notAFolder))
        let result = try ZipArchive.extract(zip, into: notAFolder)
        #expect(result.files.isEmpty)
        #expect(result.rejected.first?.entry == "a.csv")
    }

    @Test func duplicateNamesAreRefusedAllAndCaseVariantsAreKept() throws {
        let dir = TemporaryDirectory()
        let zip = dir.path("dup.zip")
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try ArchiveFixtures.zip([
            .init(name: "walk.csv", data: Data("first".utf8)),
            .init(name: "Walk.csv", data: Data("other case".utf8)),
            .init(name: "./walk.csv", data: Data("second".utf8)),
            .init(name: "tap.csv", data: Data("tap".utf8), declaredCRC: 0xDEAD_BEEF),
            .init(name: "tap.csv", data: Data("tap".utf8)),
            .init(name: "keep.csv", data: Data("keep".utf8)),
        ]).write(to: URL(fileURLWithPath: zip))
        let result = try ZipArchive.extract(zip, into: out)
        // Case variants are distinct entries (on this case-sensitive file system both are written).
        #expect(result.files == ["Walk.csv", "keep.csv"])
        let reasons = result.rejected.map { "\($0.entry): \($0.reason)" }
        #expect(
            reasons == [
                "walk.csv: duplicate entry name: 2 entries have the path walk.csv; which one is meant is ambiguous, so none is extracted",
                "./walk.csv: duplicate entry name: 2 entries have the path walk.csv; which one is meant is ambiguous, so none is extracted",
                "tap.csv: duplicate entry name: 2 entries have the path tap.csv; which one is meant is ambiguous, so none is extracted",
                "tap.csv: duplicate entry name: 2 entries have the path tap.csv; which one is meant is ambiguous, so none is extracted",
            ])
        #expect(!FileManager.default.fileExists(atPath: out + "/walk.csv"))
        #expect(try String(contentsOfFile: out + "/Walk.csv", encoding: .utf8) == "other case")
    }

    @Test func encryptedAndUnsupportedEntriesAreRefusedAndLaterEntriesStillRead() throws {
        // ZIPFoundation 0.9.20 stops listing at an encrypted entry without an error (README, Architecture).
        let dir = TemporaryDirectory()
        let zip = dir.path("mixed.zip")
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try ArchiveFixtures.zip([
            .init(name: "first.csv", data: Data("1".utf8)),
            .init(name: "secret.csv", data: Data("2".utf8), flags: 1),
            .init(name: "bzip2.csv", data: Data("3".utf8), method: 12),
            .init(name: "third.csv", data: Data("4".utf8)),
        ]).write(to: URL(fileURLWithPath: zip))
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.files == ["first.csv", "third.csv"])
        #expect(result.rejected.map(\.entry) == ["secret.csv", "bzip2.csv"])
    }

    @Test func aDeflateStreamRunningPastTheEndOfTheFileIsRefusedQuickly() throws {
        // A non-final stored block claiming 65 535 bytes, then the end of the archive: ZIPFoundation 0.9.20 on Linux
        // loops forever on this (README, Architecture); here it is a rejected entry.
        let dir = TemporaryDirectory()
        let zip = dir.path("eof.zip")
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let deflate = Data([0x00, 0xFF, 0xFF, 0x00, 0x00]) + Data("t,x\n".utf8)
        try ArchiveFixtures.zip([
            .init(name: "a.csv", data: deflate, declaredCRC: 0, method: 8, uncompressedSize: 4),
            .init(name: "b.csv", data: Data("ok".utf8)),
        ]).write(to: URL(fileURLWithPath: zip))
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.files == ["b.csv"])
        #expect(result.rejected.first?.entry == "a.csv")
        #expect(result.rejected.first?.reason.contains("truncated") == true)
    }

    @Test func anExtraFieldClaimingMoreThanItHoldsIsNotReadPastItsEnd() throws {
        // A ZIP64 field declaring 65 535 bytes in a 6-byte extra field, on the directory's last entry: the old
        // parser read 8 bytes past the central directory (a trap in debug builds, garbage in release).
        let dir = TemporaryDirectory()
        let zip = dir.path("extra.zip")
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try ArchiveFixtures.zip([
            .init(name: "ok.csv", data: Data("1".utf8)),
            .init(
                name: "z64.csv", data: Data("2".utf8), declaredSize: 0xFFFF_FFFF,
                extra: Data([0x01, 0x00, 0xFF, 0xFF, 0x00, 0x00])),
        ]).write(to: URL(fileURLWithPath: zip))
        let entries = try ZipArchive.entries(of: zip)
        #expect(entries.map(\.uncompressedSize) == [1, 0xFFFF_FFFF])
        let result = try ZipArchive.extract(zip, into: out)
        #expect(result.files == ["ok.csv"])
        #expect(result.rejected.first?.reason.hasPrefix("decompressed size exceeds the limit") == true)
    }
}
