import Foundation
import Testing

@testable import Archives

/// SHA-1 and SHA-256 against the FIPS 180-4 examples (NIST's "Examples with intermediate values"): the consent
/// document's hashes (R4 `Attachment.hash` is SHA-1; the SHA-256 extension and `SHA256SUMS`).
@Suite struct DigestTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha1MatchesTheFIPSExamples() {
        #expect(Self.hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Self.hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(
            Self.hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        // One million "a": many blocks, the length in the last one.
        #expect(
            Self.hex(SHA1.digest([UInt8](repeating: 0x61, count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // 55 and 56 bytes: the padding fits in one block, or needs a second.
        #expect(
            Self.hex(SHA1.digest([UInt8](repeating: 0x61, count: 55))) == "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        #expect(
            Self.hex(SHA1.digest([UInt8](repeating: 0x61, count: 56))) == "c2db330f6083854c99d4b5bfb6e8f29f201be699")
    }

    @Test func sha256MatchesTheFIPSExamples() {
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
