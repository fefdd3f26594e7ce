import Foundation

/// Decodes the reference-data JSON file `Reference/<name>` of the test target whose source file calls this.
///
/// The files hold reference values computed without taskproc (the R/Python peers' outputs, values computed from a
/// spec's tables), written by the generators in `Tools/reference/` (the target's `Reference/README.md` says which
/// script wrote which file) and read from disk via `#filePath`, not bundled. Every number is written with enough
/// digits to round-trip exactly; NaN and the infinities, which JSON lacks, are the strings `"NaN"`, `"Inf"` and
/// `"-Inf"` (jsonlite's spelling).
///
/// A missing or malformed file stops the run with its path and the decoding error: the reference tables are static
/// properties, evaluated when Swift Testing collects the parameterized tests, so there is no test to fail instead.
///
/// - Parameters:
///   - type: The type to decode.
///   - name: The path inside the target's `Reference/` folder, e.g. `"emd.json"` or `"emd/chirp.json"`.
///   - filePath: The calling source file (the default), which locates the target folder.
/// - Returns: The decoded value.
public func loadReference<Value: Decodable>(_ type: Value.Type, _ name: String, filePath: String = #filePath) -> Value {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Reference")
        .appendingPathComponent(name)
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "Inf", negativeInfinity: "-Inf", nan: "NaN")
    do {
        return try decoder.decode(type, from: Data(contentsOf: url))
    } catch {
        fatalError("reference data \(url.path): \(error)")
    }
}
