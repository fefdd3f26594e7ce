import ActiveTasks
import ArgumentParser
import Foundation
import StudyBatch
import StudyInputs
import StudyOutputs

extension ResearchKitVersion: ExpressibleByArgument {
    /// Parses `current` or a release of a known dB HL series (`3.1`, `2.2.4`); nil for any other version, whose
    /// calibration tables taskproc does not know.
    public init?(argument: String) {
        guard let version = ResearchKitVersion(argument), version.isKnownDBHLRelease else { return nil }
        self = version
    }

    /// `current` and the known series, for `--help` and the error that lists them.
    public static var allValueStrings: [String] {
        ["current"] + knownDBHLSeries.map { "\($0.major).\($0.minor)" }
    }

    /// `current` for the newest release, else `major.minor.patch`.
    public var defaultValueDescription: String { self == .current ? "current" : description }
}

/// `--researchkit-version`, declared once for every command that reads or simulates dB HL tests (`analyze`,
/// `batch`, `audiometry simulate`).
struct ResearchKitVersionOption: ParsableArguments {
    @Option(
        name: .customLong("researchkit-version"),
        help: """
            ResearchKit release of the dB HL tests (calibration tables and volume handling; current = 3.2.0). \
            Before 3.2 the RETSPL is generic; from 3.1 the volume defect applies.
            """)
    var value: ResearchKitVersion = .current
}

/// `analyze` options for tone-audiometry results.
struct AudiometryOptions: ParsableArguments {
    @OptionGroup var version: ResearchKitVersionOption

    /// The ResearchKit release (`--researchkit-version`).
    var researchKitVersion: ResearchKitVersion { version.value }

    @Option(help: "Write a standard audiogram (SVG) of each dB HL test to this file (-2, -3, ... before the extension for further tests).", completion: .file(extensions: ["svg"]))
    var plot: String?

    /// The library options.
    var analysisOptions: AudiometryAnalysisOptions {
        var o = AudiometryAnalysisOptions()
        o.researchKitVersion = researchKitVersion
        return o
    }
}

extension Analyze {
    /// Writes `--plot`: one audiogram (SVG) per dB HL test among `results`.
    func plotAudiograms(_ results: [AnalysedResult]) throws {
        guard let plot = audiometry.plot else { return }
        let tests = results.compactMap { ($0.result as? AudiometryResult)?.dBHL }
        guard !tests.isEmpty else {
            throw CommandFailure.data("--plot: \(file) has no dB HL results (legacy amplitudes are dBFS, not dB HL)")
        }
        for (k, test) in tests.enumerated() {
            try OutputWriter.write(AudiogramSVG.render(test), to: Self.plotPath(plot, index: k), force: out.force)
        }
    }

    /// The file name of the `index`-th audiogram: `plot.svg`, then `plot-2.svg`, `plot-3.svg`, ….
    static func plotPath(_ path: String, index: Int) -> String {
        guard index > 0 else { return path }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().path
        return base + "-\(index + 1)" + (ext.isEmpty ? "" : "." + ext)
    }
}
