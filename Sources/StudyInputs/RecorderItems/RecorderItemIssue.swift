/// Something questionable in a small recorder log that is reported rather than rejected or silently fixed.
///
/// Item decoders (``PedometerLog``, ``LocationLog``, ``TouchLog``, ``HealthQuantityLog``) throw ``InputError`` for
/// items they cannot represent (wrong type, bad date, out-of-range value); semantic oddities between otherwise
/// valid items, such as a cumulative count going down, become issues and the data is kept as recorded unless the
/// issue says otherwise.
public struct RecorderItemIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of oddity.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A cumulative value (pedometer steps, distance, floors) is smaller than in an earlier item. Kept as recorded.
        case cumulativeDecrease
        /// A time is earlier than the same field of the item before. Items are kept in file order.
        case timeWentBackwards
        /// An item's `endDate` is before its `startDate`. Kept as recorded.
        case endBeforeStart
        /// A pedometer item's `startDate` differs from the first item's (each should be the recording start).
        case startDateChanged
        /// A negative value CoreLocation uses to mean "invalid" (e.g. `speed` −1): decoded as absent, together with
        /// the values it qualifies (a negative `horizontalAccuracy` also drops the coordinate).
        case invalidMarkerDropped
    }

    /// What kind of oddity.
    public var kind: Kind
    /// Position of the item in the items array (0-based).
    public var itemIndex: Int
    /// JSON path of the field concerned, such as `$.items[4].numberOfSteps`.
    public var location: String
    /// One sentence explaining it, with the values involved.
    public var message: String

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - kind: What kind of oddity.
    ///   - itemIndex: The item's position (0-based).
    ///   - location: JSON path of the field.
    ///   - message: One sentence with the values involved.
    public init(_ kind: Kind, itemIndex: Int, location: String, message: String) {
        self.kind = kind
        self.itemIndex = itemIndex
        self.location = location
        self.message = message
    }

    /// `location: message`.
    public var description: String { "\(location): \(message)" }
}
