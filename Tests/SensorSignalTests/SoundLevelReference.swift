// The scipy reference values for the sound level meter tests, read from Reference/sound.json (written by
// Tools/reference/sound_reference.py; see Reference/README.md).

import TestSupport

/// Reference values for the sound level meter tests, computed independently with scipy.
enum SoundLevelReference {
    private struct File: Decodable {
        var thirdOctaves, aResponse44100, aResponse48000, aResponse96000: [Double]
        var cResponse44100, cResponse48000, cResponse96000: [Double]
        var LAeq, LCeq, LZeq, LAFmax, LAFmin, LASmax, LASmin, LA10, LA50, LA90, LCpeak: Double
        var windows: [Double]
    }

    private static let file = loadReference(File.self, "sound.json")
    /// Exact third-octave frequencies 1000·10^((n−30)/10), n = 10…43, Hz.
    static let thirdOctaves = file.thirdOctaves
    /// scipy bilinear_zpk A-weighting at 44100 Hz: dB at ``thirdOctaves`` (NaN above Nyquist).
    static let aResponse44100 = file.aResponse44100
    /// scipy bilinear_zpk A-weighting at 48000 Hz: dB at ``thirdOctaves`` (NaN above Nyquist).
    static let aResponse48000 = file.aResponse48000
    /// scipy bilinear_zpk A-weighting at 96000 Hz: dB at ``thirdOctaves`` (NaN above Nyquist).
    static let aResponse96000 = file.aResponse96000
    /// scipy bilinear_zpk C-weighting at 44100 Hz: dB at ``thirdOctaves`` (NaN above Nyquist).
    static let cResponse44100 = file.cResponse44100
    /// scipy bilinear_zpk C-weighting at 48000 Hz: dB at ``thirdOctaves`` (NaN above Nyquist).
    static let cResponse48000 = file.cResponse48000
    /// scipy bilinear_zpk C-weighting at 96000 Hz: dB at ``thirdOctaves`` (NaN above Nyquist).
    static let cResponse96000 = file.cResponse96000
    /// Levels (dB re full scale²) of the 12 s, 48 kHz test signal (see the script).
    static let LAeq = file.LAeq
    static let LCeq = file.LCeq
    static let LZeq = file.LZeq
    static let LAFmax = file.LAFmax
    static let LAFmin = file.LAFmin
    static let LASmax = file.LASmax
    static let LASmin = file.LASmin
    static let LA10 = file.LA10
    static let LA50 = file.LA50
    static let LA90 = file.LA90
    static let LCpeak = file.LCpeak
    /// ResearchKit window series of the test signal, dB re full scale².
    static let windows = file.windows
}
