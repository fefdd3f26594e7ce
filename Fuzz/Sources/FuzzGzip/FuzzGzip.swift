// gzip (Archives.FileBytes): in-memory inflation under a limit, multi-member streams, truncation and CRC; then
// the bytes as a gzipped input (`.csv.gz`, `.json.gz`) through the loader.
import Archives
import Foundation
import FuzzSupport

let names = ["data.csv.gz", "result.json.gz", "accel_walking_outbound.json.items.gz", "walk.tsv.gz"]

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    let mode = input.byte()
    let rest = input.rest()
    if mode < 128 {
        let data = Data(rest)
        _ = FileBytes.isGzip(data)
        _ = try? FileBytes.gunzip(data, path: "fuzz.gz", limit: 1 << 20)
    } else {
        withFuzzFile(rest, named: names[Int(mode) % names.count]) { path in
            _ = try? FileBytes.read(path: path, limit: 1 << 20)
            loadAnalyzeAndRender(path, format: mode / UInt8(names.count))
        }
    }
    return 0
}
