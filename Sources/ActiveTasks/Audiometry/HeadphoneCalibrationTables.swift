import StudyInputs

/// ResearchKit's headphone calibration tables, as the value strings stored in its plists.
///
/// Source: `researchkit-formats.md` §4.7 ("Calibration tables (HEAD)") and §4.6 ("RETSPL history"). Values are
/// kept as the plists' strings and turned into `Decimal`, because ResearchKit does the calibration arithmetic in
/// `NSDecimalNumber` from those strings; the clipping test (attenuation ≥ −1 dB) is then exact.
public enum HeadphoneCalibrationTables {
    /// Frequencies present in every `retspl_*` and `frequency_dBSPL_*` table, Hz.
    public static let frequencies: [Int] = [125, 250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000]

    /// The table suffixes (`retspl_<S>.plist`, `frequency_dBSPL_<S>.plist`) at HEAD.
    public static let tableSuffixes: [String] = [
        "AIRPODS", "AIRPODSV2", "AIRPODSV3", "AIRPODSPRO", "AIRPODSPROV2", "AIRPODSMAX", "EARPODS",
    ]

    /// The generic RETSPL every `retspl_*.plist` held up to ResearchKit 3.1.x (now `retspl_AIRPODS`), dB SPL,
    /// at ``frequencies`` (§4.6 "RETSPL history").
    public static let genericRETSPL: [String] = ["31", "21", "13", "9", "7", "10", "12", "13.5", "16", "16", "15.5"]

    /// `retspl_<S>.plist` at HEAD (ResearchKit ≥ 3.2.0): reference equivalent threshold SPL, dB SPL, at
    /// ``frequencies`` (§4.7).
    public static let retspl: [String: [String]] = [
        "AIRPODS": genericRETSPL,
        "AIRPODSV2": ["42.45", "30.2", "17.94", "16.45", "14.96", "13.85", "12.73", "13.27", "13.8", "14.81", "15.82"],
        "AIRPODSV3": ["39.05", "26.68", "14.31", "13.16", "12.01", "12.64", "13.27", "14.48", "15.69", "14.77", "13.85"],
        "AIRPODSPRO": ["34.04", "23.52", "12.99", "11.13", "9.27", "11.69", "14.11", "13.42", "12.72", "14.62", "16.51"],
        "AIRPODSPROV2": [
            "34.04", "23.52", "12.99", "11.13", "9.27", "11.69", "14.11", "13.42", "12.72", "14.62", "16.51",
        ],
        "AIRPODSMAX": ["25.13", "19.29", "13.45", "10.515", "7.58", "11.45", "15.32", "12.06", "8.79", "3.74", "18.68"],
        "EARPODS": ["38.78", "28.99", "21.66", "17.97", "14.28", "13.02", "11.75", "13.69", "15.62", "16.77", "17.92"],
    ]

    /// `frequency_dBSPL_<S>.plist` (unchanged since introduction): SPL of a −30 dBFS tone at the reference
    /// volume, dB SPL, at ``frequencies`` (§4.7).
    public static let frequencyDBSPL: [String: [String]] = [
        "AIRPODS": ["88.97", "86.30", "84.49", "83.59", "83.89", "87.60", "90.07", "92.51", "88.87", "91.46", "89.61"],
        "AIRPODSV2": ["88.97", "86.30", "84.49", "83.59", "83.89", "87.60", "90.07", "92.51", "88.87", "91.46", "89.61"],
        "AIRPODSV3": ["83.97", "82.02", "81.10", "82.70", "84.20", "85.90", "88.12", "91.80", "89.63", "90.40", "85.14"],
        "AIRPODSPRO": ["83.54", "83.11", "84.58", "84.02", "82.80", "86.20", "89.29", "92.67", "89.76", "86.64", "88.22"],
        "AIRPODSPROV2": [
            "84.05", "83.16", "84.13", "83.95", "83.67", "84.79", "86.52", "89.24", "86.64", "86.50", "90.11",
        ],
        "AIRPODSMAX": ["82.6", "81.5", "81.2", "82.4", "83.7", "84.5", "87.5", "87.9", "82.7", "82.9", "86.3"],
        "EARPODS": ["91.28", "88.38", "86.82", "86.16", "86.37", "89.83", "91.62", "92.31", "90.19", "93.91", "90.04"],
    ]

    /// Volume-curve keys: system volume quantised to 1/16, 0.0625 … 1.0.
    public static let volumeKeys: [Double] = (1...16).map { Double($0) * 0.0625 }

    /// `volume_curve_<NAME>.plist` (unchanged since introduction): level offset, dB, at ``volumeKeys`` (§4.7).
    public static let volumeCurves: [String: [String]] = {
        let inEar = [
            "-65.5", "-58.5", "-52.5", "-47", "-42", "-37.5", "-33", "-29", "-25", "-21", "-17", "-13.5", "-10", "-6.5",
            "-3", "0",
        ]
        return [
            "AIRPODS": inEar, "AIRPODSV2": inEar, "AIRPODSV3": inEar, "AIRPODSPRO": inEar, "AIRPODSPROV2": inEar,
            "AIRPODSMAX": [
                "-63.5", "-56.5", "-50.5", "-45", "-40", "-35.5", "-31", "-27", "-23", "-19", "-15.5", "-12", "-8.5",
                "-5.5", "-2.5", "0",
            ],
            "WIRED": [
                "-65.6", "-58.4", "-52.3", "-46.9", "-42", "-37.3", "-32.9", "-28.9", "-24.9", "-20.9", "-16.9",
                "-13.6", "-10", "-6.7", "-3.2", "-0.5",
            ],
        ]
    }()

    /// ResearchKit's fixed "dBFS calibration" constant: `frequency_dBSPL` is the SPL at −30 dBFS, dB.
    public static let dBFSCalibration = 30

    /// ResearchKit's headphone type identifiers (`ORKTypes.m`).
    public static let headphoneTypes: [String] = [
        "AIRPODS", "AIRPODSV1", "AIRPODSV2", "AIRPODSV3", "AIRPODSPRO", "AIRPODSPROV2", "AIRPODSMAX", "EARPODS", "UNKNOWN",
    ]
}
