import Foundation
import SensorSignal
import TestSupport
import Testing

@testable import StudyOutputs

/// MORK's default item OIDs (`MORKExport.defaultOID`), made from step and feature names.
@Suite struct MORKExportOIDTests {
    /// MORK's default OIDs: the byte path for ASCII names gives what the Unicode path gives.
    @Test func asciiOIDPartsMatchTheUnicodePath() {
        let alphabet = Array("aAzZbQ09_. -\r\n\t/xYmN")
        var r = SplitMix64(seed: 42)
        for _ in 0..<5000 {
            let s = String(
                (0..<Int.random(in: 0..<12, using: &r)).map { _ in
                    alphabet[Int.random(in: 0..<alphabet.count, using: &r)]
                })
            for splitCamel in [true, false] {
                #expect(
                    MORKExport.asciiOIDPart(s, splitCamel: splitCamel)
                        == MORKExport.unicodeOIDPart(s, splitCamel: splitCamel), "\(s.debugDescription)")
            }
        }
        #expect(MORKExport.asciiOIDPart("é", splitCamel: true) == nil)
        #expect(MORKExport.defaultOID(step: "Größe.links", feature: "stepCount") == "GRÖSSE_LINKS_STEP_COUNT")
        #expect(MORKExport.defaultOID(step: "__walk__", feature: "meanHR2Value") == "WALK_MEANHR2_VALUE")
    }
}
