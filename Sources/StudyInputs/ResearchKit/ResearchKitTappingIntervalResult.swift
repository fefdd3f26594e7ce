extension ResearchKit {
    /// The result of a two-finger tapping step (`ORKTappingIntervalResult`).
    public struct TappingIntervalResult: Sendable, Hashable, Codable {
        /// Class, step identifier (`tapping.left`, `tapping.right`, …), start/end of the step, user info.
        public var header: ResultHeader
        /// One sample per touch-down, in recorded order; `timestamp` s from the first button tap, `duration`
        /// s touch-down to touch-up (0 for `none`), location in step-view points.
        public var samples: [TapSample]
        /// Size of the step's root view, points; nil when absent.
        public var stepViewSize: ViewSize?
        /// Frame of the left button (`buttonRect1`) in step-view coordinates, points; nil when absent.
        public var buttonRect1: ViewRect?
        /// Frame of the right button (`buttonRect2`) in step-view coordinates, points; nil when absent.
        public var buttonRect2: ViewRect?

        /// Creates a tapping result.
        public init(
            header: ResultHeader, samples: [TapSample], stepViewSize: ViewSize? = nil, buttonRect1: ViewRect? = nil,
            buttonRect2: ViewRect? = nil
        ) {
            self.header = header
            self.samples = samples
            self.stepViewSize = stepViewSize
            self.buttonRect1 = buttonRect1
            self.buttonRect2 = buttonRect2
        }

        /// The step identifier.
        public var identifier: String { header.identifier }

        /// The dialect-independent tapping model the tapping processor consumes.
        public var recording: TappingRecording {
            TappingRecording(
                samples: samples, leftButton: buttonRect1, rightButton: buttonRect2, viewSize: stepViewSize,
                stepIdentifier: header.identifier, startDate: header.startDate, endDate: header.endDate)
        }
    }
}
