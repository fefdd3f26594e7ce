import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

/// Which simulated participant answers the tones.
enum ListenerKind: String, ExpressibleByArgument, CaseIterable {
    /// Hears iff level ≥ threshold; never taps early.
    case deterministic
    /// Logistic psychometric function with false alarms, seeded.
    case psychometric
}

extension Ear: ExpressibleByArgument {}

/// `taskproc audiometry simulate AUDIOGRAMS.json`: ResearchKit's dB HL step run offline on true audiograms.
struct AudiometrySimulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate ResearchKit's dB HL tone audiometry step on true audiograms.",
        discussion: """
            AUDIOGRAMS is a JSON array of objects (or one object) mapping frequency in Hz, as a string, to the true \
            threshold in dB HL; null means no response at any level, e.g. [{"250": 10, "500": 15, "1000": 20, \
            "2000": 25, "3000": 30, "4000": 40, "8000": null}]. Every frequency of --frequencies must be present. \
            Writes one ORKdBHLToneAudiometryResult JSON per audiogram (as ResearchKit's serializer does): one per \
            line on standard output, or to --output (a file for one audiogram; a directory of \
            audiogram-001.json, ... otherwise). A summary line per audiogram (presentations, test duration) goes to \
            standard error.
            """)

    @Argument(help: "JSON file of true audiograms.", completion: .file(extensions: ["json"]))
    var audiograms: String

    @Option(help: "Frequencies to test, Hz, comma-separated, in order (default: ResearchKit's 1000,2000,3000,4000,8000,1000,500,250).")
    var frequencies: String?

    @Option(help: "Starting level, dB HL.") var initialLevel = 30.0
    @Option(help: "Level decrease after a hit, dB.") var stepDown = 10.0
    @Option(help: "Level increase after a miss once the miss list is done, dB.") var stepUp = 5.0
    @Option(help: "Increases after the first, second and third miss, dB, comma-separated.") var missSteps = "20,10,10"
    @Option(help: "Lowest level presented (floor), dB HL.") var floor = -10.0
    @Option(help: "Maximum presentations per frequency.") var maxPresentations = 20
    @Option(help: "Tone duration, s (>= 1).") var toneDuration = 1.0
    @Option(help: "Upper bound of the random pre-stimulus delay, s.") var maxRandomPreStimulusDelay = 2.0
    @Option(help: "Response window after the tone, s.") var postStimulusDelay = 1.0
    @Option(help: "Ear tested: right (channel 1) or left (channel 0).") var ear: Ear = .right
    @Option(help: "Step identifier written (default dBHL1.tone.audiometry for right, dBHL2.tone.audiometry for left).")
    var identifier: String?

    @Option(help: "Headphone type (AIRPODSV1, AIRPODSV2, AIRPODSV3, AIRPODSPRO, AIRPODSPROV2, AIRPODSMAX, EARPODS); decides clipping.")
    var headphoneType = "AIRPODSV1"
    @Flag(help: "Ideal transducer: never refuse a tone as clipping.") var noClipping = false
    @OptionGroup var version: ResearchKitVersionOption

    /// The ResearchKit release whose calibration and volume handling are emulated (`--researchkit-version`).
    var researchKitVersion: ResearchKitVersion { version.value }
    @Option(help: "System output volume 0-1; below 1 the volume defect (ResearchKit >= 3.1) makes tones softer than nominal.")
    var outputVolume = 1.0

    @Option(help: "Listener: deterministic (hears iff level >= threshold) or psychometric (default: psychometric when --slope or --false-alarm-rate is given).")
    var listener: ListenerKind?
    @Option(help: "Psychometric slope, 1/dB: P(heard) = 1/(1+exp(-slope * (level - threshold))) [0.5].") var slope: Double?
    @Option(help: "Psychometric listener: probability of a tap before tone onset per presentation [0].")
    var falseAlarmRate: Double?
    @Option(help: "Seed of the simulation (listener and timing); audiogram k uses seed + k.") var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "Write to this file (one audiogram) or directory instead of standard output (never overwrites; see --force).")
    var output: String?
    @Flag(help: "Overwrite existing output files.") var force = false

    @OptionGroup(title: "Diagnostics")
    var diagnostics: VerbosityOptions

    func validate() throws {
        _ = try parameters()
        guard outputVolume.isFinite, (0...1).contains(outputVolume) else {
            throw ValidationError("--output-volume must be in 0…1, got \(outputVolume)")
        }
        if let slope, !(slope > 0 && slope.isFinite) { throw ValidationError("--slope must be positive, got \(slope)") }
        if let falseAlarmRate, !(0...1).contains(falseAlarmRate) {
            throw ValidationError("--false-alarm-rate must be in 0…1, got \(falseAlarmRate)")
        }
        if listener == .deterministic, slope != nil || falseAlarmRate != nil {
            throw ValidationError("--slope and --false-alarm-rate apply to the psychometric listener only")
        }
    }

    /// Parses a comma-separated list of numbers.
    static func numbers(_ text: String, option: String) throws -> [Double] {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let values = parts.compactMap(Double.init)
        guard !parts.isEmpty, values.count == parts.count, values.allSatisfy(\.isFinite) else {
            throw ValidationError("\(option): expected comma-separated numbers, got \"\(text)\"")
        }
        return values
    }

    /// The staircase parameters from the options.
    func parameters() throws -> DBHLStaircaseParameters {
        var p = DBHLStaircaseParameters()
        if let frequencies { p.frequencies = try Self.numbers(frequencies, option: "--frequencies") }
        p.initialLevel = initialLevel
        p.stepDown = stepDown
        p.stepUp = stepUp
        p.missSteps = try Self.numbers(missSteps, option: "--miss-steps")
        p.floor = floor
        p.maxPresentationsPerFrequency = maxPresentations
        p.toneDuration = toneDuration
        p.maxRandomPreStimulusDelay = maxRandomPreStimulusDelay
        p.postStimulusDelay = postStimulusDelay
        p.channel = ear == .left ? .left : .right
        if let problem = p.problem { throw ValidationError("invalid staircase parameters: \(problem)") }
        return p
    }

    /// Reads the audiograms file.
    static func readAudiograms(_ path: String) throws -> [TrueAudiogram] {
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.noInput(path) }
        if OutputTarget(path: path).isDirectory {
            throw CommandFailure.data("\(path): is a folder; expected a JSON file of audiograms")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw CommandFailure.io("\(path): cannot read: \(OutputWriter.reason(error))")
        }
        let root: JSONValue
        do { root = try JSONParser.parse(data, file: path) } catch {
            throw CommandFailure.data("\(path): not valid JSON: \(InputProblem(error).message)")
        }
        let objects: [JSONValue]
        switch root {
        case .array(let a): objects = a
        case .object: objects = [root]
        default: throw CommandFailure.data("\(path): expected an array of audiogram objects (frequency in Hz → dB HL)")
        }
        guard !objects.isEmpty else { throw CommandFailure.data("\(path): the audiogram list is empty") }
        return try objects.enumerated().map { k, item in
            guard let o = item.objectValue else {
                throw CommandFailure.data("\(path): audiogram \(k + 1): expected an object mapping frequency (Hz) to dB HL, found \(item.summary)")
            }
            var thresholds: [Double: Double?] = [:]
            for (key, value) in o.entries {
                guard let f = Double(key.trimmingCharacters(in: .whitespaces)), f > 0, f.isFinite else {
                    throw CommandFailure.data("\(path): audiogram \(k + 1): key \"\(key)\" is not a frequency in Hz")
                }
                switch value {
                case .null: thresholds[f] = .some(nil)
                case .number(let n) where n.isFinite: thresholds[f] = .some(n)
                default:
                    throw CommandFailure.data(
                        "\(path): audiogram \(k + 1) at \"\(key)\" Hz: expected a threshold in dB HL or null, found \(value.summary)")
                }
            }
            return TrueAudiogram(thresholds: thresholds)
        }
    }

    func run() throws {
        let p = try parameters()
        let audiograms = try Self.readAudiograms(self.audiograms)
        for (k, a) in audiograms.enumerated() {
            let missing = Set(p.frequencies).filter { a.threshold(at: $0) == nil }.sorted()
            guard missing.isEmpty else {
                throw CommandFailure.data(
                    "\(self.audiograms): audiogram \(k + 1) has no threshold for "
                        + missing.map { ResultEncoding.number($0) + " Hz" }.joined(separator: ", ")
                        + " (use null for no response)")
            }
        }
        var options = DBHLSimulationOptions()
        options.parameters = p
        options.headphoneType = headphoneType
        options.clipping = !noClipping
        options.researchKitVersion = researchKitVersion
        options.outputVolume = outputVolume
        options.identifier = identifier ?? (ear == .left ? "dBHL2.tone.audiometry" : "dBHL1.tone.audiometry")
        let psychometric = listener == .psychometric || (listener == nil && (slope != nil || falseAlarmRate != nil))

        var texts: [String] = []
        for (k, audiogram) in audiograms.enumerated() {
            let s = seed &+ UInt64(k)
            options.timingSeed = s ^ 0x5DEE_CE66_D1CE_4E5B
            let simulation: DBHLToneAudiometrySimulator.Simulation
            do {
                if psychometric {
                    var l = PsychometricListener(
                        audiogram: audiogram, slope: slope ?? 0.5, falseAlarmRate: falseAlarmRate ?? 0, seed: s)
                    simulation = try DBHLToneAudiometrySimulator.simulate(listener: &l, options: options)
                } else {
                    var l = DeterministicListener(audiogram: audiogram)
                    simulation = try DBHLToneAudiometrySimulator.simulate(listener: &l, options: options)
                }
            } catch {
                throw CommandFailure.data("audiogram \(k + 1): \(error.description)")
            }
            texts.append(DBHLResultWriter.json(simulation.result))
            let found = simulation.result.samples.filter { $0.calculatedThreshold != nil }.count
            Diagnostics.note(
                String(
                    format: "audiogram %d: %d presentations, %d of %d thresholds, %.1f s (%d min %02d s)", k + 1,
                    simulation.presentations, found, simulation.result.samples.count, simulation.duration,
                    Int(simulation.duration.rounded(.down)) / 60, Int(simulation.duration.rounded(.down)) % 60))
        }
        try write(texts)
    }

    func write(_ texts: [String]) throws {
        guard let output else {
            try OutputWriter.write(texts.map { $0 + "\n" }.joined(), to: nil, force: false)
            return
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory)
        if texts.count == 1 && !output.hasSuffix("/") && !(exists && isDirectory.boolValue) {
            try OutputWriter.write(texts[0] + "\n", to: output, force: force)
            return
        }
        do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw CommandFailure.cannotCreate("\(output): cannot create the folder: \(OutputWriter.reason(error))")
        }
        for (k, text) in texts.enumerated() {
            let path = URL(fileURLWithPath: output).appendingPathComponent(String(format: "audiogram-%03d.json", k + 1)).path
            try OutputWriter.write(text + "\n", to: path, force: force)
        }
    }
}
