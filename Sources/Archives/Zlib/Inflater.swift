internal import CZlib

/// Why a DEFLATE stream (raw, as in ZIP entries, or gzip-wrapped) could not be decompressed.
enum InflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zlib could not set up a decompressor.
    case initialisationFailed
    /// The stream is not valid DEFLATE or gzip data (zlib's message).
    case corrupt(String)
    /// The compressed input ended before the end-of-stream marker.
    case truncated

    /// One line saying what went wrong.
    var description: String {
        switch self {
        case .initialisationFailed: "zlib could not initialise a decompressor"
        case .corrupt(let message): "corrupt deflate data: \(message)"
        case .truncated: "deflate data ends early (truncated entry)"
        }
    }
}

/// Streaming zlib decompressor for one stream: raw DEFLATE (RFC 1951, ZIP entries) or gzip (RFC 1952, concatenated
/// members allowed).
///
/// Feed compressed bytes in chunks of any size with ``feed(_:sink:)``; decompressed bytes are handed to the sink in
/// pieces of at most 256 KiB, so memory use is constant whatever the stream's size. A non-Sendable resource owner
/// (it holds zlib's state): use one instance from one task, for one stream. The C handle never leaves this file.
final class Inflater {
    /// What wraps the DEFLATE data.
    enum Format {
        /// No header or trailer (ZIP entries).
        case raw
        /// gzip header and CRC/size trailer; several members may follow one another.
        case gzip
    }

    private var stream = z_stream()
    private var buffer: [UInt8]
    private let format: Format
    /// True once the end-of-stream marker (of the last member so far, for gzip) has been decoded.
    private(set) var isFinished = false

    /// Creates a decompressor for one stream.
    /// - Throws: ``InflateError/initialisationFailed``.
    init(_ format: Format) throws(InflateError) {
        self.format = format
        buffer = [UInt8](repeating: 0, count: 1 << 18)
        // Negative window bits: raw deflate; 15 + 16: expect a gzip header and trailer.
        let windowBits: Int32 = format == .raw ? -15 : 15 + 16
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .initialisationFailed
        }
    }

    deinit { inflateEnd(&stream) }

    /// Decompresses the next chunk of compressed bytes.
    ///
    /// For `.raw`, bytes after the end-of-stream marker are ignored and later calls return true at once. For
    /// `.gzip`, bytes after a member's end must start another member (a later chunk may start it too).
    ///
    /// - Parameters:
    ///   - chunk: The next compressed bytes; empty means the input has ended (an error unless the stream is
    ///     finished).
    ///   - sink: Receives each piece of decompressed output, in order; its error is rethrown unchanged.
    /// - Returns: True when the stream's end was reached with all of `chunk` used (or, for `.raw`, ignored).
    /// - Throws: ``InflateError`` for corrupt or truncated data, or the sink's error.
    func feed(_ chunk: UnsafeRawBufferPointer, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        if chunk.isEmpty {
            if isFinished { return true }
            throw InflateError.truncated
        }
        // zlib counts input in 32-bit units: feed a huge chunk in pieces.
        var offset = 0
        while offset < chunk.count {
            if isFinished {
                if format == .raw { return true }
                // A new gzip member follows the previous one.
                guard inflateReset(&stream) == Z_OK else { throw InflateError.corrupt("zlib could not reset") }
                isFinished = false
            }
            let piece = UnsafeRawBufferPointer(rebasing: chunk[offset..<min(chunk.count, offset + (1 << 30))])
            offset += piece.count
            try feedPiece(piece, sink: sink)
        }
        return isFinished
    }

    /// Feeds one piece of at most 1 GiB, until it is used up or the stream (the last gzip member in it) ends.
    private func feedPiece(_ piece: UnsafeRawBufferPointer, sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        stream.next_in = UnsafeMutablePointer(mutating: piece.bindMemory(to: Bytef.self).baseAddress)
        stream.avail_in = uInt(piece.count)
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
                isFinished = true
                // Another gzip member may follow in this piece.
                if format == .gzip && stream.avail_in > 0 {
                    guard inflateReset(&stream) == Z_OK else { throw InflateError.corrupt("zlib could not reset") }
                    isFinished = false
                    continue
                }
                return
            case Z_OK, Z_BUF_ERROR:
                // More output pending while the buffer was full; otherwise this piece is used up.
                if stream.avail_out == 0 { continue }
                return
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw InflateError.corrupt(message)
            }
        }
    }
}
