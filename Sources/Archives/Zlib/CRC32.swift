internal import CZlib

/// The CRC-32 checksum of ZIP and gzip (ISO 3309 polynomial 0xEDB88320, reflected), computed by zlib.
public enum CRC32 {
    /// Extends `crc` (0 for a new checksum) with `bytes`.
    /// - Returns: The updated checksum.
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        var value = UInt(crc)
        var offset = 0
        // zlib's length argument is a 32-bit uInt: feed large buffers in pieces.
        while offset < bytes.count {
            let n = min(bytes.count - offset, 1 << 30)
            value = crc32(value, base.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(n))
            offset += n
        }
        return UInt32(truncatingIfNeeded: value)
    }
}
