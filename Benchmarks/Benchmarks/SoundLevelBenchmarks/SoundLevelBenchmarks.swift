// Sound level metering of a 60 s, 48 kHz mono PCM16 WAV (2.88 M samples): the full sound-level summary
// (`SoundLevelAnalyzer.analyze`: LAeq/LCeq/LZeq, LAFmax/LASmax/LAFmin, LCpeak, LA10/50/90 and the ResearchKit
// window series, file reading included), the same measurement from samples already in memory
// (`SoundLevelMeter`), and the complete audio summary (`AudioFileAnalyzer.summarize`: levels + Welch spectrum
// + sound levels in one pass). The file (uniform noise, 0.1 FS, plus a 1 kHz tone of 0.05 FS) is written once
// in the suite's setup.
import ActiveTasks
import Benchmark
import BenchmarkSupport
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs

let sampleRate = 48_000
let frames = 60 * sampleRate

nonisolated(unsafe) var directory: TemporaryDirectory?
nonisolated(unsafe) var samples: [Double] = []

func wavPath() -> String {
    guard let directory else { fatalError("SoundLevelBenchmarks: the suite setup did not run") }
    return directory.file("noise-tone-60s-48k-mono-pcm16.wav")
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.setup = {
        let dir = try TemporaryDirectory(prefix: "taskproc-sound-bench")
        directory = dir
        var noise = NoiseSource()
        let tone = TestSignal.sine(frequency: 1000, amplitude: 0.05).samples(count: frames, sampleRate: Double(sampleRate))
        let x: [Double] = zip(noise.samples(frames, amplitude: 0.1, as: Double.self), tone).map { $0 + $1 }
        try AudioFileWriter.write([x], sampleRate: sampleRate, to: wavPath(), format: .wav16)
        samples = try SoundFile.read(path: wavPath(), as: Double.self).channels[0]
    }
    Benchmark.teardown = {
        directory?.remove()
        directory = nil
        samples = []
    }

    let configuration = Suite.configuration(maxDuration: .seconds(3), maxIterations: 1_000)

    Benchmark("SoundLevelAnalyzer.analyze_WAV16_60s_48k_mono", configuration: configuration) { benchmark in
        let path = wavPath()
        for _ in benchmark.scaledIterations {
            blackHole(try SoundLevelAnalyzer.analyze(path: path).channels[0].LAeq)
        }
    }

    Benchmark("SoundLevelMeter_in_memory_60s_48k", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let meter = try SoundLevelMeter(sampleRate: Double(sampleRate))
            samples.withUnsafeBufferPointer { meter.add($0.span) }
            blackHole(meter.finish().meanSquareA)
        }
    }

    Benchmark("AudioFileAnalyzer.summarize_WAV16_60s_48k_mono", configuration: configuration) { benchmark in
        let path = wavPath()
        for _ in benchmark.scaledIterations {
            blackHole(try AudioFileAnalyzer.summarize(path: path).soundLevel?.channels[0].LAeq)
        }
    }
}
