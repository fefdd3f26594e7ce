import Foundation

/// A measure a kind contributes to the study tables (`participant_day.csv`, `participant_week.csv`): a numeric
/// column of the kind's CSV, its unit, and the columns that split it into strata (an ear and a frequency).
///
/// Each kind declares its own (``TaskAnalysis/studyMeasures``); definitions in `docs/batch.md`.
public struct StudyMeasure: Sendable, Hashable {
    /// The column of the kind's CSV that holds the value.
    public var column: String
    /// The unit of the value (`steps/min`, `s`, `dB HL`); replaced by the row's cell in ``unitColumn`` when set.
    public var unit: String
    /// A column whose cell names the row's unit (the audio summary's `levelUnit`: dB SPL or dBFS), when the unit
    /// depends on the row.
    public var unitColumn: String?
    /// Columns whose cells split the measure into strata (`ear`, `frequency`); empty for one stratum.
    public var by: [String]

    /// Creates a measure.
    public init(_ column: String, unit: String, unitColumn: String? = nil, by: [String] = []) {
        self.column = column
        self.unit = unit
        self.unitColumn = unitColumn
        self.by = by
    }
}
