import Foundation
import TestSupport
import Testing

@testable import ActiveTasks

/// An audiometry boundary written for a mutation of `make mutants` that no other test caught (M07); the expected
/// values come from the definition it cites, not from the code under test.
@Suite(.tags(.mutant)) struct AudiometryBoundaryTests {
    /// M07. WHO 2021 (World Report on Hearing, Table 1.3 note): unilateral hearing loss is a better ear below
    /// 20 dB HL and a worse ear of 35 dB HL *or more*; both limits exactly.
    @Test func unilateralLossAtExactlyThirtyFiveDecibels() {
        func ear(_ t: Double) -> EarSummary { EarSummary(thresholds: [500: t, 1000: t, 2000: t, 4000: t], oneKilohertz: []) }
        #expect(BilateralSummary(right: ear(19), left: ear(35), asymmetry: []).unilateral == true)
        #expect(BilateralSummary(right: ear(19), left: ear(34), asymmetry: []).unilateral == false)
        #expect(BilateralSummary(right: ear(20), left: ear(35), asymmetry: []).unilateral == false)
    }
}
