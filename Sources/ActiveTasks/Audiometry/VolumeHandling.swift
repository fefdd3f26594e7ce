import StudyInputs

/// How a ResearchKit release handled the system volume, and by how much the presented level differed from the
/// nominal dB HL (the "volume defect", `researchkit-formats.md` §4.6 and §7.4, `audio.md` §2.2).
///
/// From ResearchKit 3.1.0 the generator's volume lookup (`(int)(v / 0.0625) * 0.0625 >= min ?: min`) yields the
/// comparison result, so the volume curve is always read at key `1.0000`: the amplitude is computed as if the
/// phone were at full volume. When it was not, the delivered SPL was lower than nominal by
/// `V(1.0000) − V(actual)` dB, so a recorded threshold is too high by that amount:
///
///     offset             = V(quantised outputVolume) − V(1.0000)      (dB, ≤ 0)
///     corrected threshold = recorded threshold + offset              (dB HL actually delivered)
///
/// Before 3.1.0 the curve was read at the quantised volume, which compensates: offset 0. `outputVolume` is
/// sampled when the result is built (end of step), so the correction assumes the volume did not change during
/// the test.
public struct VolumeHandling: Sendable, Hashable, Encodable {
    /// `outputVolume` as recorded, 0…1.
    public var outputVolume: Double
    /// The volume quantised down to 1/16.
    public var quantizedVolume: Double
    /// The volume key ResearchKit used in the curve lookup; nil when it had none.
    public var lookupVolume: Double?
    /// True when the presented level differed from the nominal one (the defect applied and volume < 1).
    public var defect: Bool
    /// Presented − nominal level, dB (0 when there is no defect); nil when it cannot be known.
    public var offset: Double?
    /// What was assumed, in one or two sentences.
    public var note: String

    /// Works out the volume handling of `calibration`'s release for `outputVolume`.
    public init(calibration: HeadphoneCalibration, outputVolume: Double) {
        self.outputVolume = outputVolume
        let q = HeadphoneCalibration.quantize(outputVolume)
        quantizedVolume = q
        let version = calibration.version
        let curve = "volume_curve_\(calibration.volumeCurve)"
        let grid = (outputVolume / 0.0625).rounded() * 0.0625 == outputVolume
        let gridNote =
            grid ? "" : " The volume is not a multiple of 1/16; the curve is read at the quantised volume \(q)."
        guard outputVolume.isFinite, (0...1).contains(outputVolume) else {
            lookupVolume = nil
            defect = false
            offset = nil
            note = "outputVolume \(outputVolume) is not in 0…1; the presented level is unknown."
            return
        }
        if !version.hasVolumeDefect {
            lookupVolume = q >= 0.0625 ? q : nil
            defect = false
            offset = q >= 0.0625 ? 0 : nil
            note =
                q >= 0.0625
                ? "ResearchKit \(version) read \(curve) at the actual volume, so the presented level equals the nominal "
                    + "one (assuming the volume did not change during the test)." + gridNote
                : "ResearchKit \(version) has no \(curve) entry below 0.0625: the amplitude was undefined."
            return
        }
        lookupVolume = q >= 0.0625 ? 1 : 0.0625
        guard q >= 0.0625,
            let actual = try? calibration.volumeOffset(volume: q),
            let full = try? calibration.volumeOffset(volume: 1)
        else {
            defect = true
            offset = nil
            note =
                outputVolume == 0
                ? "The phone was muted (outputVolume 0): no tone was audible; thresholds are meaningless."
                : "outputVolume \(outputVolume) is below the lowest \(curve) entry (0.0625): the presented level is unknown."
            return
        }
        let o = (actual - full).doubleValue
        offset = o
        defect = o != 0
        note =
            o == 0
            ? "Full volume: ResearchKit \(version) always reads \(curve) at 1.0000, which is correct here."
            : "ResearchKit \(version) reads \(curve) at 1.0000 whatever the volume; at \(ResultEncoding.number(outputVolume)) "
                + "the tones were \(ResultEncoding.number(-o)) dB softer than nominal, so thresholds read "
                + "\(ResultEncoding.number(-o)) dB too high." + gridNote
    }

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(outputVolume, forKey: .outputVolume)
        try c.encode(quantizedVolume, forKey: .quantizedVolume)
        try c.encodeNullable(lookupVolume, forKey: .lookupVolume)
        try c.encode(defect, forKey: .defect)
        try c.encodeNullable(offset, forKey: .offset)
        try c.encode(note, forKey: .note)
    }

    enum Key: String, CodingKey { case outputVolume, quantizedVolume, lookupVolume, defect, offset, note }
}
