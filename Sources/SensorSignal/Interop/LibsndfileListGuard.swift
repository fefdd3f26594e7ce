import Foundation

/// Finds the WAV-family files on which libsndfile 1.2's `LIST`/`INFO` chunk parser never returns, so that
/// ``SoundFile`` can refuse them before `sf_open` instead of hanging (found by `FuzzAudio`; upstream
/// libsndfile issue #1118, open as of 1.2.2).
///
/// libsndfile walks the sub-chunks of a `LIST` or `INFO` chunk (`wavlike_subchunk_parse`) with 32-bit unsigned
/// arithmetic and skips each one with a seek whose distance it passes as a C `int`. A sub-chunk size close enough to
/// 2³² (e.g. `0xFFFFFFF8`) that adding it to the bytes read so far wraps past the bounds check becomes a *backward*
/// seek; at exactly −8 the parser re-reads the same sub-chunk forever, at 100 % CPU, inside `sf_open` (a 128-byte
/// file is enough). The same would happen to a skip to the end of a chunk of 2³¹ bytes or more.
///
/// The guard replays that walk as libsndfile 1.2.0 does it (a short read at the end of the file ends the replay,
/// which can only differ from libsndfile for files of 2 GiB or more), from *every* `LIST` and `INFO` marker in the
/// file (libsndfile reaches chunks after the `data` chunk and after an ID3 tag, so every marker is a possible start),
/// and reports the first walk that would seek backwards. It reads only files that libsndfile would hand to its WAV
/// or RF64 parser (first bytes `RIFF`, `RIFX`, `RF64`, or an ID3v2 tag, which libsndfile skips), in 1 MiB blocks;
/// other formats never reach that parser.
///
/// This over-approximates: a `LIST` or `INFO` spelled by the audio bytes starts a walk libsndfile never makes, and
/// if that walk meets a size within the chunk's length of 2³² (quiet 16-bit audio read as sizes can hold one) the
/// file is refused although libsndfile would open it. Such a marker occurs about once per 2³¹ bytes of random data;
/// replaying only the chunks libsndfile's top-level walk visits would remove the imprecision.
enum LibsndfileListGuard {
    /// Most sub-chunk steps replayed over one file, all walks together (a file made of millions of `INFO` markers
    /// would otherwise cost time quadratic in its length). No real file comes near it.
    static let maximumSteps = 1 << 24

