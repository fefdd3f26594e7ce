import Foundation

/// ResearchKit results archived with `NSKeyedArchiver` (as Sage's BridgeAppSDK stores them), turned into the JSON
/// that ResearchKit's serializer writes, so that ``ResearchKitDecoder`` reads them like any result file.
///
/// The archive's object graph (`$objects`, `$top.root`, `$class` → `$classname`) is resolved: `ORK…` objects become
/// `{"_class": …}` objects with their archived keys (ResearchKit archives each property under its own name, which is
/// also its serializer key); `NSArray`/`NSSet` become arrays, `NSDictionary` objects, `NSDate` a date in ResearchKit's
/// form (UTC: an archive carries no offset), `NSUUID` its text, `NSString`, `NSURL`, `NSCalendar` (its identifier),
/// `NSTimeZone` (seconds east of UTC at the date it qualifies), `NSDateComponents` a time of day `HH:mm`; `NSData`
/// and unknown classes are left out (`UIBezierPath` becomes `{"_class": "UIBezierPath"}`, so that a list of drawn
/// paths keeps its count). Two keys differ from the serializer's: `ORKFileResult.fileURL` (read as its
/// `fileName`) and `ORKTaskResult.outputDirectory` (dropped).
///
/// Bounded like ``BinaryPropertyList``: references are checked, cycles are errors, nesting and the total number of
/// objects resolved are limited.
enum KeyedArchive {
    /// Reads an archive into ResearchKit serializer JSON.
    /// - Throws: ``InputError`` naming the file: `.syntax` for a malformed property list, `.schema` for one that is
    ///   not an `NSKeyedArchiver` archive.
    static func researchKitJSON(_ data: Data, file: String) throws(InputError) -> JSONValue {
        let root = try BinaryPropertyList.parse(data, file: file)
        func fail(_ found: String) -> InputError {
            InputError(.schema, file: file, expected: "an NSKeyedArchiver archive of ResearchKit results", found: found)
        }
        guard case .string("NSKeyedArchiver")? = root["$archiver"] else { throw fail("a property list without $archiver") }
        guard case .array(let objects)? = root["$objects"] else { throw fail("an archive without $objects") }
        guard case .dictionary(let top)? = root["$top"], let first = top.first(where: { $0.key == "root" }) ?? top.first,
            case .uid(let start) = first.value
        else { throw fail("an archive without a $top root") }

        // One resolution per UID reference in the file at most (each takes a byte or more), as for the plist's own.
        var budget = data.count + objects.count
        var visiting = Set<Int>()

        func className(_ object: BinaryPropertyList.Value) -> String? {
            guard case .uid(let c)? = object["$class"], c >= 0, c < objects.count,
                case .string(let name)? = objects[c]["$classname"]
            else { return nil }
            return name
        }

        func convert(_ value: BinaryPropertyList.Value, depth: Int) throws(InputError) -> JSONValue? {
            switch value {
            case .uid(let index): return try resolve(index, depth: depth)
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .integer(let i): return .number(Double(i))
            case .real(let x): return x.isFinite ? .number(x) : nil
            case .date(let t): return date(t)
            case .string(let s): return .string(s)
            case .data: return nil
            case .array(let items):
                var out: [JSONValue] = []
                for item in items { if let v = try convert(item, depth: depth + 1) { out.append(v) } }
                return .array(out)
            case .dictionary(let entries):
                var out: [(key: String, value: JSONValue)] = []
                for (k, v) in entries { if let c = try convert(v, depth: depth + 1) { out.append((k, c)) } }
                return .object(JSONObject(out))
            }
        }

        func date(_ referenceSeconds: Double) -> JSONValue? {
            let unix = referenceSeconds + 978_307_200
            guard unix.isFinite, abs(unix) < 253_402_300_799 else { return nil }
            return .string(ResultDate(date: Date(timeIntervalSince1970: unix), utcOffset: 0).researchKitText)
        }

        func members(_ object: BinaryPropertyList.Value, _ key: String, depth: Int) throws(InputError) -> [JSONValue] {
            guard case .array(let refs)? = object[key] else { return [] }
            var out: [JSONValue] = []
            for r in refs { if let v = try convert(r, depth: depth + 1) { out.append(v) } }
            return out
        }

        func resolve(_ index: Int, depth: Int) throws(InputError) -> JSONValue? {
            guard index >= 0, index < objects.count else { throw fail("a reference to object \(index) of \(objects.count)") }
            budget -= 1
            guard budget >= 0, depth <= BinaryPropertyList.maximumDepth else {
                throw fail("an object graph too deep or too shared to read")
            }
            guard visiting.insert(index).inserted else { throw fail("a reference cycle at object \(index)") }
            defer { visiting.remove(index) }
            let object = objects[index]
            guard case .dictionary(let entries) = object else {
                if case .string("$null") = object { return .null }
                return try convert(object, depth: depth)
            }
            guard let name = className(object) else { return try convert(object, depth: depth) }
            switch name {
            case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
                return .array(try members(object, "NS.objects", depth: depth))
            case "NSDictionary", "NSMutableDictionary":
                let keys = try members(object, "NS.keys", depth: depth)
                let values = try members(object, "NS.objects", depth: depth)
                var out: [(key: String, value: JSONValue)] = []
                for (k, v) in zip(keys, values) { if case .string(let key) = k { out.append((key, v)) } }
                return .object(JSONObject(out))
            case "NSDate":
                switch object["NS.time"] {
                case .real(let t)?: return date(t)
                case .integer(let i)?: return date(Double(i))
                default: return nil
                }
            case "NSUUID":
                guard case .data(let b)? = object["NS.uuidbytes"], b.count == 16 else { return nil }
                let hex = b.map { String(format: "%02X", $0) }.joined()
                let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
                    String(hex.dropFirst(r.lowerBound).prefix(r.count))
                }
                return .string(parts.joined(separator: "-"))
            case "NSString", "NSMutableString":
                if let v = object["NS.string"] { return try convert(v, depth: depth) }
                if case .data(let b)? = object["NS.bytes"] { return .string(String(decoding: b, as: UTF8.self)) }
                return nil
            case "NSURL":
                return try object["NS.relative"].flatMap { v throws(InputError) in try convert(v, depth: depth) }
            case "NSCalendar":
                return try object["NS.identifier"].flatMap { v throws(InputError) in try convert(v, depth: depth) }
            case "NSTimeZone", "__NSTimeZone", "NSLocalTimeZone":
                return try object["NS.name"].flatMap { v throws(InputError) in try convert(v, depth: depth) }
            case "NSDateComponents":
                var hour: Int64?
                var minute: Int64?
                for (k, v) in entries {
                    if case .integer(let i) = v, k == "NS.hour" { hour = i }
                    if case .integer(let i) = v, k == "NS.minute" { minute = i }
                }
                guard let hour, let minute, (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
                return .string((hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute))
            case "NSNull":
                return .null
            case "UIBezierPath":
                // Kept as a placeholder so that an array of paths (ORKAmslerGridResult.path) keeps its count.
                return .object(JSONObject([("_class", .string(name))]))
            default:
                guard name.hasPrefix("ORK") else { return nil }
                var out: [(key: String, value: JSONValue)] = [("_class", .string(name))]
                for (k, v) in entries where k != "$class" {
                    guard let c = try convert(v, depth: depth + 1) else { continue }
                    switch (name, k) {
                    case ("ORKFileResult", "fileURL"):
                        if case .string(let url) = c { out.append(("fileName", .string((url as NSString).lastPathComponent))) }
                    case ("ORKTaskResult", "outputDirectory"):
                        continue
                    default:
                        out.append((k, c))
                    }
                }
                // An archived time zone is a name: the serializer's is seconds east of UTC at the answer's date.
                if name == "ORKDateQuestionResult", let i = out.firstIndex(where: { $0.key == "timeZone" }),
                    case .string(let zone) = out[i].value
                {
                    let answer = out.first { $0.key == "dateAnswer" }?.value.stringValue.flatMap { ResultDate($0) }
                    if let tz = TimeZone(identifier: zone) {
                        out[i].value = .number(Double(tz.secondsFromGMT(for: answer?.date ?? Date(timeIntervalSince1970: 0))))
                    } else {
                        out.remove(at: i)
                    }
                }
                return .object(JSONObject(out))
            }
        }

        guard let converted = try resolve(start, depth: 0) else { throw fail("a root object that is not a result") }
        return converted
    }
}
