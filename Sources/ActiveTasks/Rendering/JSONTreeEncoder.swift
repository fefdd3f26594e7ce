import Foundation

/// Encodes an `Encodable` value straight into a ``JSONValue`` tree, with no JSON text in between: how the exports
/// see a typed result.
///
/// The tree is the one `JSONEncoder` with `.sortedKeys` would write, parsed back: object keys sorted (Swift
/// `String` order, as `JSONEncoder` sorts them), integers as `Double`, optional properties left out when nil, `Float`
/// by its shortest decimal form, `Date` as seconds since 2001 (the default date strategy), `Data` as Base64, `URL`
/// as its absolute string, and a non-finite `Double` or `Float` rejected with `EncodingError.invalidValue` — a test
/// compares the two for every result type.
enum JSONTreeEncoder {
    /// The tree of `value`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number (as `JSONEncoder` does).
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try root.encode(value, codingPath: [])
        return root.tree
    }

    /// One value under construction.
    final class Node {
        enum Content {
            case unset
            case scalar(JSONValue)
            case object([String: Node])
            case array([Node])
        }
        var content = Content.unset

        /// The finished value; a value that encoded nothing is an empty object, as with `JSONEncoder`.
        var tree: JSONValue {
            switch content {
            case .unset: .object(JSONObject([]))
            case .scalar(let v): v
            case .array(let items): .array(items.map(\.tree))
            case .object(let members):
                .object(JSONObject(members.keys.sorted().map { ($0, members[$0]?.tree ?? .null) }))
            }
        }

        func makeObject() {
            if case .object = content { return }
            content = .object([:])
        }

        func makeArray() {
            if case .array = content { return }
            content = .array([])
        }

        func child(forKey key: String) -> Node {
            let node = Node()
            if case .object(var members) = content {
                content = .unset  // keep the dictionary uniquely referenced while it changes
                members[key] = node
                content = .object(members)
            }
            return node
        }

        func appendChild() -> Node {
            let node = Node()
            if case .array(var items) = content {
                content = .unset
                items.append(node)
                content = .array(items)
            }
            return node
        }

        var count: Int {
            if case .array(let items) = content { return items.count }
            return 0
        }

        func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
            switch value {
            case let d as Double: content = .scalar(try Self.number(d, codingPath))
            case let f as Float:
                // `JSONEncoder` writes a Float's shortest decimal form (0.1, not 0.10000000149011612).
                content = .scalar(
                    try Self.number(f.isFinite ? Double(f.description) ?? Double(f) : Double(f), codingPath))
            case let s as String: content = .scalar(.string(s))
            case let b as Bool: content = .scalar(.bool(b))
            case let data as Data: content = .scalar(.string(data.base64EncodedString()))
            case let url as URL: content = .scalar(.string(url.absoluteString))
            case let decimal as Decimal: content = .scalar(.number(NSDecimalNumber(decimal: decimal).doubleValue))
            default:
                if let n = Self.integer(value) {
                    content = .scalar(.number(n))
                } else {
                    try value.encode(to: TreeEncoder(node: self, codingPath: codingPath))
                }
            }
        }

        static func integer(_ value: some Encodable) -> Double? {
            switch value {
            case let n as Int: Double(n)
            case let n as Int8: Double(n)
            case let n as Int16: Double(n)
            case let n as Int32: Double(n)
            case let n as Int64: Double(n)
            case let n as UInt: Double(n)
            case let n as UInt8: Double(n)
            case let n as UInt16: Double(n)
            case let n as UInt32: Double(n)
            case let n as UInt64: Double(n)
            default: nil
            }
        }

        static func number(_ d: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
            guard d.isFinite else {
                throw EncodingError.invalidValue(
                    d, EncodingError.Context(codingPath: codingPath, debugDescription: "Unable to encode \(d) as JSON"))
            }
            return .number(d)
        }
    }

    struct TreeEncoder: Encoder {
        let node: Node
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.makeObject()
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.makeArray()
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
    }

    struct IndexKey: CodingKey {
        var stringValue: String { "Index \(intValue ?? 0)" }
        var intValue: Int?
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]

        func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .scalar(.null) }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = node.child(forKey: key.stringValue)
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(forKey: key.stringValue)
            child.makeArray()
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }

        func superEncoder() -> any Encoder {
            TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
        }

        func superEncoder(forKey key: Key) -> any Encoder {
            TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int { node.count }

        func encodeNil() throws { node.appendChild().content = .scalar(.null) }

        func encode<T: Encodable>(_ value: T) throws {
            let path = codingPath + [IndexKey(count)]
            try node.appendChild().encode(value, codingPath: path)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let path = codingPath + [IndexKey(count)]
            let child = node.appendChild()
            child.makeObject()
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: path))
        }

        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = codingPath + [IndexKey(count)]
            let child = node.appendChild()
            child.makeArray()
            return Unkeyed(node: child, codingPath: path)
        }

        func superEncoder() -> any Encoder {
            let path = codingPath + [IndexKey(count)]
            return TreeEncoder(node: node.appendChild(), codingPath: path)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]

        func encodeNil() throws { node.content = .scalar(.null) }

        func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
    }
}
