extension ResearchKit {
    /// The ear a tone was played to (`ORKAudioChannel`, an integer in JSON).
    public enum AudioChannel: Int, Sendable, Hashable, Codable, CaseIterable {
        /// `0`: the left ear.
        case left = 0
        /// `1`: the right ear.
        case right = 1
    }
}
