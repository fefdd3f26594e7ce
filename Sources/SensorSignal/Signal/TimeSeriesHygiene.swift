/// A multi-channel, irregularly timestamped series (a phone sensor log) put in order, with a ``QualityReport`` of
/// what was found and every change made.
///
/// The steps, in order; each change is counted in ``report`` and described in ``QualityReport/repairs``:
/// 1. Rows whose timestamp is NaN or infinite are dropped (they cannot be placed in time).
/// 2. If any timestamp goes backwards, the order is repaired in one of two ways, named in
///    ``QualityReport/orderRepair`` and stated in a repair and a warning:
///    - **re-sequenced** when the backward steps recur in a regular recorder-batch pattern (at least 3 of them, batches
///      of regular size that each start and end later than the one before, and sorting would interleave them): the
///      rows keep their file order and each batch is re-stamped evenly from the batches' own timestamps (the
///      previous batch's last timestamp to its own last one). A recorder that stamps batches backwards from their
///      delivery time writes rows in the right order with overlapping times; sorting would shuffle the samples of
///      consecutive batches into each other;
///    - otherwise **sorted**: the rows are stably sorted by time (equal times keep input order); isolated or random
///      backward steps are rows out of place with right timestamps.
/// 3. Rows repeating an earlier timestamp are dropped, keeping the earliest in input order. An *exact duplicate*
///    has the same value in every channel as the kept row (NaN equals NaN); a *conflicting duplicate* differs in at
///    least one channel. Both are dropped and counted separately.
///
/// Then, without changing anything, it measures (see ``QualityReport/Sampling``): the robust nominal interval (the
/// median of the intervals within `[m / outlierFactor, m × outlierFactor]` of the overall median `m`, the same
/// estimator as ``UniformResampling``), the inlier mean rate, the overall rate, the interval jitter (IQR, ms), the
/// gaps (`Δt > gapFactor × nominal`, or `> maximumInterval`), and the non-finite channel values.
///
/// Data problems never stop it: an empty or one-sample series gives a report with no ``QualityReport/sampling``.
/// The input is not copied when nothing needs changing. `Sendable` value.
public struct TimeSeriesHygiene: Sendable, Hashable {
    /// Cleaned timestamps, s: finite and strictly increasing.
    public let timestamps: [Double]
    /// Cleaned channels, in the same order as given, each with one value per cleaned timestamp.
    public let channels: [[Double]]
    /// For each cleaned row, the input row it came from (0-based).
    public let sourceRows: [Int]
    /// What was found and done.
    public let report: QualityReport

