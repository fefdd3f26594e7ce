extension ResearchKit {
    /// One tone presentation of a dB HL staircase (`ORKdBHLToneAudiometryUnit`).
    ///
    /// Times are seconds of step runtime (the active-step timer, pauses excluded); 0 in
    /// `userTapTimeStamp`/`timeoutTimeStamp` means "did not happen".
    public struct DBHLToneAudiometryUnit: Sendable, Hashable, Codable {
        /// Presented level, dB HL.
        public var dBHLValue: Double
        /// Step runtime when the presentation was scheduled, s (0 for the very first).
        public var startOfUnitTimeStamp: Double
        /// Random silent gap before tone onset, s.
        public var preStimulusDelay: Double
        /// Step runtime of the participant's tap, s; 0 = no tap.
        public var userTapTimeStamp: Double
        /// Step runtime when the response window expired, s; 0 = not a miss.
        public var timeoutTimeStamp: Double

        /// Creates a unit.
        public init(
            dBHLValue: Double, startOfUnitTimeStamp: Double, preStimulusDelay: Double, userTapTimeStamp: Double,
            timeoutTimeStamp: Double
        ) {
            self.dBHLValue = dBHLValue
            self.startOfUnitTimeStamp = startOfUnitTimeStamp
            self.preStimulusDelay = preStimulusDelay
            self.userTapTimeStamp = userTapTimeStamp
            self.timeoutTimeStamp = timeoutTimeStamp
        }

        /// Step runtime of tone onset, s: `startOfUnitTimeStamp + preStimulusDelay`.
        public var toneOnset: Double { startOfUnitTimeStamp + preStimulusDelay }

        /// True when the participant tapped during this presentation.
        public var wasTapped: Bool { userTapTimeStamp != 0 }

        /// True when the response window expired without a tap.
        public var timedOut: Bool { timeoutTimeStamp != 0 }

        /// True when the presentation was aborted (neither a tap nor a timeout: the tone would have clipped).
        public var wasAborted: Bool { userTapTimeStamp == 0 && timeoutTimeStamp == 0 }

        /// True when the tap came before tone onset (a false alarm).
        public var isFalseAlarm: Bool { wasTapped && userTapTimeStamp < toneOnset }
    }
}
