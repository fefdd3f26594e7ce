import ActiveTasks
import ArgumentParser
import Foundation

/// `analyze` options for tone-audiometry results.
struct AudiometryOptions: ParsableArguments {
    @Option(
        name: .customLong("researchkit-version"),
        help: """
            ResearchKit release that recorded dB HL results (calibration tables and volume handling): current (= 3.2.0), \
            3.1, 3.0, 2.2, 2.0, … Before 3.2 the RETSPL is generic; from 3.1 the volume defect applies.
            """)
    var researchKitVersion = "current"

    @Option(help: "Write a standard audiogram (SVG) of each dB HL test to this file (-2, -3, … before the extension for further tests).", completion: .file(extensions: ["svg"]))
    var plot: String?

    func validate() throws {
        guard let v = ResearchKitVersion(researchKitVersion) else {
            throw ValidationError("--researchkit-version: expected current or a version like 3.1 or 2.2.4, got \"\(researchKitVersion)\"")
        }
        guard v >= .firstDBHL else {
            throw ValidationError("--researchkit-version: ResearchKit \(v) has no dB HL task (it appeared in 2.0.0)")
        }
    }

    /// The library options.
    var analysisOptions: AudiometryAnalysisOptions {
        var o = AudiometryAnalysisOptions()
        o.researchKitVersion = ResearchKitVersion(researchKitVersion) ?? .current
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
