import ActiveTasks
import ArgumentParser
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

extension AudioFileFormat: ExpressibleByArgument {}

/// `taskproc synth OUT`: write a synthetic test recording (calibration tones, noise, silence).
struct Synth: AsyncParsableCommand {
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case sine, noise, silence
    }

    static let configuration = CommandConfiguration(
        abstract: "Write a synthetic audio file with known properties (test and calibration signals).",
        discussion: """
            The container follows the file's extension (\(Synth.extensionList)), 16-bit PCM (Vorbis for .ogg) \
            unless --file-format names another encoding of the same container. \
            Example: taskproc synth tone.wav --signal sine --frequency 1000 --amplitude 0.5 --duration 10

            \(ExitStatus.help)
            """)

    @Argument(help: ArgumentHelp("Output audio file (or give -o/--output).", valueName: "output"), completion: .file())
    var outputArgument: String?

    @Option(name: .shortAndLong, help: "Output audio file (instead of the positional argument).", completion: .file())
    var output: String?

    @Option(help: "Signal: sine, noise (Gaussian white, seeded) or silence.")
    var signal: Kind = .sine

    @Option(help: "Sine frequency, Hz.")
    var frequency = 1000.0

    @Option(help: "Sine peak amplitude or noise RMS, full-scale units, 0-1.")
    var amplitude = 0.5

    @Option(help: "Duration, seconds.")
    var duration = 1.0

    @Option(help: "Sampling rate, Hz.")
    var sampleRate = 48_000

    @Option(help: "Channels (tones are identical on every channel; noise channels are independent).")
    var channels = 1

    @Option(help: "Container and encoding (default: from the output file's extension; must agree with it).")
    var fileFormat: AudioFileFormat?

    @Option(help: "Seed for noise.")
    var seed: UInt64 = 1

    @Flag(help: "Overwrite the output file if it exists.")
    var force = false

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    /// The output file, from the positional argument or `-o/--output`.
    var outputPath: String { output ?? outputArgument ?? "" }

    /// The known extensions, for help and error texts: `.wav, .flac, …`.
    static var extensionList: String {
        var seen: [String] = []
        for ext in AudioFileFormat.allCases.flatMap(\.fileExtensions) where !seen.contains(ext) { seen.append(ext) }
        return seen.map { "." + $0 }.joined(separator: ", ")
    }

    /// The format to write: `--file-format`, or the default of the output's extension; a usage error when they
    /// disagree or neither names a container.
    func resolvedFormat() throws -> AudioFileFormat {
        let ext = URL(fileURLWithPath: outputPath).pathExtension
        let byExtension = AudioFileFormat.defaultFormat(forExtension: ext)
        switch (fileFormat, byExtension) {
        case (let named?, let implied?):
            guard named.fileExtensions.contains(ext.lowercased()) else {
                throw ValidationError(
                    "--file-format \(named.rawValue) writes \(named.fileExtensions.map { "." + $0 }.joined(separator: "/")) "
                        + "files, but the output ends in .\(ext) (\(implied.rawValue)); change one of them")
            }
            return named
        case (let named?, nil): return named
        case (nil, let implied?): return implied
        case (nil, nil):
            throw ValidationError(
                "cannot tell the container from \"\(outputPath)\": end it in one of \(Self.extensionList), or give --file-format"
            )
        }
    }

    func validate() throws {
        switch (outputArgument, output) {
        case (nil, nil): throw ValidationError("give the output file (as an argument or with -o/--output)")
        case (.some, .some):
            throw ValidationError("give the output file once: as an argument or with -o/--output, not both")
        default: break
        }
        _ = try resolvedFormat()
        guard duration > 0, duration <= AudioLimits.maximumSynthDuration else {
            throw ValidationError(
                "--duration: \(duration) s out of range ((0, \(Int(AudioLimits.maximumSynthDuration))] s)")
        }
        guard (AudioLimits.minimumSampleRate...AudioLimits.maximumSampleRate).contains(sampleRate) else {
            throw ValidationError(
                "--sample-rate: \(sampleRate) Hz out of range (\(AudioLimits.minimumSampleRate)…\(AudioLimits.maximumSampleRate) Hz)"
            )
        }
        guard (1...AudioLimits.maximumChannels).contains(channels) else {
            throw ValidationError("--channels: \(channels) out of range (1…\(AudioLimits.maximumChannels))")
        }
        guard frequency > 0, frequency < Double(sampleRate) / 2 else {
            throw ValidationError("--frequency must be in (0, \(sampleRate / 2)) Hz (below Nyquist), got \(frequency)")
        }
        guard amplitude >= 0, amplitude <= 1 else {
            throw ValidationError("--amplitude must be in [0, 1], got \(amplitude)")
        }
    }

    func run() async throws {
        let output = outputPath
        let format = try resolvedFormat()
        // Bounded by validate(): duration ≤ 86 400 s and rate ≤ 768 000 Hz, so frames < 2^37.
        let frames = Int((duration * Double(sampleRate)).rounded())
        let spec: TestSignal =
            switch signal {
            case .sine: .sine(frequency: frequency, amplitude: amplitude)
            case .noise: .whiteNoise(rms: amplitude, seed: seed)
            case .silence: .silence
            }
        // Noise gets an independent seed per channel; tones and silence are identical on every channel.
        var generators: [TestSignal.Generator] = (0..<channels).map { c in
            if case .noise = signal {
                return TestSignal.Generator(
                    .whiteNoise(rms: amplitude, seed: seed &+ UInt64(c)), sampleRate: Double(sampleRate))
            }
            return TestSignal.Generator(spec, sampleRate: Double(sampleRate))
        }
        let target = OutputTarget(path: output)
        if !force && target.exists {
            throw CommandFailure.cannotCreate("\(output) exists; pass --force to overwrite it")
        }
        if target.isDirectory { throw CommandFailure.cannotCreate("\(output): is a folder; name a file") }
        // A regular file is written beside the target and renamed over it, so a failure leaves nothing behind; an
        // existing device or FIFO (with --force) is written in place.
        let writePath = target.isSpecial ? output : target.temporarySibling()
        do {
            try AudioFileWriter.write(
                frames: frames, channelCount: channels, sampleRate: sampleRate, to: writePath, format: format,
                overwrite: target.isSpecial, as: Double.self
            ) { channel, _, buffer in
                generators[channel].next(into: &buffer)
            }
            if !target.isSpecial { try target.replace(with: writePath) }
            Diagnostics.detail(
                "taskproc synth: \(output): \(signal.rawValue), \(format.rawValue), \(frames) frames at \(sampleRate) Hz, "
                    + "\(channels) channel(s)")
        } catch let error as SoundFileError {
            if !target.isSpecial { try? FileManager.default.removeItem(atPath: writePath) }
            if case .writeFailed(_, let reason) = error {
                throw CommandFailure.cannotCreate("\(output): cannot write audio file: \(reason)")
            }
            throw CommandFailure.cannotCreate("\(error)")
        } catch {
            if !target.isSpecial { try? FileManager.default.removeItem(atPath: writePath) }
            throw error
        }
    }
}
