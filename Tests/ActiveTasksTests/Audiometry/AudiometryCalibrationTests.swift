import Foundation
import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Calibration tables, release variants and the volume defect, against values computed from the spec
/// (`Tools/reference/audiometry_calibration_reference.py` parses researchkit-formats.md §4.6–4.7 into
/// `Reference/audiometry_calibration.json`, read by `AudiometryCalibrationReference`).
@Suite struct AudiometryCalibrationTests {
    static func d(_ s: String) -> Decimal { Decimal(string: s)! }

    @Test(arguments: AudiometryCalibrationReference.cases.indices)
    func everyReleaseAndHeadphoneMatchesTheSpec(_ k: Int) throws {
        let c = AudiometryCalibrationReference.cases[k]
        let version = try #require(ResearchKitVersion(c.version))
        guard let suffix = c.suffix else {
            #expect(throws: AudiometryCalibrationError.self, "\(c.type) in \(c.version)") {
                _ = try HeadphoneCalibration(headphoneType: c.type, version: version)
            }
            return
        }
        let cal = try HeadphoneCalibration(headphoneType: c.type, version: version)
        #expect(cal.tableSuffix == suffix)
        #expect(cal.volumeCurve == c.curve)
        #expect(cal.usesGenericRETSPL == (version < ResearchKitVersion(3, 2, 0)))
        for row in c.rows {
            #expect(try cal.retspl(frequency: row.f) == Self.d(row.r), "\(c.type) \(c.version) \(row.f) Hz R")
            #expect(try cal.outputSensitivity(frequency: row.f) == Self.d(row.s))
            #expect(try cal.clippingCeiling(frequency: row.f, lookupVolume: 1) == Self.d(row.ceiling))
            #expect(try cal.attenuation(frequency: row.f, level: 30, lookupVolume: 1) == Self.d(row.attenuation30))
            #expect(try cal.spl(frequency: row.f, level: 25) == Self.d(row.r) + 25)
            // Clipping starts exactly at the ceiling.
            let ceiling = Double(row.ceiling)!
            #expect(try cal.clips(frequency: row.f, level: ceiling, lookupVolume: 1))
            #expect(try !cal.clips(frequency: row.f, level: ceiling - 0.01, lookupVolume: 1))
        }
    }

    @Test func headCeilingsEqualTheSpecsDerivedTable() throws {
        let types = [
            "AIRPODS": "AIRPODSV1", "AIRPODSV2": "AIRPODSV2", "AIRPODSV3": "AIRPODSV3", "AIRPODSPRO": "AIRPODSPRO",
            "AIRPODSPROV2": "AIRPODSPROV2", "AIRPODSMAX": "AIRPODSMAX", "EARPODS": "EARPODS",
        ]
        #expect(AudiometryCalibrationReference.derivedCeilings.count == 7)
        for (label, values) in AudiometryCalibrationReference.derivedCeilings {
            let cal = try HeadphoneCalibration(headphoneType: types[label]!, version: .current)
            #expect(values.count == AudiometryCalibrationReference.frequencies.count, "\(label)")
            for (f, v) in zip(AudiometryCalibrationReference.frequencies, values) {
                // The spec rounds to 0.01 dB (AIRPODSMAX 750 Hz: 100.885 is printed 100.89).
                #expect(abs(try cal.clippingCeiling(frequency: f).doubleValue - Double(v)!) <= 0.005, "\(label) \(f) Hz")
            }
        }
    }

    @Test func specWorkedExampleAirPodsPro2() throws {
        // §4.6: AIRPODSPROV2, 1000 Hz, 30 dB HL, V = 0: attenuation = −74.40 dB, A ≈ 1.905e-4.
        let cal = try HeadphoneCalibration(headphoneType: "AirPodsProV2")
        let a = try cal.attenuation(frequency: 1000, level: 30)
        #expect(a == Self.d("-74.40"))
        #expect(abs(pow(10, a.doubleValue / 20) - 1.905e-4) < 0.001e-4)
    }

    @Test func volumeCurvesMatchTheSpec() throws {
        let curveOf = ["AIRPODS": "AIRPODSV1", "AIRPODSV3": "AIRPODSV3", "AIRPODSPRO": "AIRPODSPRO",
            "AIRPODSPROV2": "AIRPODSPROV2", "AIRPODSMAX": "AIRPODSMAX", "WIRED": "EARPODS", "AIRPODSV2": "AIRPODSV2"]
        for (curve, values) in AudiometryCalibrationReference.volumeCurves {
            let cal = try HeadphoneCalibration(headphoneType: curveOf[curve]!, version: .current)
            #expect(cal.volumeCurve == curve)
            for (k, v) in values.enumerated() {
                #expect(try cal.volumeOffset(volume: Double(k + 1) / 16) == Self.d(v), "\(curve) \(k + 1)/16")
            }
        }
    }

    @Test func volumeDefectOffsets() throws {
        // audio.md §0: −3 dB at 0.9375, −6.5 dB at 0.875 on AirPods Pro 2 (curve offset minus V(1.0) = 0).
        let pro2 = try HeadphoneCalibration(headphoneType: "AIRPODSPROV2", version: .current)
        #expect(pro2.volumeHandling(outputVolume: 0.9375).offset == -3)
        #expect(pro2.volumeHandling(outputVolume: 0.875).offset == -6.5)
        #expect(pro2.volumeHandling(outputVolume: 0.875).defect)
        #expect(pro2.volumeHandling(outputVolume: 0.0625).offset == -65.5)
        #expect(pro2.volumeHandling(outputVolume: 1).offset == 0)
        #expect(!pro2.volumeHandling(outputVolume: 1).defect)
        // Not on the 1/16 grid: quantised down (0.9 → 0.875).
        #expect(pro2.volumeHandling(outputVolume: 0.9).offset == -6.5)
        #expect(try pro2.lookupVolume(outputVolume: 0.5) == 1)
        #expect(try pro2.lookupVolume(outputVolume: 0.03) == 0.0625)
        // Muted / below the curve: unknown.
        #expect(pro2.volumeHandling(outputVolume: 0).offset == nil)
        #expect(pro2.volumeHandling(outputVolume: 0.05).offset == nil)
        // EarPods use the WIRED curve, whose full-volume entry is −0.5 dB: −6.7 − (−0.5) = −6.2 dB.
        let earpods = try HeadphoneCalibration(headphoneType: "EARPODS", version: .current)
        #expect(earpods.volumeHandling(outputVolume: 0.875).offset == -6.2)
        // 3.1 has the defect; 3.0 and earlier read the curve at the real volume: no offset.
        let v31 = try HeadphoneCalibration(headphoneType: "AIRPODSPRO", version: ResearchKitVersion(3, 1, 0))
        #expect(v31.volumeHandling(outputVolume: 0.5).offset == -29)
        let v30 = try HeadphoneCalibration(headphoneType: "AIRPODSPRO", version: ResearchKitVersion(3, 0, 2))
        #expect(v30.volumeHandling(outputVolume: 0.5).offset == 0)
        #expect(try v30.lookupVolume(outputVolume: 0.5) == 0.5)
        #expect(throws: AudiometryCalibrationError.self) { try v30.lookupVolume(outputVolume: 0.05) }
        #expect(throws: AudiometryCalibrationError.self) { try v30.lookupVolume(outputVolume: 1.5) }
    }

    /// Fuzz finding (FuzzAudiometry): non-finite levels are calibration errors.
    ///
    /// A threshold of ±infinity reached `Decimal(Double)`, which traps; the frequency now carries the error as an
    /// issue and the rest of the ear is analysed.
    @Test func nonFiniteLevelsAreErrorsNotTraps() throws {
        let cal = try HeadphoneCalibration(headphoneType: "AIRPODSPROV2")
        for level in [Double.infinity, -.infinity, .nan] {
            let error = #expect(throws: AudiometryCalibrationError.self) {
                try cal.spl(frequency: 1000, level: level)
            }
            #expect(error?.description.contains("not a finite number") == true)
            #expect(throws: AudiometryCalibrationError.self) { try cal.attenuation(frequency: 1000, level: level) }
        }
        let result = ResearchKit.DBHLToneAudiometryResult(
            header: ResearchKit.ResultHeader(className: "ORKdBHLToneAudiometryResult", identifier: "dBHL1"),
            outputVolume: 0.5, tonePlaybackDuration: 1, postStimulusDelay: 1, headphoneType: "AIRPODSPROV2",
            samples: [
                ResearchKit.DBHLToneAudiometryFrequencySample(
                    frequency: 1000, calculatedThreshold: .infinity, channel: .right),
                ResearchKit.DBHLToneAudiometryFrequencySample(
                    frequency: 2000, calculatedThreshold: 20, channel: .right),
            ])
        let ear = AudiometryProcessor.ear(result)
        #expect(ear.frequencies[0].thresholdSPL == nil)
        // The processor excludes such a threshold before calibration (InputLimits.levelRange), naming it.
        #expect(ear.issues.contains { $0.contains("1000 Hz: calculatedThreshold") && $0.contains("treated as no threshold") })
        #expect(ear.frequencies[1].thresholdSPL != nil)
    }

    @Test func errorsNameTheProblem() {
        #expect(throws: AudiometryCalibrationError.missingHeadphoneType) { try HeadphoneCalibration(headphoneType: "") }
        #expect(throws: AudiometryCalibrationError.missingHeadphoneType) { try HeadphoneCalibration(headphoneType: nil) }
        do {
            _ = try HeadphoneCalibration(headphoneType: "Sony WH-1000", version: .current)
            Issue.record("no error")
        } catch {
            #expect(error == .unknownHeadphoneType("Sony WH-1000", version: .current))
            #expect(error.description.contains("Sony WH-1000") && error.description.contains("AIRPODSPROV2"))
        }
        do {
            let cal = try HeadphoneCalibration(headphoneType: "AIRPODSPROV2")
            _ = try cal.retspl(frequency: 1250)
            Issue.record("no error")
        } catch {
            #expect(error == .frequencyNotInTables(frequency: 1250, table: "AIRPODSPROV2"))
            #expect(error.description.contains("1250 Hz"))
        }
        #expect(throws: AudiometryCalibrationError.self) {
            try HeadphoneCalibration(headphoneType: "AIRPODS", version: ResearchKitVersion(1, 5, 0))
        }
    }

    @Test func frequencyKeyIsFormattedLikeResearchKit() throws {
        let cal = try HeadphoneCalibration(headphoneType: "AIRPODSV1")
        // `%.0f`: 999.6 → "1000", 1000.4 → "1000".
        #expect(try cal.retspl(frequency: 999.6) == 7)
        #expect(try cal.retspl(frequency: 1000.4) == 7)
    }

    @Test func versionParsing() {
        #expect(ResearchKitVersion("current") == .current)
        #expect(ResearchKitVersion("3.1") == ResearchKitVersion(3, 1, 0))
        #expect(ResearchKitVersion("v2.2.4") == ResearchKitVersion(2, 2, 4))
        #expect(ResearchKitVersion("3") == ResearchKitVersion(3, 0, 0))
        #expect(ResearchKitVersion("3.x") == nil)
        #expect(ResearchKitVersion("") == nil)
        #expect(ResearchKitVersion("1.2.3.4") == nil)
        #expect(ResearchKitVersion(3, 1, 0).hasVolumeDefect && !ResearchKitVersion(3, 0, 9).hasVolumeDefect)
        #expect(ResearchKitVersion(3, 2, 0).hasDeviceSpecificRETSPL && !ResearchKitVersion(3, 1, 9).hasDeviceSpecificRETSPL)
    }
}
