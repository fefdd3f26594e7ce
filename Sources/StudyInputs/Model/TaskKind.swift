import Foundation

/// What an input records, as far as the reader can tell.
public enum TaskKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Walking tasks (short walk, walk back and forth, timed walk, fitness check, 6MWT) and bare motion logs.
    case walking
    /// Tremor steps (``MotionTask/tremor``): summarised as a motion signal, never analysed for steps.
    case tremor
    /// Balance and rest steps, standing or sitting still (``MotionTask/balance``, ``MotionTask/rest``):
    /// summarised as a motion signal, never analysed for steps.
    case balance
    /// Two-finger tapping.
    case tapping
    /// dB HL tone audiometry.
    case dBHLToneAudiometry
    /// Legacy (pre-dB HL) tone audiometry.
    case toneAudiometry
    /// Environment SPL meter.
    case environmentSPLMeter
    /// Range of motion.
    case rangeOfMotion
    /// An audio recording.
    case audio
    /// Survey answers and consent signatures (`ORK…QuestionResult`, `ORKConsentSignatureResult`).
    case survey
    /// The Stroop test (`ORKStroopResult`).
    case stroop
    /// Trail making (`ORKTrailmakingResult`).
    case trailMaking
    /// The paced serial addition test (`ORKPSATResult`).
    case psat
    /// Spatial span memory (`ORKSpatialSpanMemoryResult`).
    case spatialSpanMemory
    /// Tower of Hanoi (`ORKTowerOfHanoiResult`).
    case towerOfHanoi
    /// The 9-hole peg test (`ORKHolePegTestResult`).
    case holePeg
    /// The accuracy Stroop step (`ORKAccuracyStroopResult`).
    case accuracyStroop
    /// Reaction time (`ORKReactionTimeResult` and its device-motion files).
    case reactionTime
    /// Normalized reaction time (`ORKNormalizedReactionTimeResult`: hold a button, release it and tap the stimulus).
    case normalizedReactionTime
    /// Speech in noise (`ORKSpeechInNoiseResult`, scored against the transcription that follows it); before
    /// ``speechRecognition`` so that a speech-in-noise task is recognised as one.
    case speechInNoise
    /// Speech recognition (`ORKSpeechRecognitionResult`).
    case speechRecognition
    /// The Amsler grid (`ORKAmslerGridResult`, one step per eye).
    case amslerGrid
    /// The 3D-model selection (`ORKUSDZModelManagerResult`).
    case modelSelection
    /// Several kinds, or none recognised.
    case unknown
}
