import Foundation

extension KeyedEncodingContainer {
    /// Encodes `value`, or an explicit `null` when it is nil.
    package mutating func encodeNullable<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
