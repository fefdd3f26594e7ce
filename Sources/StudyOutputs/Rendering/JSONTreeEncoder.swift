import ActiveTasks
import Foundation
import StudyInputs

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
        try root.encode(value, codingPath: { [] })
        return root.tree
    }

    /// One value under construction.
    ///
    /// A container (object or array), or a value encoded through its own `encode(to:)`. Scalars inside containers
    /// are stored as values, without a node (see ``Child``).
    final class Node {
        enum Content {
            case unset
            case scalar(JSONValue)
            case object([String: Child])
            case array([Child])
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

        func set(_ child: Child, forKey key: String) {
            if case .object(var members) = content {
                content = .unset  // keep the dictionary uniquely referenced while it changes
                members[key] = child
                content = .object(members)
            }
        }

        func append(_ child: Child) {
            if case .array(var items) = content {
                content = .unset
                items.append(child)
                content = .array(items)
            }
        }

        func child(forKey key: String) -> Node {
            let node = Node()
            set(.node(node), forKey: key)
            return node
        }

        func appendChild() -> Node {
            let node = Node()
            append(.node(node))
            return node
        }

        var count: Int {
            if case .array(let items) = content { return items.count }
            return 0
        }

        /// Encodes `value` here; `codingPath` is only evaluated when a number is refused.
        func encode(_ value: some Encodable, codingPath: () -> [any CodingKey]) throws {
            if let scalar = try Self.scalar(value, codingPath: codingPath) {
                content = .scalar(scalar)
            } else {
                try value.encode(to: TreeEncoder(node: self, codingPath: codingPath()))
            }
        }

        /// The value of `value` when it is one `JSONEncoder` writes directly (number, string, Boolean, `Data`, `URL`,
        /// `Decimal`), else nil; `codingPath` is only evaluated for the error.
        /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` or `Float`.
        static func scalar(_ value: some Encodable, codingPath: () -> [any CodingKey]) throws -> JSONValue? {
            switch value {
            case let d as Double: return try number(d, codingPath)
            case let f as Float:
                // `JSONEncoder` writes a Float's shortest decimal form (0.1, not 0.10000000149011612).
                return try number(f.isFinite ? Double(f.description) ?? Double(f) : Double(f), codingPath)
            case let s as String: return .string(s)
            case let b as Bool: return .bool(b)
            case let data as Data: return .string(data.base64EncodedString())
            case let url as URL: return .string(url.absoluteString)
            case let decimal as Decimal: return .number(NSDecimalNumber(decimal: decimal).doubleValue)
            default: return integer(value).map(JSONValue.number)
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

        static func number(_ d: Double, _ codingPath: () -> [any CodingKey]) throws -> JSONValue {
            guard d.isFinite else {
                throw EncodingError.invalidValue(
                    d,
                    EncodingError.Context(codingPath: codingPath(), debugDescription: "Unable to encode \(d) as JSON"))
            }
            return .number(d)
        }
    }

    /// A member of an object or an element of an array: a finished value, or a node still being encoded.
    enum Child {
        case value(JSONValue)
        case node(Node)

        var tree: JSONValue {
            switch self {
            case .value(let v): v
            case .node(let n): n.tree
            }
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

        func encodeNil(forKey key: Key) throws { node.set(.value(.null), forKey: key.stringValue) }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let scalar = try Node.scalar(value, codingPath: { codingPath + [key] }) {
                node.set(.value(scalar), forKey: key.stringValue)
            } else {
                // Not a scalar (already checked): the value encodes itself.
                let child = node.child(forKey: key.stringValue)
                try value.encode(to: TreeEncoder(node: child, codingPath: codingPath + [key]))
            }
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

        func encodeNil() throws { node.append(.value(.null)) }

        // One element of an array: a scalar is stored as it is, and the coding path is only made for an error
        // (an array of numbers costs no allocation per element).
        func encode<T: Encodable>(_ value: T) throws {
            let index = count
            if let scalar = try Node.scalar(value, codingPath: { codingPath + [IndexKey(index)] }) {
                node.append(.value(scalar))
            } else {
                // Not a scalar (already checked): the value encodes itself.
                let child = node.appendChild()
                try value.encode(to: TreeEncoder(node: child, codingPath: codingPath + [IndexKey(index)]))
            }
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

        func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: { codingPath }) }
    }
}
