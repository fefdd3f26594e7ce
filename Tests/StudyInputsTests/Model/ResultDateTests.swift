import Foundation
import SensorSignal
import StudyInputs
import Testing

@Suite struct ResultDateTests {
    @Test(arguments: [
        ("2019-05-27T00:35:06-0700", 1_558_942_506.0, -25_200),
        ("2024-05-02T10:11:00+0200", 1_714_637_460.0, 7200),
        ("2024-05-02T10:11:00+02:00", 1_714_637_460.0, 7200),
        ("2024-05-02T08:11:00Z", 1_714_637_460.0, 0),
        ("2024-05-02 08:11:00.250Z", 1_714_637_460.25, 0),
        ("1970-01-01T00:00:00+0000", 0.0, 0),
        ("2000-02-29T23:59:59+0530", 951_848_999.0, 19_800),  // GNU date: date -u -d ... +%s
        ("1969-12-31T23:59:59Z", -1.0, 0),
    ])
    func parsesResearchKitAndISOForms(text: String, epoch: Double, offset: Int) throws {
        let d = try #require(ResultDate(text))
        #expect(abs(d.timeIntervalSince1970 - epoch) < 1e-6)
        #expect(d.utcOffset == offset)
    }

    @Test func agreesWithFoundationsISO8601Parser() throws {
        // Foundation's formatter is an independent implementation: compare instants across 40 years.
        let formatter = ISO8601DateFormatter()
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2000 {
            let instant = Double(rng.next() % 1_300_000_000) + 400_000_000
            let offsetMinutes = (Int(rng.next() % 53) - 26) * 30
            formatter.timeZone = TimeZone(secondsFromGMT: offsetMinutes * 60)
            let text = formatter.string(from: Date(timeIntervalSince1970: instant))
            let d = try #require(ResultDate(text), "\(text)")
            #expect(d.timeIntervalSince1970 == instant, "\(text)")
            #expect(d.utcOffset == offsetMinutes * 60)
            // And back: our text parses in Foundation to the same instant.
            #expect(formatter.date(from: d.description)?.timeIntervalSince1970 == instant, "\(d.description)")
        }
    }

    @Test(arguments: [
        "", "2019-05-27", "2019-05-27T00:35:06", "2019-13-27T00:35:06Z", "2019-05-27T25:35:06Z", "2019-05-27T00:35:06+7",
        "2019-05-27T00:35:06-0700 ", "27/05/2019 00:35:06", "2019-05-27T00:35:06.Z", "yyyy-MM-ddTHH:mm:ssZ",
    ])
    func rejectsMalformedOrOffsetlessDates(text: String) {
        #expect(ResultDate(text) == nil, "\(text)")
    }

    @Test func codableRoundTripKeepsTheOffset() throws {
        let d = try #require(ResultDate("2019-05-27T00:35:06-0700"))
        let data = try JSONEncoder().encode([d])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2019-05-27T00:35:06-07:00\"]")
        #expect(try JSONDecoder().decode([ResultDate].self, from: data) == [d])
    }
}
