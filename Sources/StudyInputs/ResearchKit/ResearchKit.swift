/// Namespace for the typed model of ResearchKit results as `ORKESerializer` writes them to JSON.
///
/// Each type mirrors one Objective-C class of ResearchKit (`ORKTaskResult` → ``TaskResult``,
/// `ORKTappingIntervalResult` → ``TappingIntervalResult``, …). The types live in this namespace so that
/// generic names such as `StepResult` do not collide with taskproc's own analysed results. The entry
/// points are top level: ``ResearchKitDecoder`` reads a file into a ``ResearchKitDocument`` whose root is a
/// ``ResearchKitObject`` (usually ``ResearchKitObject/result(_:)`` holding a ``ResearchKitResult``).
///
/// Units follow ResearchKit: times in seconds, frequencies in Hz, levels in dB HL or dB(A) SPL, geometry in
/// iOS points (origin top-left, y downwards), angles in degrees, distances in metres.
public enum ResearchKit {}
