internal import CZlib
import Foundation

/// Why a raw DEFLATE stream could not be decompressed.
public enum RawInflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zlib could not set up a decompressor.
    case initialisationFailed
    /// The stream is not valid DEFLATE data (zlib's message).
    case corrupt(String)
    /// The compressed input ended before the end-of-stream marker.
    case truncated

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .initialisationFailed: "zlib could not initialise a decompressor"
        case .corrupt(let message): "corrupt deflate data: \(message)"
        case .truncated: "deflate data ends early (truncated entry)"
        }
    }
}

/// Streaming decompressor for raw DEFLATE data (RFC 1951, no zlib or gzip wrapper), as stored in ZIP entries.
///
/// Feed compressed bytes in chunks of any size with ``feed(_:sink:)``; decompressed bytes are handed to
/// the sink in pieces of at most 256 KiB, so memory use is constant whatever the entry size. A non-Sendable
/// resource owner: use one instance from one task, for one stream.
public final class RawInflater {
    private var stream = z_stream()
    private var buffer: [UInt8]
    private var finished = false

    /// Creates a decompressor for one raw DEFLATE stream.
    /// - Throws: ``RawInflateError/initialisationFailed``.
    public init() throws(RawInflateError) {
        buffer = [UInt8](repeating: 0, count: 1 << 18)
        // Negative window bits: raw deflate, no header or trailer.
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .initialisationFailed
        }
    }

    deinit { inflateEnd(&stream) }

    /// True once the end-of-stream marker has been decoded.
    public var isFinished: Bool { finished }

    /// Decompresses the next chunk of compressed bytes.
    ///
    /// - Parameters:
    ///   - chunk: The next compressed bytes; an empty chunk means the input has ended.
    ///   - sink: Receives each piece of decompressed output, in order; its error is rethrown unchanged.
    /// - Returns: True when the stream's end was reached (any bytes after it are ignored).
    /// - Throws: ``RawInflateError`` for corrupt or truncated data, or the sink's error.
    public func feed(_ chunk: UnsafeRawBufferPointer, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        if finished { return true }
        if chunk.isEmpty { throw RawInflateError.truncated }
        stream.next_in = UnsafeMutablePointer(mutating: chunk.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(chunk.count)
        let capacity = buffer.count
        while true {
            let status: Int32 = buffer.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(capacity)
                return inflate(&stream, Z_NO_FLUSH)
            }
            let produced = capacity - Int(stream.avail_out)
            if produced > 0 {
                try buffer.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            switch status {
            case Z_STREAM_END:
                finished = true
                return true
            case Z_OK, Z_BUF_ERROR:
                // More output pending while the buffer was full; otherwise this chunk is used up.
                if stream.avail_out == 0 { continue }
                if stream.avail_in == 0 { return false }
                if status == Z_BUF_ERROR { return false }
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw RawInflateError.corrupt(message)
            }
        }
    }
}

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
