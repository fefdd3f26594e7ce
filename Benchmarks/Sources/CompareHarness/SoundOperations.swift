// Sound level metering of one file through the library entry point the CLI uses, timed in process (file
// reading included, as in the scipy and python-acoustics references of Tools/peers/sound.py):
//
//   sound  --input PATH      SoundLevelAnalyzer.analyze(path:) → one measurement, check = LAeq (dBFS);
//                            also prints the levels as "levels" for the script to compare.
import ActiveTasks
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

func soundOperations(_ arguments: Arguments) throws -> [Measurement] {
    let timing = try arguments.timing
    let path = try arguments.string("input")
    var last = try SoundLevelAnalyzer.analyze(path: path)
    var failure: (any Error)?
    var result = measure("sound/summary", options: timing) { calls in
        for _ in 0..<calls {
            do { last = try SoundLevelAnalyzer.analyze(path: path) } catch { failure = error }
        }
    }
    if let failure { throw failure }
    let ch = last.channels[0]
    result.check = ch.LAeq
    let levels: [String: Double?] = [
        "LAeq": ch.LAeq, "LCeq": ch.LCeq, "LZeq": ch.LZeq, "LAFmax": ch.LAFmax, "LASmax": ch.LASmax, "LAFmin": ch.LAFmin,
        "LCpeak": ch.LCpeak, "LA10": ch.LA10, "LA50": ch.LA50, "LA90": ch.LA90,
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    FileHandle.standardError.write(encoder.encodeIfPossible(levels).map { Data("levels ".utf8) + $0 + Data("\n".utf8) } ?? Data())
    return [result]
}

extension JSONEncoder {
    fileprivate func encodeIfPossible(_ value: [String: Double?]) -> Data? { try? encode(value) }
}
