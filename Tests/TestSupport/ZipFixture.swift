import Archives
import Foundation

/// Hand-written ZIP archives, so tests can craft hostile ones (lying sizes and CRCs, links, encrypted or
/// deflated entries, extra fields) byte by byte; shared by the archive and batch tests.
public enum ZipFixture {
    /// One entry.
    public struct Entry {
        /// The entry name as stored.
        public var name: String
        /// The bytes written for the entry.
        public var data: Data
        /// Unix mode for the external attributes, such as 0o120777 for a symbolic link.
        public var mode: UInt32 = 0o100644
        /// Declared size, when a test wants a header that lies.
        public var declaredSize: UInt32?
        /// Declared CRC, when a test wants a corrupt one.
        public var declaredCRC: UInt32?
        /// General-purpose flags (bit 0: encrypted).
        public var flags: Int = 0
        /// Compression method as declared (the data is written as given: pass raw deflate data with 8).
        public var method: Int = 0
        /// Declared decompressed size for method 8 (defaults to the data's size).
        public var uncompressedSize: UInt32?
        /// The central-directory extra field, as given.
        public var extra = Data()

        /// An entry; the optional fields default to an honest, stored entry.
        public init(
            name: String, data: Data, mode: UInt32 = 0o100644, declaredSize: UInt32? = nil, declaredCRC: UInt32? = nil,
            flags: Int = 0, method: Int = 0, uncompressedSize: UInt32? = nil, extra: Data = Data()
        ) {
            self.name = name
            self.data = data
            self.mode = mode
            self.declaredSize = declaredSize
            self.declaredCRC = declaredCRC
            self.flags = flags
            self.method = method
            self.uncompressedSize = uncompressedSize
            self.extra = extra
        }
    }

    /// A ZIP archive of the entries, written as given (stored unless an entry says otherwise).
    public static func zip(_ entries: [Entry]) -> Data {
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
}