    /// Cleans a series.
    ///
    /// Complexity: O(n) for ordered, duplicate-free input (the interval median and IQR come from one radix sort);
    /// O(n log n) when sorting. Allocates the cleaned channels only when something changed.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times in seconds, any origin (uptime or Unix epoch), any order.
    ///   - channels: Value channels, each with exactly one value per timestamp (a programmer error otherwise).
    ///   - channelNames: Names for the report, one per channel; `nil` names them `channel 0`, `channel 1`, ….
    ///   - options: Gap and rate rules (out-of-range options are a programmer error).
    public init(
        timestamps: [Double], channels: [[Double]], channelNames: [String]? = nil,
        options: TimeSeriesHygieneOptions = TimeSeriesHygieneOptions()
    ) {
        options.check()
        let inputCount = timestamps.count
        for (number, channel) in channels.enumerated() {
            precondition(
                channel.count == inputCount,
                "channel \(number) has \(channel.count) values but there are \(inputCount) timestamps")
        }
        let names = channelNames ?? channels.indices.map { "channel \($0)" }
        precondition(names.count == channels.count, "\(names.count) channel names for \(channels.count) channels")
        let limit = options.exampleLimit

        // 1. Non-finite timestamps.
        var rows: [Int]
        var nonFiniteTimestampRows: [Int] = []
        var nonFiniteTimestamps = 0
        if timestamps.allSatisfy(\.isFinite) {
            rows = Array(0..<inputCount)
        } else {
            rows = []
            rows.reserveCapacity(inputCount)
            for (row, time) in timestamps.enumerated() {
                if time.isFinite {
                    rows.append(row)
                } else {
                    nonFiniteTimestamps += 1
                    if nonFiniteTimestampRows.count < limit { nonFiniteTimestampRows.append(row) }
                }
            }
        }

        // 2. A batched recorder: file order kept, re-stamped.
        var times = timestamps
        let batched = BatchedStamping(timestamps: timestamps, rows: rows)
        if let batched { for (k, row) in rows.enumerated() { times[row] = batched.times[k] } }

        // 2–3. Order and duplicates.
        let timeline = SampleTimeline(timestamps: times, channels: channels, rows: rows, exampleLimit: limit)
        let kept = timeline.kept
        let unchanged = kept.count == inputCount && timeline.backwardSteps == 0 && batched == nil
        self.timestamps = unchanged ? timestamps : kept.map { times[$0] }
        self.channels = unchanged ? channels : channels.map { channel in kept.map { channel[$0] } }
        self.sourceRows = kept
        self.timeShifts = batched == nil ? nil : kept.map { times[$0] - timestamps[$0] }

        // Measurements.
        let relative = timeline.relativeTimes(times)
        let intervals = SampleTimeline.intervals(relative)
        var sampling: QualityReport.Sampling?
        var gaps: [TimestampGap] = []
        if !intervals.isEmpty, let span = relative.last {
            // One sort serves the rate estimate, the IQR and the extremes.
            let sorted = IntervalEstimate.sortedIntervals(intervals)
            let estimate = IntervalEstimate(sortedIntervals: sorted, outlierFactor: options.outlierFactor)
            sampling = QualityReport.Sampling(
                nominalInterval: estimate.nominal, medianRate: 1 / estimate.nominal, meanRate: estimate.meanRate,
                overallRate: Double(intervals.count) / span, intervalOutliers: estimate.outliers,
                jitterMilliseconds: RStatistics.interquartileRange(ofSorted: sorted) * 1000,
                minimumInterval: sorted[0], maximumInterval: sorted[sorted.count - 1])
            gaps = timeline.gaps(
                intervals: intervals, timestamps: times, relativeLimit: options.gapFactor * estimate.nominal,
                absoluteLimit: options.maximumInterval ?? .infinity)
        }

        var report = QualityReport(
            inputCount: inputCount, outputCount: kept.count, startTime: self.timestamps.first,
            endTime: self.timestamps.last, sampling: sampling, gapFactor: options.gapFactor,
            maximumInterval: options.maximumInterval)
        if let batched {
            (report.backwardSteps, report.backwardStepRows, report.largestBackwardStep) = SampleTimeline.backwardSteps(
                timestamps: timestamps, rows: rows, exampleLimit: limit)
            report.orderRepair = .resequenced
            report.samplesRestamped = batched.restamped
            report.stampingBatches = batched.batches
            report.medianBatchSize = batched.medianBatchSize
        } else {
            report.backwardSteps = timeline.backwardSteps
            report.backwardStepRows = timeline.backwardStepRows
            report.largestBackwardStep = timeline.largestBackwardStep
            report.orderRepair = timeline.backwardSteps > 0 ? .sorted : .none
            report.samplesReordered = timeline.reordered
        }
        report.duplicatesDropped = timeline.exactDuplicates
        report.duplicateRows = timeline.exactDuplicateRows
        report.conflictingDuplicates = timeline.conflictingDuplicates
        report.conflictingDuplicateRows = timeline.conflictingDuplicateRows
        report.nonFiniteTimestamps = nonFiniteTimestamps
        report.nonFiniteTimestampRows = nonFiniteTimestampRows
        report.gaps = gaps
        for (name, channel) in zip(names, self.channels) {
            let count = channel.reduce(0) { $0 + ($1.isFinite ? 0 : 1) }
            if count > 0 {
                report.nonFiniteValuesByChannel.append(QualityReport.ChannelCount(channel: name, count: count))
            }
        }
        report.nonFiniteValues = report.nonFiniteValuesByChannel.reduce(0) { $0 + $1.count }
        report.repairs = Self.repairs(report)
        report.warnings = Self.warnings(report)
        self.report = report
    }

    /// For each cleaned row, how far re-sequencing moved its timestamp, s (cleaned − input); nil unless
    /// ``QualityReport/orderRepair`` is `resequenced`.
    public let timeShifts: [Double]?

    /// Applies the same row selection and order to a companion column that was not part of the cleaning.
    ///
    /// Use it for values that travel with a row. For a second time base use ``selectingTimes(of:)``.
    ///
    /// - Parameter column: One value per input row.
    /// - Returns: One value per cleaned row; `column` itself when nothing changed.
    public func selectingRows(of column: [Double]) -> [Double] {
        precondition(
            column.count == report.inputCount,
            "column has \(column.count) values but there were \(report.inputCount) rows")
        return report.wasRepaired ? sourceRows.map { column[$0] } : column
    }

    /// Applies the same row selection, order and re-stamping to a second time base (such as `timestampSince1970`,
    /// s), which should not decide what counts as a duplicate: each cleaned row's time moves by its
    /// ``timeShifts`` entry.
    ///
    /// - Parameter column: One time per input row, s.
    /// - Returns: One time per cleaned row; `column` itself when nothing changed.
    public func selectingTimes(of column: [Double]) -> [Double] {
        let selected = selectingRows(of: column)
        guard let timeShifts else { return selected }
        return zip(selected, timeShifts).map { $0 + $1 }
    }

    // MARK: Report text

