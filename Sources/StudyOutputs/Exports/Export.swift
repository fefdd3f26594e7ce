import ActiveTasks
import Foundation
import StudyInputs

/// What the export formats need beyond the results: where they came from and, for MORK, the envelope.
///
/// A class so that the notes an export leaves reach the caller through ``ResultEncoding/render(_:as:export:)``;
/// one instance per export, used from one task.
public final class ExportOptions {
    /// Dates, identifiers, device and participant of the input.
    public var context: ExportContext
    /// The MORK envelope and item-OID mapping.
    public var mork: MORKExport.Configuration
    /// How the `fhir` export shapes its bundle (type, subject, Patient, consent shape).
    public var fhir = FHIRExport.Settings()
    /// How the `fhir` export writes a consent signature: an R4 `Consent` (default) or C3-PRO's `Contract`.
    public var fhirConsent: FHIRConsentShape {
        get { fhir.consentShape }
        set { fhir.consentShape = newValue }
    }
    /// Notes the last export left for the user (e.g. results FHIR has no code for); one line each.
    public private(set) var notes: [String] = []

    /// Creates options.
    public init(context: ExportContext = ExportContext(), mork: MORKExport.Configuration = MORKExport.Configuration()) {
        self.context = context
        self.mork = mork
    }

    func record(_ lines: [String]) { notes += lines }
}

/// The resource a consent signature becomes in the `fhir` export (`--fhir-consent`).
public enum FHIRConsentShape: String, Sendable, Hashable, Codable, CaseIterable {
    /// An R4 `Consent` (status, scope, policy rule, the sharing choice as an extension).
    case consent
    /// C3-PRO's signed `Contract` (a `CONSENTER` signer with a consent signature and its
    /// `consents-to-data-sharing` extension).
    case contract
}

/// Dispatches the export formats.
public enum Export {
    /// The export document for `records` in `format` (`researchkit`, `mork` or `fhir`).
    ///
    /// - Throws: ``ExportError`` when `format` is not an export format or the export cannot be made.
    public static func render(_ records: [ExportRecord], as format: OutputFormat, options: ExportOptions) throws
        -> JSONValue
    {
        switch format {
        case .researchkit:
            options.record(ResearchKitExport.notes(records))
            return ResearchKitExport.stepResults(records, context: options.context)
        case .mork:
            let output = try MORKExport.document(records, context: options.context, configuration: options.mork)
            options.record(output.notes)
            return output.document
        case .fhir:
            let output = FHIRExport.bundle(records, context: options.context, settings: options.fhir)
            options.record(output.skipped)
            return output.bundle
        case .json, .table, .csv: throw ExportError("\(format.rawValue) is not an export format")
        }
    }
}
