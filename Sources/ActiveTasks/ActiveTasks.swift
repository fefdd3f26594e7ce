import SensorSignal

/// The ActiveTasks module version.
public let activeTasksVersion = "0.1.0"
