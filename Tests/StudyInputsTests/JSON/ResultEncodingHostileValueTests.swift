import Foundation
import TestSupport
import Testing

@testable import StudyInputs

/// Issue 16 in the result encoder: a non-finite number is an error that names its field, never invalid JSON.
@Suite(.tags(.hostileInput)) struct ResultEncodingHostileValueTests {
    /// The last line of defence: a NaN that reaches the encoder names the field.
    @Test func aNaNThatReachesTheEncoderNamesTheField() {
        struct Bad: Encodable { var channels = [["rms": Double.nan]] }
        #expect {
            _ = try ResultEncoding.json(Bad())
        } throws: { error in
            (error as? ExportError)?.description == "field channels[0].rms: nan is not a finite number"
        }
    }
}
