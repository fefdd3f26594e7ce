import SensorSignal

/// The taskproc version (library and command-line tool).
public let taskprocVersion = "0.1.0"
