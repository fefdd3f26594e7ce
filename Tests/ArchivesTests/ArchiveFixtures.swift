import Archives
import Foundation

/// A fresh temporary directory per test, removed when the value is deinitialised.
final class TemporaryDirectory {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("taskproc-archives-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Hostile and ordinary archives for the tests: written byte by byte, or by independent tools (gzip, Python).
enum ArchiveFixtures {
    /// One entry of a hand-written ZIP archive.
    struct ZipEntry {
        var name: String
        var data: Data
        /// Unix mode for the external attributes, such as 0o120777 for a symbolic link.
        var mode: UInt32 = 0o100644
        /// Declared size, when a test wants a header that lies.
        var declaredSize: UInt32?
        /// Declared CRC, when a test wants a corrupt one.
        var declaredCRC: UInt32?
        /// General-purpose flags (bit 0: encrypted).
        var flags: Int = 0
        /// Compression method as declared (the data is written as given: pass raw deflate data with 8).
        var method: Int = 0
        /// Declared decompressed size for method 8 (defaults to the data's size).
        var uncompressedSize: UInt32?
        /// The central-directory extra field, as given.
        var extra = Data()
    }

    /// A ZIP archive of the entries, written as given (stored unless an entry says otherwise).
    static func zip(_ entries: [ZipEntry]) -> Data {
        var out = Data()
        var central = Data()
        func u16(_ v: Int, _ d: inout Data) { d.append(contentsOf: [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]) }
        func u32(_ v: UInt32, _ d: inout Data) { for s in [0, 8, 16, 24] { d.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        for entry in entries {
            let offset = UInt32(out.count)
            let name = Data(entry.name.utf8)
            let crc = entry.declaredCRC ?? entry.data.withUnsafeBytes { CRC32.update(0, $0) }
            let size = entry.declaredSize ?? entry.uncompressedSize ?? UInt32(entry.data.count)
            u32(0x0403_4B50, &out)
            u16(20, &out); u16(entry.flags, &out); u16(entry.method, &out); u16(0, &out); u16(0, &out)
            u32(crc, &out); u32(UInt32(entry.data.count), &out); u32(size, &out)
            u16(name.count, &out); u16(0, &out)
            out.append(name)
            out.append(entry.data)
            u32(0x0201_4B50, &central)
            u16(0x0314, &central); u16(20, &central); u16(entry.flags, &central); u16(entry.method, &central)
            u16(0, &central); u16(0, &central)
            u32(crc, &central); u32(UInt32(entry.data.count), &central); u32(size, &central)
            u16(name.count, &central); u16(entry.extra.count, &central); u16(0, &central); u16(0, &central)
            u16(0, &central)
            u32(entry.mode << 16, &central); u32(offset, &central)
            central.append(name)
            central.append(entry.extra)
        }
        let centralOffset = UInt32(out.count)
        out.append(central)
        u32(0x0605_4B50, &out)
        u16(0, &out); u16(0, &out); u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(central.count), &out); u32(centralOffset, &out); u16(0, &out)
        return out
    }

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
