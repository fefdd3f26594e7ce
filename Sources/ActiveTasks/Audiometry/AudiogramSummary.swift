import StudyInputs

/// The ear a dB HL audiogram belongs to.
public enum Ear: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left ear (ResearchKit channel 0).
    case left
    /// Right ear (ResearchKit channel 1).
    case right

    /// The ear of a ResearchKit channel.
    public init(_ channel: ResearchKit.AudioChannel) { self = channel == .left ? .left : .right }
}

/// WHO 2021 grades of hearing loss (World Report on Hearing, Table 1.3; `audio.md` §2.3), from the
/// better ear's 4-frequency pure-tone average (0.5/1/2/4 kHz), dB HL.
public enum WHOHearingGrade: String, Sendable, Hashable, Codable, CaseIterable {
    /// < 20 dB HL.
    case normal
    /// 20 to < 35 dB HL.
    case mild
    /// 35 to < 50 dB HL.
    case moderate
    /// 50 to < 65 dB HL.
    case moderatelySevere
    /// 65 to < 80 dB HL.
    case severe
    /// 80 to < 95 dB HL.
    case profound
    /// ≥ 95 dB HL (complete or total).
    case complete

    /// The grade of a better-ear PTA4, dB HL.
    public init(betterEarPTA4 pta: Double) {
        switch pta {
        case ..<20: self = .normal
        case ..<35: self = .mild
        case ..<50: self = .moderate
        case ..<65: self = .moderatelySevere
        case ..<80: self = .severe
        case ..<95: self = .profound
        default: self = .complete
        }
    }
}

/// Pure-tone averages of one ear, dB HL, computed from one threshold per frequency.
///
/// Definitions (`audio.md` §2.3): `pta4` = mean of 500, 1000, 2000, 4000 Hz (WHO 2021); `pta3` = mean of 500,
/// 1000, 2000 Hz (classic); `hfa` = high-frequency average, mean of 2000, 4000, 8000 Hz (all three are in
/// ResearchKit's default list). An average is nil when any of its frequencies has no threshold; ``missing``
/// says which.
public struct EarSummary: Sendable, Hashable, Encodable {
    /// Frequencies of ``pta4``, Hz.
    public static let pta4Frequencies: [Double] = [500, 1000, 2000, 4000]
    /// Frequencies of ``pta3``, Hz.
    public static let pta3Frequencies: [Double] = [500, 1000, 2000]
    /// Frequencies of ``hfa``, Hz.
    public static let hfaFrequencies: [Double] = [2000, 4000, 8000]

    /// 4-frequency PTA (0.5/1/2/4 kHz), dB HL.
    public var pta4: Double?
    /// 3-frequency PTA (0.5/1/2 kHz), dB HL.
    public var pta3: Double?
    /// High-frequency average (2/4/8 kHz), dB HL.
    public var hfa: Double?
    /// 1 kHz test–retest difference (second − first measurement), dB; nil unless 1 kHz has two thresholds.
    public var retestDifference1kHz: Double?
    /// True when the 1 kHz retest differs by more than 5 dB (a reliability warning, BSA 2011).
    public var retestUnreliable: Bool
    /// Why an average is nil, e.g. `pta4: no threshold at 4000 Hz`.
    public var missing: [String]

    /// Summarises `thresholds` (one per frequency, Hz → dB HL) and the 1 kHz measurements in test order.
    public init(thresholds: [Double: Double], oneKilohertz: [Double?]) {
        var missing: [String] = []
        func average(_ name: String, _ frequencies: [Double]) -> Double? {
            let absent = frequencies.filter { thresholds[$0] == nil }
            guard absent.isEmpty else {
                missing.append("\(name): no threshold at " + absent.map { ResultEncoding.number($0) + " Hz" }.joined(separator: ", "))
                return nil
            }
            return frequencies.reduce(0) { $0 + thresholds[$1]! } / Double(frequencies.count)
        }
        pta4 = average("pta4", Self.pta4Frequencies)
        pta3 = average("pta3", Self.pta3Frequencies)
        hfa = average("hfa", Self.hfaFrequencies)
        if oneKilohertz.count >= 2, let a = oneKilohertz[0], let b = oneKilohertz[1] {
            retestDifference1kHz = b - a
        } else {
            retestDifference1kHz = nil
        }
        retestUnreliable = (retestDifference1kHz.map { abs($0) > 5 }) ?? false
        self.missing = missing
    }

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeNullable(pta4, forKey: .pta4)
        try c.encodeNullable(pta3, forKey: .pta3)
        try c.encodeNullable(hfa, forKey: .hfa)
        try c.encodeNullable(retestDifference1kHz, forKey: .retestDifference1kHz)
        try c.encode(retestUnreliable, forKey: .retestUnreliable)
        try c.encode(missing, forKey: .missing)
    }

    enum Key: String, CodingKey { case pta4, pta3, hfa, retestDifference1kHz, retestUnreliable, missing }
}

