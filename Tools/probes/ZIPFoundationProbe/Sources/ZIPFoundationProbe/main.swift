import Foundation
import ZIPFoundation

// What ZIPFoundation does with three small hostile archives that taskproc's batch must survive.
// `swift run` prints one line per archive and exits 0 when ZIPFoundation handled all three, 1 otherwise.

/// A stored (or, with `method` 8, raw) entry of a hand-written archive.
struct Item {
    var name: String
    var data: Data
    var flags = 0
    var method = 0
    var size: Int?
    var offset: UInt32?
}

func archive(_ items: [Item]) -> Data {
    var body = Data()
    var central = Data()
    func u16(_ v: Int, _ d: inout Data) { d.append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]) }
    func u32(_ v: UInt32, _ d: inout Data) { for s in [0, 8, 16, 24] { d.append(UInt8(v >> UInt32(s) & 0xFF)) } }
    for item in items {
        let offset = item.offset ?? UInt32(body.count)
        let name = Data(item.name.utf8)
        let crc = item.method == 0 ? item.data.crc32(checksum: 0) : 0
        let size = UInt32(item.size ?? item.data.count)
        u32(0x0403_4B50, &body)
        u16(20, &body); u16(item.flags, &body); u16(item.method, &body); u16(0, &body); u16(0, &body)
        u32(crc, &body); u32(UInt32(item.data.count), &body); u32(size, &body); u16(name.count, &body); u16(0, &body)
        body.append(name)
        body.append(item.data)
        u32(0x0201_4B50, &central)
        u16(0x0314, &central); u16(20, &central); u16(item.flags, &central); u16(item.method, &central)
        u16(0, &central); u16(0, &central)
        u32(crc, &central); u32(UInt32(item.data.count), &central); u32(size, &central); u16(name.count, &central)
        for _ in 0..<4 { u16(0, &central) }
        u32(0o100644 << 16, &central); u32(offset, &central)
        central.append(name)
    }
    let centralOffset = UInt32(body.count)
    body.append(central)
    u32(0x0605_4B50, &body); u16(0, &body); u16(0, &body); u16(items.count, &body); u16(items.count, &body)
    u32(UInt32(central.count), &body); u32(centralOffset, &body); u16(0, &body)
    return body
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zipfoundation-probe-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
func write(_ name: String, _ items: [Item]) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try archive(items).write(to: url)
    return url
}
let one = Data("1\n".utf8), two = Data("2\n".utf8), three = Data("3\n".utf8)
var failures = 0

// 1. An encrypted entry between two plain ones: taskproc refuses the middle one and reads the third.
let encrypted = try write(
    "encrypted-middle.zip",
    [Item(name: "first.csv", data: one), Item(name: "secret.csv", data: two, flags: 1), Item(name: "third.csv", data: three)])
let listed1 = try Archive(url: encrypted, accessMode: .read).map(\.path)
print("encrypted-middle.zip: the central directory lists 3 entries; ZIPFoundation's iteration yields \(listed1.count) \(listed1), no error")
if listed1.count != 3 { failures += 1 }

// 2. The first entry's local-header offset points past the end of the file: taskproc refuses it, reads the rest.
let badOffset = try write(
    "bad-offset-first.zip",
    [Item(name: "first.csv", data: one, offset: 0xFF_FF00), Item(name: "second.csv", data: two), Item(name: "third.csv", data: three)])
let listed2 = try Archive(url: badOffset, accessMode: .read).map(\.path)
print("bad-offset-first.zip: the central directory lists 3 entries; ZIPFoundation's iteration yields \(listed2.count) \(listed2), no error")
if listed2.count != 3 { failures += 1 }

// 3. A deflate entry whose stream runs past the end of the file (a non-final stored block claiming 65 535 bytes):
//    taskproc refuses it as truncated at once.
let runsPastEnd = try write(
    "runs-past-eof.zip", [Item(name: "a.csv", data: Data([0x00, 0xFF, 0xFF, 0x00, 0x00]) + Data("t,x\n".utf8), method: 8, size: 4)])
let start = Date()
let listingFailures = failures
let worker = Thread {
    do {
        let archive = try Archive(url: runsPastEnd, accessMode: .read)
        guard let entry = archive.makeIterator().next() else { return }
        _ = try archive.extract(entry, consumer: { _ in })
        print("runs-past-eof.zip: extract returned after \(Date().timeIntervalSince(start)) s")
    } catch {
        print("runs-past-eof.zip: extract threw \(error) after \(Date().timeIntervalSince(start)) s")
    }
    exit(listingFailures == 0 ? 0 : 1)
}
worker.start()
Thread.sleep(forTimeInterval: 10)
print("runs-past-eof.zip: extract(_:consumer:) has not returned after 10 s (it re-reads the end of the file in a loop); stopping")
exit(1)
