// ZIP archives (Archives.ZipArchive): the central directory, every entry's name, method, sizes and CRC, and
// extraction under small limits; then the same bytes as an input (`.zip`), extracted and analysed by the loader.
import Archives
import Foundation
import FuzzSupport

/// libFuzzer\'s entry point: one input, `count` bytes at `bytes`; returns 0 (every input is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzBytes(bytes, count)
    let mode = input.byte()
    var limits = ArchiveLimits()
    limits.maxEntries = 64
    limits.maxEntryBytes = 1 << 20
    limits.maxTotalBytes = 4 << 20
    withFuzzFile(input.rest(), named: "archive.zip") { path in
        if mode % 2 == 0 {
            _ = try? ZipArchive.entries(of: path, limits: limits)
            let destination = (fuzzRunFolder as NSString).appendingPathComponent("out")
            try? FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
            if let extraction = try? ZipArchive.extract(path, into: destination, limits: limits) {
                _ = extraction.rejected.map(\.reason)
            }
        } else {
            loadAnalyzeAndRender(path, format: mode / 2)
        }
    }
    return 0
}
