// Decoding 60 s, 48 kHz PCM16 WAV files (mono and stereo) through taskproc's SoundFile (libsndfile):
// whole-file `SoundFile.read` into per-channel arrays, and constant-memory `forEachBlock` streaming.
// The files are written once, in the suite's setup, into a private temporary directory.
import Benchmark
import BenchmarkSupport
import SensorSignal

let sampleRate = 48_000
let seconds = 60
let frames = sampleRate * seconds

/// Paths of the generated files, created by the suite-wide setup hook.
nonisolated(unsafe) var directory: TemporaryDirectory?

func wavPath(channels: Int) -> String {
    guard let directory else { fatalError("AudioIOBenchmarks: the suite setup did not run") }
    return directory.file("noise-\(seconds)s-48k-\(channels)ch-pcm16.wav")
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.setup = {
        let dir = try TemporaryDirectory(prefix: "taskproc-audio-bench")
        directory = dir
        var noise = NoiseSource()
        for channels in [1, 2] {
            let signal: [[Float]] = (0..<channels).map { _ in noise.samples(frames, amplitude: 0.5) }
            try AudioFileWriter.write(signal, sampleRate: sampleRate, to: wavPath(channels: channels), format: .wav16)
        }
    }
    Benchmark.teardown = {
        directory?.remove()
        directory = nil
    }

    for channels in [1, 2] {
        registerRead(Float.self, channels: channels)
        registerRead(Double.self, channels: channels)
        registerStream(Float.self, channels: channels)
    }
}

private func label(_ channels: Int) -> String { channels == 1 ? "mono" : "stereo" }

private func registerRead<Sample: AudioSample>(_: Sample.Type, channels: Int) {
    Benchmark(
        "SoundFile.read_WAV16_60s_48k_\(label(channels))_as_\(Sample.self)",
        configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark in
        let path = wavPath(channels: channels)
        for _ in benchmark.scaledIterations {
            let signal = try SoundFile.read(path: path, as: Sample.self)
            blackHole(signal.channels[0][frames / 2])
        }
    }
}

private func registerStream<Sample: AudioSample>(_: Sample.Type, channels: Int) {
    Benchmark(
        "SoundFile.forEachBlock(65536)_WAV16_60s_48k_\(label(channels))_as_\(Sample.self)",
        configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 1_000)
    ) { benchmark in
        let path = wavPath(channels: channels)
        for _ in benchmark.scaledIterations {
            let file = try SoundFile(path: path)
            var last: Sample = 0
            try file.forEachBlock(frames: 65_536, as: Sample.self) { block in
                last = block.channels[0][block.frameCount - 1]
            }
            blackHole(last)
        }
    }
}