/// A named interaural-asymmetry rule and its verdict.
///
/// Asymmetry criteria are not standardised (`audio.md` §2.3); taskproc evaluates every rule below and names it,
/// so a study applies the one its protocol specifies. "Adjacent" means consecutive in the sorted list of
/// frequencies with a threshold in both ears. Differences are |right − left|, dB.
public struct AsymmetryFinding: Sendable, Hashable, Encodable {
    /// The rule's name (stable; see ``AsymmetryFinding/rules``).
    public var rule: String
    /// What the rule tests.
    public var criterion: String
    /// True when the rule is met; nil when it cannot be evaluated (missing thresholds).
    public var asymmetric: Bool?
    /// Frequencies that met the criterion, Hz.
    public var frequencies: [Double]

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(criterion, forKey: .criterion)
        try c.encodeNullable(asymmetric, forKey: .asymmetric)
        try c.encode(frequencies, forKey: .frequencies)
    }

    enum Key: String, CodingKey { case rule, criterion, asymmetric, frequencies }

    /// The rules, by name: criterion.
    public static let rules: [(name: String, criterion: String)] = [
        ("anyFrequency15dB", "difference ≥ 15 dB at any one frequency"),
        ("anyFrequency30dB", "difference ≥ 30 dB at any one frequency"),
        ("twoAdjacent10dB", "difference ≥ 10 dB at two adjacent frequencies"),
        ("twoAdjacent15dB", "difference ≥ 15 dB at two adjacent frequencies"),
        ("threeAdjacent10dB", "difference ≥ 10 dB at three adjacent frequencies"),
        ("pta3Difference15dB", "3-frequency PTA (0.5/1/2 kHz) difference ≥ 15 dB"),
        ("rule3000", "difference ≥ 15 dB at 3000 Hz"),
        ("oneSidedNoResponse", "a frequency with a threshold in one ear and no response in the other"),
    ]

    /// Evaluates every rule.
    /// - Parameters:
    ///   - right: right-ear thresholds, Hz → dB HL.
    ///   - left: left-ear thresholds, Hz → dB HL.
    ///   - rightNoResponse: frequencies tested in the right ear without a threshold, Hz.
    ///   - leftNoResponse: frequencies tested in the left ear without a threshold, Hz.
    ///   - pta3: (right, left) 3-frequency PTAs, dB HL.
    public static func evaluate(
        right: [Double: Double], left: [Double: Double], rightNoResponse: Set<Double>, leftNoResponse: Set<Double>,
        pta3: (Double?, Double?)
    ) -> [AsymmetryFinding] {
        let common = Set(right.keys).intersection(left.keys).sorted()
        let diff = common.map { abs(right[$0]! - left[$0]!) }
        func any(_ limit: Double) -> [Double] { zip(common, diff).filter { $0.1 >= limit }.map(\.0) }
        func run(_ limit: Double, _ length: Int) -> [Double] {
            var hits: Set<Double> = []
            if common.count >= length {
                for start in 0...(common.count - length) where diff[start..<(start + length)].allSatisfy({ $0 >= limit }) {
                    hits.formUnion(common[start..<(start + length)])
                }
            }
            return hits.sorted()
        }
        let oneSided = Set(right.keys).intersection(leftNoResponse).union(Set(left.keys).intersection(rightNoResponse))
        let evaluable = !common.isEmpty
        return rules.map { name, criterion in
            let frequencies: [Double]
            let verdict: Bool?
            switch name {
            case "anyFrequency15dB": frequencies = any(15)
            case "anyFrequency30dB": frequencies = any(30)
            case "twoAdjacent10dB": frequencies = run(10, 2)
            case "twoAdjacent15dB": frequencies = run(15, 2)
            case "threeAdjacent10dB": frequencies = run(10, 3)
            case "rule3000": frequencies = any(15).filter { $0 == 3000 }
            case "oneSidedNoResponse": frequencies = oneSided.sorted()
            default: frequencies = []
            }
            switch name {
            case "rule3000": verdict = common.contains(3000) ? !frequencies.isEmpty : nil
            case "pta3Difference15dB": verdict = pta3.0.flatMap { r in pta3.1.map { l in abs(r - l) >= 15 } }
            case "oneSidedNoResponse": verdict = !frequencies.isEmpty
            default: verdict = evaluable ? !frequencies.isEmpty : nil
            }
            return AsymmetryFinding(rule: name, criterion: criterion, asymmetric: verdict, frequencies: frequencies)
        }
    }
}

/// The bilateral verdicts of a whole test (both ears).
public struct BilateralSummary: Sendable, Hashable, Encodable {
    /// The ear with the lower PTA4; nil when either PTA4 is missing.
    public var betterEar: Ear?
    /// The better ear's PTA4, dB HL.
    public var betterEarPTA4: Double?
    /// WHO 2021 grade from ``betterEarPTA4``.
    public var whoGrade: WHOHearingGrade?
    /// WHO 2021 unilateral hearing loss: better ear PTA4 < 20 dB HL and worse ear ≥ 35 dB HL.
    public var unilateral: Bool?
    /// Every asymmetry rule's verdict.
    public var asymmetry: [AsymmetryFinding]

    /// Grades the two ears.
    public init(right: EarSummary, left: EarSummary, asymmetry: [AsymmetryFinding]) {
        self.asymmetry = asymmetry
        guard let r = right.pta4, let l = left.pta4 else {
            betterEar = nil
            betterEarPTA4 = nil
            whoGrade = nil
            unilateral = nil
            return
        }
        betterEar = r <= l ? .right : .left
        let better = min(r, l)
        let worse = max(r, l)
        betterEarPTA4 = better
        whoGrade = WHOHearingGrade(betterEarPTA4: better)
        unilateral = better < 20 && worse >= 35
    }

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeNullable(betterEar, forKey: .betterEar)
        try c.encodeNullable(betterEarPTA4, forKey: .betterEarPTA4)
        try c.encodeNullable(whoGrade, forKey: .whoGrade)
        try c.encodeNullable(unilateral, forKey: .unilateral)
        try c.encode(asymmetry, forKey: .asymmetry)
    }

    enum Key: String, CodingKey { case betterEar, betterEarPTA4, whoGrade, unilateral, asymmetry }
}
