import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// `analyze` options for audio recordings and SPL-meter results.
struct SoundLevelOptions: ParsableArguments {
    @Option(help: "Analyse only this channel (0-based; ResearchKit's meter uses channel 0). Default: every channel.")
    var channel: Int?

    // `.unconditional`: the offset is usually negative (`--sensitivity-offset -23.3`), which would otherwise be
    // read as an unknown flag.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Calibrate to dB SPL: ResearchKit's sensitivity offset in dB (the dBFS reading of 94 dB SPL), or a device "
                + "name from its table: iPhone (-23.3), iPad (-29.3), iPod touch (-23.3).",
            valueName: "dB|device"))
    var sensitivityOffset: String?

    @Option(help: "Calibrate to dB SPL from a recording of an acoustic calibrator (same microphone and gain).")
    var calibrationFile: String?

    @Option(help: "The calibrator's level, dB SPL (94 or 114).")
    var calibrationLevel: Double?

    @Option(help: "ResearchKit window series: sampling interval, s (each window averages floor(10 * interval) 100-ms buffers).")
    var samplingInterval = 1.0

    @Option(help: "Pass threshold for the window series / SPL-meter results, dB(A) SPL (default 35, or the step's).")
    var threshold: Double?

    @Option(help: "Consecutive windows below the threshold needed to pass (default 5, or the step's).")
    var requiredContiguous: Int?

    @Flag(help: "Also report Z-weighted third-octave band levels (IEC 61260-1 bands from 25 Hz; slower).")
    var thirdOctaves = false

    func validate() throws {
        if let channel, channel < 0 { throw ValidationError("--channel must be 0 or more, got \(channel)") }
        if let text = sensitivityOffset, SoundCalibration.parse(text) == nil {
            let names = SoundCalibration.researchKitDevices.map(\.name).joined(separator: ", ")
            throw ValidationError("--sensitivity-offset must be a number of dB or one of \(names), got \(text)")
        }
        if sensitivityOffset != nil && calibrationFile != nil {
            throw ValidationError("give either --sensitivity-offset or --calibration-file, not both")
        }
        if (calibrationFile == nil) != (calibrationLevel == nil) {
            throw ValidationError("--calibration-file and --calibration-level go together (e.g. --calibration-level 94)")
        }
        if let level = calibrationLevel, !(level.isFinite && level > 0 && level < 200) {
            throw ValidationError("--calibration-level must be a level in dB SPL such as 94 or 114, got \(level)")
        }
        guard samplingInterval.isFinite, samplingInterval >= 0.1, samplingInterval <= 3600 else {
            throw ValidationError("--sampling-interval must be in [0.1, 3600] s, got \(samplingInterval)")
        }
        if let threshold, !threshold.isFinite { throw ValidationError("--threshold must be a finite level in dB") }
        if let requiredContiguous, requiredContiguous < 1 {
            throw ValidationError("--required-contiguous must be at least 1, got \(requiredContiguous)")
        }
    }

    /// The threshold rule given on the command line, if any part of it was.
    var rule: SPLThresholdRule? {
        guard threshold != nil || requiredContiguous != nil else { return nil }
        let defaults = SPLThresholdRule()
        return SPLThresholdRule(
            threshold: threshold ?? defaults.threshold,
            requiredContiguousSamples: requiredContiguous ?? defaults.requiredContiguousSamples)
    }

    /// Library options (measuring the calibrator recording, if one was given).
    func analysisOptions(blockFrames: Int, acceptTruncated: Bool) throws -> SoundLevelAnalysisOptions {
        var options = SoundLevelAnalysisOptions()
        options.channel = channel
        options.samplingInterval = samplingInterval
        options.rule = rule ?? SPLThresholdRule()
        options.blockFrames = blockFrames
        options.acceptTruncated = acceptTruncated
        if let text = sensitivityOffset { options.calibration = SoundCalibration.parse(text) }
        if let file = calibrationFile, let level = calibrationLevel {
            var calibratorOptions = options
            calibratorOptions.acceptTruncated = false
            options.calibration = try SoundLevelAnalyzer.calibration(fromCalibrator: file, level: level, options: calibratorOptions)
        }
        options.thirdOctaveBands = thirdOctaves
        return options
    }
}
