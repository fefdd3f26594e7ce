/// `JSONValue` encodes as the JSON it holds, so results that keep raw objects (`userInfo`, unknown classes)
/// can be written with `JSONEncoder`.
extension JSONValue: Codable {
    /// Encodes the value as itself (objects keep document key order unless the encoder sorts keys).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            try o.encode(to: encoder)
        }
    }

    /// Decodes any JSON value (object keys sorted, since `Decoder` does not expose document order).
    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: JSONObjectKey.self) {
            self = .object(try JSONObject(from: c))
            return
        }
        if var c = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !c.isAtEnd { items.append(try c.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else {
            self = .string(try c.decode(String.self))
        }
    }
}

/// `JSONObject` encodes as a JSON object.
extension JSONObject: Codable {
    /// Encodes the entries in document order (the last value of a repeated key wins).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: JSONObjectKey.self)
        for entry in uniqueEntries {
            try c.encode(entry.value, forKey: JSONObjectKey(entry.key))
        }
    }

    /// Decodes an object; keys come out sorted because `Decoder` does not expose document order.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder.container(keyedBy: JSONObjectKey.self))
    }

    fileprivate init(from c: KeyedDecodingContainer<JSONObjectKey>) throws {
        var entries: [(key: String, value: JSONValue)] = []
        for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            entries.append((key.stringValue, try c.decode(JSONValue.self, forKey: key)))
        }
        self.init(entries)
    }
}

/// A coding key for arbitrary object member names.
private struct JSONObjectKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
