import Foundation
import SensorSignal
import StudyInputs

/// One coded value a result exports (a FHIR Observation): what it measures, its value and unit, and how it was
/// measured. Each task kind's analysis says which measures its results export
/// (``TaskAnalysis/exportMeasures(of:skipped:)``).
public struct ExportMeasure: Sendable {
    /// The code system (`http://loinc.org`, or a local system).
    public var system: String
    /// The code in ``system``.
    public var code: String
    /// The code's display text.
    public var display: String
    /// The FHIR observation category (`activity`, `exam`).
    public var category: String
    /// The value, in ``unit``.
    public var value: Double
    /// The unit as people read it (`steps`, `dB HL`, `dB SPL`).
    public var unit: String
    /// The UCUM code of ``unit`` (`{steps}`, `dB`, `dB[SPL]`).
    public var unitCode: String
    /// How it was measured: a short machine-readable name.
    public var method: String
    /// How it was measured, in words.
    public var methodDisplay: String
    /// The step the measure belongs to, when it is not the record's (an ear of an audiometry task).
    public var step: String?
    /// Distinguishes repeated measures of one code (a 1 kHz retest, a channel).
    public var occurrence = 1
    /// Further codings of the same concept.
    public var additionalCodings: [JSONValue] = []
    /// Extra Observation fields (e.g. `bodySite`), appended in order.
    public var extra: [(key: String, value: JSONValue)] = []
    /// How the value is written: a quantity with its UCUM unit (default), a Boolean (1 true, 0 false) or a whole
    /// count.
    public var valueType: ValueType = .quantity

    /// The FHIR type of an Observation's value.
    public enum ValueType: Sendable, Hashable {
        /// `valueQuantity` with ``unit`` and ``unitCode``.
        case quantity
        /// `valueBoolean` (``value`` 0 is false, anything else true).
        case boolean
        /// `valueInteger` (``value`` a whole number).
        case integer
    }
}

extension ExportMeasure {
    /// The UCUM code of a unit as taskproc writes it: `s`, `m`, `m/s`, `deg`, `Hz`, `%`, `g` (standard gravity,
    /// `[g]`), `fraction` and dimensionless (`—`, empty) `1`, `steps/min` `{steps}/min`, `words/min`
    /// `{words}/min`, `pt` (screen points) `{screen_point}`; any other unit as an annotation `{<unit>}`.
    public static func ucum(_ unit: String) -> String {
        switch unit {
        case "s", "m", "m/s", "deg", "Hz", "%": unit
        case "g": "[g]"
        case "fraction", "—", "": "1"
        case "steps/min": "{steps}/min"
        case "words/min": "{words}/min"
        case "pt": "{screen_point}"  // UCUM's [pt] is the pint
        default: "{" + unit.filter { !$0.isWhitespace && $0 != "{" && $0 != "}" } + "}"
        }
    }

    /// A FHIR `Coding` object (`system`, `code`, `display`), e.g. for ``additionalCodings``.
    public static func coding(system: String, code: String, display: String) -> JSONValue {
        .object(JSONObject([("system", .string(system)), ("code", .string(code)), ("display", .string(display))]))
    }
}

/// How the exporters write a kind's results: as coded measures (FHIR Observations, MORK items per measure,
/// ResearchKit step results), or as answers (a questionnaire: FHIR QuestionnaireResponse and Consent, MORK items per
/// answer, ResearchKit question results). Each kind declares it (``TaskAnalysis/exportShape``).
public enum ExportShape: Sendable, Hashable {
    /// Coded measures of a recording or a scored task (the default).
    case measures
    /// Answers to questions and consent signatures.
    case answers
}
