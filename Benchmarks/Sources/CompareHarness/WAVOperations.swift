// WAV decoding through SoundFile: whole-file reads into new per-channel arrays (the peer is
// libsndfile's open + sf_readf_* into a fresh buffer + close), and streaming in fixed blocks into
// reused buffers (the peer is the same loop over one reused buffer).
import SensorSignal

func wavOperations(_ arguments: Arguments) throws -> [Measurement] {
    let timing = try arguments.timing
    let block = try arguments.int("block", default: 65_536)
    var results: [Measurement] = []
    for (layout, path) in [("mono", try arguments.string("mono")), ("stereo", try arguments.string("stereo"))] {
        results.append(try timeRead(path, as: Float.self, op: "wav/\(layout)/read/f32", timing: timing))
        results.append(try timeRead(path, as: Double.self, op: "wav/\(layout)/read/f64", timing: timing))
        results.append(
            try timeStream(path, as: Float.self, block: block, op: "wav/\(layout)/stream/f32", timing: timing))
    }
    return results
}

/// Σ|x| over every sample of every channel: the same on every side if all decoded the same data.
private func absoluteSum<Sample: AudioSample>(_ channels: [[Sample]]) -> Double {
    channels.reduce(0.0) { total, channel in channel.reduce(total) { $0 + Double(abs($1)) } }
}

private func timeRead<Sample: AudioSample>(
    _ path: String, as: Sample.Type, op: String, timing: TimingOptions
) throws -> Measurement {
    var failure: (any Error)?
    var result = measure(op, options: timing) { calls in
        for _ in 0..<calls {
            do {
                let signal = try SoundFile.read(path: path, as: Sample.self)
                if signal.channels[0].isEmpty { failure = HarnessError.input("\(path) decoded to no frames") }
            } catch {
                failure = error
            }
        }
    }
    if let failure { throw failure }
    result.check = absoluteSum(try SoundFile.read(path: path, as: Sample.self).channels)
    return result
}

private func timeStream<Sample: AudioSample>(
    _ path: String, as: Sample.Type, block: Int, op: String, timing: TimingOptions
) throws -> Measurement {
    var failure: (any Error)?
    var check = 0.0
    var result = measure(op, options: timing) { calls in
        for _ in 0..<calls {
            do {
                let file = try SoundFile(path: path)
                var frames = 0
                try file.forEachBlock(frames: block, as: Sample.self) { block in frames += block.frameCount }
                if frames != file.info.frameCount { failure = HarnessError.input("\(path): streamed \(frames) frames") }
            } catch {
                failure = error
            }
        }
    }
    if let failure { throw failure }
    try SoundFile(path: path).forEachBlock(frames: block, as: Sample.self) { block in
        check += absoluteSum(block.channels.map { Array($0[0..<block.frameCount]) })
    }
    result.check = check
    return result
}
