import Foundation

/// A phyphox export folder (or the folder a phyphox `.zip` export extracts to): the data tables (`Raw Data.csv`
/// for the acceleration experiments; one table per sensor for the others) beside `meta/device.csv`
/// (`property,value`: app `version`, `deviceModel`, `deviceBrand`, …) and `meta/time.csv` (`event,experiment
/// time,system time,system time text`: one `START` and one `PAUSE` row per run of the experiment).
///
/// The folder is one record: each data table is read as an accelerometer table; its samples are kept only inside
/// the `START`…`PAUSE` intervals of `meta/time.csv` (experiment time, the tables' `Time (s)`), samples outside
/// them are dropped with a warning counting them, and the export's app, device and start time are reported with
/// the table's reading (``TableReading/exportedBy``, ``TableReading/startedAt``, ``TableReading/segments``).
public struct PhyphoxExport: Sendable, Hashable {
    /// The data tables directly in the folder (`.csv`, `.tsv`, `.txt`), in byte order.
    public var dataFiles: [String]
    /// `meta/time.csv`, when present.
    public var timeFile: String?
    /// `meta/device.csv`, when present.
    public var deviceFile: String?

    /// The export in `folder`, when it has a `meta/` folder holding `time.csv` or `device.csv` and, beside it, one
    /// or more tables and nothing else; `names` are the folder's visible entries.
    public static func recognize(_ folder: String, names: [String]) -> PhyphoxExport? {
        guard let meta = names.first(where: { $0.lowercased() == "meta" }) else { return nil }
        let metaFolder = folder + "/" + meta
        guard FileTree.fileType(metaFolder) == .directory else { return nil }
        let metaNames = FileTree.sortedNames(metaFolder)
        func find(_ name: String) -> String? {
            metaNames.first { $0.lowercased() == name }.map { metaFolder + "/" + $0 }
        }
        let time = find("time.csv")
        let device = find("device.csv")
        guard time != nil || device != nil else { return nil }
        // phyphox writes nothing else beside meta/: a folder holding other files or folders (a download folder
        // that happens to hold a meta/ folder) is not an export.
        let others = names.filter { $0 != meta }
        let data = others.filter { name in
            InputRecognizer.tableExtensions.contains(InputRecognizer.effectiveExtension(name))
                && !name.lowercased().hasSuffix(".gz") && FileTree.fileType(folder + "/" + name) == .regular
        }
        guard !data.isEmpty, data.count == others.count else { return nil }
        return PhyphoxExport(dataFiles: data.map { folder + "/" + $0 }, timeFile: time, deviceFile: device)
    }

    /// What `meta/` says.
    public struct Metadata: Sendable, Hashable {
        /// `START`…`PAUSE` intervals, experiment time, s (an open last run ends at +∞).
        public var segments: [ClosedRange<Double>] = []
        /// The `system time text` of the first `START` (the phone's clock, with its UTC offset).
        public var startedAt: String?
        /// `phyphox <version> on <brand> <model>`.
        public var exportedBy: String?
    }

    /// Reads `meta/time.csv` and `meta/device.csv`.
    /// - Throws: ``InputError`` for a time table without `event` and `experiment time` columns, an event time that
    ///   is not a number, or a `PAUSE` before its `START`.
    public func metadata() throws(InputError) -> Metadata {
        var metadata = Metadata()
        if let deviceFile {
            let table = try CSVTable.read(path: deviceFile)
            if let property = table.columnIndex(named: "property"), let value = table.columnIndex(named: "value") {
                var values: [String: String] = [:]
                for row in 0..<table.rowCount {
                    values[table.string(row: row, column: property)] = table.string(row: row, column: value)
                }
                let device = [values["deviceBrand"], values["deviceModel"]].compactMap { $0 }.joined(separator: " ")
                metadata.exportedBy =
                    "phyphox" + (values["version"].map { " " + $0 } ?? "") + (device.isEmpty ? "" : " on " + device)
            }
        }
        guard let timeFile else { return metadata }
        let table = try CSVTable.read(path: timeFile)
        let event = try table.requireColumn(namedAnyOf: ["event"])
        let time = try table.requireColumn(namedAnyOf: ["experiment time"])
        let text = table.columnIndex(named: "system time text")
        var start: Double?
        for row in 0..<table.rowCount {
            let name = table.string(row: row, column: event).uppercased()
            let t = try table.number(row: row, column: time)
            switch name {
            case "START":
                if start == nil {
                    start = t
                    if metadata.startedAt == nil, let text { metadata.startedAt = table.string(row: row, column: text) }
                }
            case "PAUSE":
                guard let s = start else { continue }  // a PAUSE without a run: nothing to bound
                guard t >= s else {
                    throw InputError(
                        .schema, file: timeFile, location: table.location(row: row, column: time),
                        expected: "a PAUSE at or after its START (\(s) s)", found: "\(t) s")
                }
                metadata.segments.append(s...t)
                start = nil
            default: continue
            }
        }
        if let s = start { metadata.segments.append(s...Double.infinity) }
        return metadata
    }

    /// The indices of `timestamps` (experiment time, s) inside some segment, allowing half a sampling interval
    /// (`slack`, s) at each end; all of them when there are no segments.
    public static func kept(_ timestamps: [Double], segments: [ClosedRange<Double>], slack: Double) -> [Int] {
        guard !segments.isEmpty else { return Array(timestamps.indices) }
        return timestamps.indices.filter { i in
            let t = timestamps[i]
            return segments.contains { t >= $0.lowerBound - slack && t <= $0.upperBound + slack }
        }
    }
}
