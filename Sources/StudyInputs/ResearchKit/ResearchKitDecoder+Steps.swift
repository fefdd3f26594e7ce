/// Per-class decoding of step and recorder configurations. Only the documented keys are read and validated;
/// the whole object is kept in `raw` and other keys (UI text, images, sounds) are tolerated silently.
extension ResearchKitDecoder {
    static func decodeActiveStep(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.ActiveStep {
        var configurations: [ResearchKit.RecorderConfiguration] = []
        if let values = try f.optionalArray(
            "recorderConfigurations", of: "recorder configurations (objects with \"_class\")")
        {
            for (i, v) in values.enumerated() {
                let path = f.path.key("recorderConfigurations").index(i)
                let object = try f.context.object(
                    v, at: path, expected: "a recorder configuration (a JSON object with \"_class\")")
                let className = try f.context.className(of: object, at: path)
                guard isRecorderConfiguration(className) else {
                    throw f.context.error(
                        at: path.key("_class"), expected: "a recorder configuration class (ORK…RecorderConfiguration)",
                        found: "string \"\(className)\"", message: "\(className) is not a recorder configuration")
                }
                configurations.append(
                    try decodeRecorderConfiguration(
                        ResearchKitFields(object: object, path: path, className: className, context: f.context)))
            }
        }
        return ResearchKit.ActiveStep(
            className: f.className, identifier: try f.string("identifier"),
            stepDuration: f.value("stepDuration") == nil
                ? nil : try f.sentinelNumber("stepDuration", .noTimeLimit, .nonNegative, unit: "s"),
            recorderConfigurations: configurations, raw: f.object)
    }

    static func decodeRecorderConfiguration(_ f: ResearchKitFields) throws(InputError)
        -> ResearchKit.RecorderConfiguration
    {
        ResearchKit.RecorderConfiguration(
            className: f.className, identifier: try f.string("identifier"),
            frequency: try f.optionalNumber("frequency", .nonNegative, unit: "Hz"),
            outputDirectory: try f.optionalString("outputDirectory"),
            rollingFileSizeThreshold: try f.optionalNumber("rollingFileSizeThreshold", .nonNegative, unit: "bytes"),
            recorderSettings: try f.optionalObject("recorderSettings", of: "an object (AVAudioRecorder settings)"),
            raw: f.object)
    }

    static func decodeWalkingTaskStep(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.WalkingTaskStep {
        ResearchKit.WalkingTaskStep(
            activeStep: try decodeActiveStep(f),
            numberOfStepsPerLeg: try f.optionalInteger(
                "numberOfStepsPerLeg", in: 0...Int.max, expected: "an integer ≥ 0 (steps)"))
    }

    static func decodeTimedWalkStep(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.TimedWalkStep {
        ResearchKit.TimedWalkStep(
            activeStep: try decodeActiveStep(f),
            distanceInMeters: try f.optionalNumber("distanceInMeters", .nonNegative, unit: "m"))
    }

    static func decodeSPLMeterStep(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.EnvironmentSPLMeterStep {
        ResearchKit.EnvironmentSPLMeterStep(
            activeStep: try decodeActiveStep(f),
            thresholdValue: try f.optionalNumber("thresholdValue", .finite, unit: "dB(A)"),
            samplingInterval: try f.optionalNumber("samplingInterval", .nonNegative, unit: "s"),
            requiredContiguousSamples: try f.optionalInteger(
                "requiredContiguousSamples", in: 0...Int.max, expected: "an integer ≥ 0 (samples)"))
    }

    static func decodeDBHLStep(_ f: ResearchKitFields) throws(InputError) -> ResearchKit.DBHLToneAudiometryStep {
        var step = ResearchKit.DBHLToneAudiometryStep(activeStep: try decodeActiveStep(f))
        step.toneDuration = try f.optionalNumber("toneDuration", .nonNegative, unit: "s")
        step.maxRandomPreStimulusDelay = try f.optionalNumber("maxRandomPreStimulusDelay", .nonNegative, unit: "s")
        step.postStimulusDelay = try f.optionalNumber("postStimulusDelay", .nonNegative, unit: "s")
        step.maxNumberOfTransitionsPerFrequency = try f.optionalInteger(
            "maxNumberOfTransitionsPerFrequency", in: 0...Int.max, expected: "an integer ≥ 0 (presentations)")
        step.initialdBHLValue = try f.optionalNumber("initialdBHLValue", .finite, unit: "dB HL")
        step.dBHLStepUpSize = try f.optionalNumber("dBHLStepUpSize", .nonNegative, unit: "dB")
        step.dBHLStepUpSizeFirstMiss = try f.optionalNumber("dBHLStepUpSizeFirstMiss", .nonNegative, unit: "dB")
        step.dBHLStepUpSizeSecondMiss = try f.optionalNumber("dBHLStepUpSizeSecondMiss", .nonNegative, unit: "dB")
        step.dBHLStepUpSizeThirdMiss = try f.optionalNumber("dBHLStepUpSizeThirdMiss", .nonNegative, unit: "dB")
        step.dBHLStepDownSize = try f.optionalNumber("dBHLStepDownSize", .nonNegative, unit: "dB")
        step.dBHLMinimumThreshold = try f.optionalNumber("dBHLMinimumThreshold", .finite, unit: "dB HL")
        step.headphoneType = try f.optionalString("headphoneType")
        step.earPreference = try f.optionalInteger("earPreference", in: Int.min...Int.max, expected: "an integer")
        if let values = try f.optionalArray("frequencyList", of: "frequencies (Hz)") {
            var frequencies: [Double] = []
            for (i, v) in values.enumerated() {
                let p = f.path.key("frequencyList").index(i)
                guard case .number(let hz) = v, hz >= 0, !ResearchKitFields.isSentinelMagnitude(hz) else {
                    throw f.context.error(at: p, expected: "a frequency ≥ 0 (Hz)", found: v.summary)
                }
                frequencies.append(hz)
            }
            step.frequencyList = frequencies
        }
        return step
    }
}
