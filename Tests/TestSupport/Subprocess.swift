import Foundation

/// What a finished child process reported.
public struct ProcessOutput: Sendable {
    /// Its exit status.
    public var status: Int32
    /// Its standard output.
    public var stdout: String
    /// Its standard error (empty when it was merged into ``stdout``).
    public var stderr: String
}

/// Runs `executable` with `arguments` and waits for it; standard error goes into `stdout` when `mergeStandardError`;
/// standard input reads the file `standardInput` when given (else it is inherited).
/// Both pipes are drained concurrently, so a chatty child cannot block on a full pipe.
public func runProcess(
    _ executable: URL, _ arguments: [String], mergeStandardError: Bool = false, standardInput: String? = nil
) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let standardInput {
        guard let handle = FileHandle(forReadingAtPath: standardInput) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: standardInput])
        }
        process.standardInput = handle
    }
    let out = Pipe()
    let err = mergeStandardError ? out : Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errorData = Drained()
    if mergeStandardError {
        errorData.set(Data())
    } else {
        let handle = err.fileHandleForReading
        DispatchQueue.global().async { errorData.set(handle.readDataToEndOfFile()) }
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let e = errorData.wait()
    return ProcessOutput(
        status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e, as: UTF8.self))
}

/// Runs the Python script at `relative` inside the repository (e.g. `"Tools/validators/fhir_validate.py"`) with
/// `arguments` (standard error merged into the output). The full path keeps each caller greppable by the script's
/// location.
public func runPythonScript(_ relative: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let r = try runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", repositoryPath(relative)] + arguments,
        mergeStandardError: true)
    return (r.status, r.stdout)
}

/// Data handed from the reader thread to the caller.
private final class Drained: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()
    func set(_ d: Data) {
        data = d
        done.signal()
    }
    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Generates a synthetic study export into `folder` with `Tools/batch/make_export.py` (and its manifest
/// beside it, `folder.manifest.json`); the script's status and merged output.
public func generateStudyExport(at folder: String, records: Int, seed: Int, extra: [String] = []) throws
    -> (status: Int32, output: String)
{
    let script = repositoryPath("Tools/batch/make_export.py")
    let arguments = ["python3", script, folder, "--records", String(records), "--seed", String(seed)] + extra
    let r = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments, mergeStandardError: true)
    return (r.status, r.stdout)
}