    /// Why libsndfile would not return from opening `path`, or nil when it would (or the file cannot be read: the
    /// open then reports that).
    static func hazard(path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size >= 12 else { return nil }
        let source = ByteSource(fd: fd, length: Int(status.st_size))
        guard let byteOrders = source.byteOrders() else { return nil }
        var steps = 0
        // Buffers no larger than the file: most recordings are far smaller than a block, and zeroing 1 MiB per
        // open was most of the guard's cost on them.
        let blockSize = min(1 << 20, source.length)
        var block = [UInt8](repeating: 0, count: blockSize + 3)
        var start = 0
        while start < source.length {
            let wanted = min(blockSize + 3, source.length - start)
            let got = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(start)) }
            guard got >= 4 else { break }
            for offset in candidates(in: block, count: got) {
                for bigEndian in byteOrders {
                    var walk = Walk(source: source, bigEndian: bigEndian, steps: steps)
                    let found = walk.run(marker: start + offset)
                    steps = walk.steps
                    if let found { return found }
                    if steps > maximumSteps {
                        return "more than \(maximumSteps) LIST/INFO sub-chunks to check before libsndfile may open it"
                    }
                }
            }
            start += blockSize
        }
        return nil
    }

    /// Offsets of every `LIST` and `INFO` in the first `count` bytes of `block`, ascending.
    ///
    /// Every four-byte marker covers exactly one offset that is a multiple of 4, so only those bytes are tested
    /// against the markers' letters; the (rare) hits then test the four offsets around them.
    private static func candidates(in block: [UInt8], count: Int) -> [Int] {
        let list = Tag("LIST").value
        let info = Tag("INFO").value
        var found: [Int] = []
        block.withUnsafeBufferPointer { b in
            var i = 0
            while i < count {
                if markerLetters[Int(b[i])] {
                    for offset in max(0, i - 3)...i where offset + 4 <= count {
                        let word =
                            UInt32(b[offset]) << 24 | UInt32(b[offset + 1]) << 16 | UInt32(b[offset + 2]) << 8
                            | UInt32(b[offset + 3])
                        if word == list || word == info { found.append(offset) }
                    }
                }
                i += 4
            }
        }
        return found
    }

    /// The letters of `LIST` and `INFO`, as a 256-entry table.
    private static let markerLetters: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for letter in "LISTNFO".utf8 { table[Int(letter)] = true }
        return table
    }()

    /// Random-access reads through a 64 KiB window (the walks read forwards, a few bytes at a time).
    final class ByteSource {
        let fd: Int32
        let length: Int
        private var window: [UInt8]
        private var windowStart = 0
        private var windowCount = 0

        init(fd: Int32, length: Int) {
            self.fd = fd
            self.length = length
            window = [UInt8](repeating: 0, count: min(1 << 16, max(0, length)))
        }

        /// The `count` (≤ 4 096) bytes at `offset`, or nil past the end of the file.
        func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, count <= 4096, offset <= length - count else { return nil }
            if offset < windowStart || offset + count > windowStart + windowCount {
                let wanted = min(window.count, length - offset)
                let got = window.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
                guard got >= count else { return nil }
                windowStart = offset
                windowCount = got
            }
            let from = offset - windowStart
            return window[from..<(from + count)]
        }

        /// The byte orders libsndfile would read sizes in (`RIFF`, `RF64`: little-endian; `RIFX`: big-endian; after
        /// an ID3v2 tag: either), or nil when the file never reaches its WAV or RF64 parser.
        func byteOrders() -> [Bool]? {
            guard let head = bytes(at: 0, count: 4) else { return nil }
            switch Tag(head) {
            case Tag("RIFF"), Tag("RF64"): return [false]
            case Tag("RIFX"): return [true]
            case Tag("ID3\u{2}"), Tag("ID3\u{3}"), Tag("ID3\u{4}"): return [false, true]
            default: return nil
            }
        }
    }

    /// A four-byte chunk marker, first byte highest.
    struct Tag: Equatable {
        let value: UInt32

        init(_ bytes: some Collection<UInt8>) {
            value = bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
        }

        init(_ text: StaticString) {
            self.init(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// The marker as text, other bytes as `\xNN`.
        var printable: String {
            (0..<4).map { i -> String in
                let byte = UInt8(truncatingIfNeeded: value >> (24 - 8 * i))
                if (0x20..<0x7F).contains(byte) { return String(UnicodeScalar(byte)) }
                let digits = String(byte, radix: 16, uppercase: true)
                return "\\x" + (digits.count < 2 ? "0" : "") + digits
            }.joined()
        }
    }

    private static let bareMarkers = [Tag("adtl"), Tag("INFO")]
    private static let infoStrings = [
        "ISFT", "ICOP", "IARL", "IART", "ICMT", "ICRD", "IENG", "IGNR", "INAM", "IPRD", "ISBJ", "ISRC", "IAUT",
        "ITRK",
    ].map { Tag(Array($0.utf8)) }
    private static let sizedNotes = [Tag("DISP"), Tag("ltxt"), Tag("note")]
    private static let exifStrings = ["emnt", "emdl", "ecor", "etim", "erel", "eucm"].map { Tag(Array($0.utf8)) }

    /// libsndfile 1.2.0's `wavlike_subchunk_parse` (and the `exif_subchunk_parse` it calls), replayed from one
    /// marker with the file's offsets.
    struct Walk {
        let source: ByteSource
        let bigEndian: Bool
        var steps: Int
        private var position = 0

        init(source: ByteSource, bigEndian: Bool, steps: Int) {
            self.source = source
            self.bigEndian = bigEndian
            self.steps = steps
        }

        /// The four bytes at the position as a marker, advancing; nil at the end of the file.
        private mutating func marker() -> Tag? {
            guard let b = source.bytes(at: position, count: 4) else { return nil }
            position += 4
            return Tag(b)
        }

        /// A 32-bit size in the file's byte order, advancing; nil at the end of the file.
        private mutating func size() -> UInt32? {
            guard let b = source.bytes(at: position, count: 4) else { return nil }
            position += 4
            let value = Tag(b).value
            return bigEndian ? value : value.byteSwapped
        }

        /// libsndfile's relative seek: the distance goes through a C `int`, so 2³¹ or more is a backward seek.
        private mutating func skip(_ distance: UInt32, _ what: @autoclosure () -> String) -> String? {
            if Int32(truncatingIfNeeded: distance) < 0 {
                return "\(what()) declares \(distance) bytes, which libsndfile 1.2 takes as a backward seek and "
                    + "would never finish opening the file (libsndfile issue #1118)"
            }
            position += Int(distance)
            return nil
        }

        /// The walk of the chunk whose marker is at `offset`; the reason it would not return, or nil.
        mutating func run(marker offset: Int) -> String? {
            position = offset
            guard let tag = marker(), let declared = size() else { return nil }
            // libsndfile's PEAK work-around reads one marker and returns.
            guard declared > 8 else { return nil }
            var length = declared
            if position + Int(declared) > source.length { length = UInt32(source.length - position) }
            let chunk = "\(tag.printable) chunk at byte \(offset)"
            var read: UInt32 = 0
            walk: while read < length {
                steps += 1
                if steps > LibsndfileListGuard.maximumSteps { return nil }
                let at = position
                guard let m = marker() else { return nil }
                read &+= 4
                if LibsndfileListGuard.bareMarkers.contains(m) { continue }
                switch m {
                case Tag("exif"):
                    if length > read {
                        switch exif(length: length - read, chunk: chunk) {
                        case .hazard(let reason): return reason
                        case .end: return nil
                        case .read(let n): read &+= n
                        }
                    }
                    continue
                case Tag("data"): return nil
                case Tag([0, 0, 0, 0]): break walk
                default: break
                }
                if LibsndfileListGuard.infoStrings.contains(m) {
                    guard var n = size() else { return nil }
                    read &+= 4
                    n &+= n & 1
                    if n >= 2048 || read &+ n > length { break walk }
                    position += Int(n)
                    read &+= n
                } else if m == Tag("labl") {
                    guard var n = size(), size() != nil else { return nil }
                    read &+= 8
                    n &-= 4
                    n &+= n & 1
                    if n < 1 || n >= 2048 || read &+ n > length { break walk }
                    position += Int(n)
                    read &+= n
                } else if LibsndfileListGuard.sizedNotes.contains(m) {
                    break walk
                } else {
                    guard var n = size() else { return nil }
                    read &+= 4
                    n &+= n & 1
                    if read &+ n > length { break walk }
                    if let hazard = skip(n, "\(chunk): sub-chunk '\(m.printable)' at byte \(at)") { return hazard }
                    read &+= n
                }
            }
            if length > read, let hazard = skip(length - read, "\(chunk): the rest of the chunk") { return hazard }
            return nil
        }

        private enum ExifOutcome {
            case read(UInt32)
            case end
            case hazard(String)
        }

        /// `exif_subchunk_parse`: the bytes it counts (which libsndfile adds to the chunk's count).
        private mutating func exif(length: UInt32, chunk: String) -> ExifOutcome {
            var read: UInt32 = 0
            while read < length {
                steps += 1
                if steps > LibsndfileListGuard.maximumSteps { return .end }
                let at = position
                guard let m = marker() else { return .end }
                read &+= 4
                if m == Tag("ever") {
                    guard source.bytes(at: position, count: 8) != nil else { return .end }
                    position += 8
                    read &+= 8
                } else if m == Tag("olym") {
                    guard var n = size() else { return .end }
                    read &+= 4
                    if n > length || read &+ n > length { continue }
                    n &+= n & 1
                    if let hazard = skip(n, "\(chunk): exif sub-chunk 'olym' at byte \(at)") { return .hazard(hazard) }
                    read &+= n
                } else if LibsndfileListGuard.exifStrings.contains(m) {
                    guard var n = size() else { return .end }
                    read &+= 8
                    n &+= n & 1
                    if n >= 4096 { return .read(read) }
                    guard let text = source.bytes(at: position, count: Int(n)) else { return .end }
                    position += Int(n)
                    read &+= n
                    let terminated = text.firstIndex(of: 0).map { $0 - text.startIndex } ?? text.count
                    if m == Tag("emdl") && Int(n) == terminated {
                        position += 2
                        read &+= 2
                    }
                    if n > length { return .read(read) }
                }
            }
            return .read(read)
        }
    }
}