    private static func repairs(_ r: QualityReport) -> [String] {
        var repairs: [String] = []
        if r.nonFiniteTimestamps > 0 {
            repairs.append(
                "dropped \(HygieneText.samples(r.nonFiniteTimestamps)) whose timestamp is NaN or infinite "
                    + "(\(HygieneText.rows(r.nonFiniteTimestampRows, of: r.nonFiniteTimestamps)))")
        }
        let steps = r.backwardSteps == 1 ? "1 timestamp goes" : "\(r.backwardSteps) timestamps go"
        let where_ =
            "(\(HygieneText.rows(r.backwardStepRows, of: r.backwardSteps)); largest step back "
            + "\(HygieneText.number(r.largestBackwardStep, decimals: 6)) s)"
        switch r.orderRepair {
        case .none:
            break
        case .sorted:
            repairs.append(
                "sorted the samples by time (stably: equal times keep input order) because \(steps) backwards "
                    + where_ + "; \(HygieneText.samples(r.samplesReordered)) moved")
        case .resequenced:
            repairs.append(
                "kept the samples in file order and re-stamped \(HygieneText.samples(r.samplesRestamped)) evenly "
                    + "within each of \(r.stampingBatches) recorder batches (median \(r.medianBatchSize) samples; a "
                    + "batch spans from the previous batch's last timestamp to its own last one) because \(steps) "
                    + "backwards in a regular batch pattern " + where_)
        }
        if r.duplicatesDropped > 0 {
            repairs.append(
                "dropped \(HygieneText.samples(r.duplicatesDropped, "exact duplicate")) (same timestamp and same values "
                    + "as an earlier sample; \(HygieneText.rows(r.duplicateRows, of: r.duplicatesDropped)))")
        }
        if r.conflictingDuplicates > 0 {
            repairs.append(
                "dropped \(HygieneText.samples(r.conflictingDuplicates, "conflicting duplicate")) (same timestamp as an "
                    + "earlier sample but different values; the earliest in input order was kept; "
                    + "\(HygieneText.rows(r.conflictingDuplicateRows, of: r.conflictingDuplicates)))")
        }
        return repairs
    }

    private static func warnings(_ r: QualityReport) -> [String] {
        var warnings: [String] = []
        switch r.orderRepair {
        case .none:
            break
        case .sorted:
            warnings.append(
                "timestamps go backwards \(r.backwardSteps) time\(r.backwardSteps == 1 ? "" : "s"), not in a regular "
                    + "recorder-batch pattern: the samples were sorted by time "
                    + "(\(HygieneText.samples(r.samplesReordered)) moved)")
        case .resequenced:
            warnings.append(
                "timestamps go backwards \(r.backwardSteps) times in a regular recorder-batch pattern "
                    + "(\(r.stampingBatches) batches of about \(r.medianBatchSize) samples that sorting would interleave): "
                    + "the file order was kept and \(HygieneText.samples(r.samplesRestamped)) were re-stamped evenly "
                    + "within their batch")
        }
        if r.sampling == nil {
            warnings.append(
                "fewer than 2 samples with distinct finite timestamps (\(r.outputCount) kept of \(r.inputCount)): "
                    + "no sampling rate")
        }
        if !r.gaps.isEmpty {
            let limit =
                "longer than \(HygieneText.number(r.gapFactor, decimals: 3)) × the nominal interval"
                + (r.maximumInterval.map { " or \(HygieneText.number($0, decimals: 6)) s" } ?? "")
            warnings.append(
                "\(r.gaps.count) gap\(r.gaps.count == 1 ? "" : "s") \(limit) (total "
                    + "\(HygieneText.number(r.totalGapDuration, decimals: 6)) s, longest "
                    + "\(HygieneText.number(r.gaps.map(\.duration).max() ?? 0, decimals: 6)) s); left as they are")
        }
        if r.nonFiniteValues > 0 {
            let perChannel = r.nonFiniteValuesByChannel.map { "\($0.channel): \($0.count)" }.joined(separator: ", ")
            warnings.append("\(r.nonFiniteValues) NaN or infinite values left in place (\(perChannel))")
        }
        return warnings
    }
}

/// Number formatting for report sentences, without Foundation.
enum HygieneText {
    /// `value` rounded to `decimals` places, printed in Swift's shortest form (`0.02`, not `0.020000000000000004`).
    static func number(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        guard rounded.isFinite else { return "\(value)" }
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? "\(Int(rounded))" : "\(rounded)"
    }

    /// `"1 sample"`, `"3 samples"`, `"2 exact duplicate samples"`.
    static func samples(_ count: Int, _ adjective: String = "") -> String {
        let noun = count == 1 ? "sample" : "samples"
        return adjective.isEmpty ? "\(count) \(noun)" : "\(count) \(adjective) \(noun)"
    }

    /// `"input row 4"`, `"input rows 4, 9"`, `"input rows 4, 9, 12, … (17 in all)"`.
    static func rows(_ examples: [Int], of total: Int) -> String {
        guard !examples.isEmpty else { return "\(total) in all" }
        let list = examples.map(String.init).joined(separator: ", ")
        let noun = total == 1 ? "input row" : "input rows"
        return total > examples.count ? "\(noun) \(list), … (\(total) in all)" : "\(noun) \(list)"
    }
}
