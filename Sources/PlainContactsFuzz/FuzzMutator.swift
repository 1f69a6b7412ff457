import FoundationEssentials
import PlainContacts
import PlainContactsSystem

/// Seeded damage to valid file contents, for ``StoreFuzzer``: bit flips, numbers at the edges
/// of their ranges, huge strings, deep nesting, invalid UTF-8, Git conflict markers, cuts.
struct FuzzMutator {
    /// The generator: the same on every machine, so that a seed replays a case.
    typealias Random = SeededRandom

    /// Numbers at the edges of the ranges the store reads.
    static let boundaryNumbers = [
        "2147483647", "2147483646", "2147483648", "-1", "0", "-2147483648", "4294967296",
        "9223372036854775807", "9223372036854775808", "1e309", "-1e309", "1e-400", "0.5", "1E2", "-0",
        "00", "1.0", "18446744073709551616",
    ]

    /// Fragments that break or bend JSON.
    static let tokens = [
        "\"", "{", "}", "[", "]", ",", ":", "null", "true", "\"id\": 2147483647,", "\"nextValueID\": 2147483647,",
        "\\u0000", "\\ud800", "\\", "\"value\": 1,", "\"id\": -1,", "{\"value\": \"x\"},", "\n",
    ]

    var random: Random

    init(seed: UInt64) {
        random = Random(seed: seed)
    }

    /// A number below `bound` (which must be positive).
    mutating func below(_ bound: Int) -> Int {
        Int.random(in: 0..<bound, using: &random)
    }

    /// `data` with a few mutations: mostly of its JSON structure (a value replaced by an edge
    /// case) followed by at most one of its bytes, otherwise of one to four of its bytes.
    mutating func mutate(_ data: Data) -> Data {
        var result = data
        var byteMutations = 1 + below(4)
        if below(3) != 0, let json = try? JSONParser.parse(data, path: "seed") {
            var value = json
            for _ in 0...below(3) { value = mutateStructure(value) }
            result = CanonicalJSON.encode(value)
            byteMutations = below(4) == 0 ? 1 : 0
        }
        var bytes = [UInt8](result)
        for _ in 0..<byteMutations { mutateOnce(&bytes) }
        return Data(bytes)
    }

    /// `value` with one of its nodes replaced, removed or given a new member.
    private mutating func mutateStructure(_ value: JSONValue) -> JSONValue {
        var target = below(Self.nodeCount(value))
        return replacing(value, target: &target)
    }

    private static func nodeCount(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): 1 + items.reduce(0) { $0 + nodeCount($1) }
        case .object(let members): 1 + members.values.reduce(0) { $0 + nodeCount($1) }
        default: 1
        }
    }

    /// Walks the nodes in order and replaces the `target`-th.
    private mutating func replacing(_ value: JSONValue, target: inout Int) -> JSONValue {
        if target == 0 {
            target = -1
            return edgeCase(for: value)
        }
        target -= 1
        switch value {
        case .array(let items):
            var result: [JSONValue] = []
            for item in items { result.append(target >= 0 ? replacing(item, target: &target) : item) }
            return .array(result)
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                result[key] = target >= 0 ? replacing(member, target: &target) : member
            }
            return .object(result)
        default:
            return value
        }
    }

    /// A value at the edge of what the store reads, in place of `value`.
    private mutating func edgeCase(for value: JSONValue) -> JSONValue {
        let numbers = Self.boundaryNumbers.compactMap(JSONNumber.init(literal:))
        if case .number = value, below(4) != 0 { return .number(numbers[below(numbers.count)]) }
        switch below(9) {
        case 0, 1:
            return .number(numbers[below(numbers.count)])
        case 2:
            return .string(String(repeating: ["a", "é", "\u{301}", "名", "\n"][below(5)], count: 1 + below(100_000)))
        case 3:
            let scalars: [Unicode.Scalar] = ["\u{0}", "\u{FEFF}", "\u{202E}", "/", "\\", "\u{10FFFF}"]
            return .string(String(scalars[below(scalars.count)]))
        case 4:
            var nested = JSONValue.array([])
            for _ in 0..<(1 + below(600)) { nested = below(2) == 0 ? .array([nested]) : .object(["value": nested]) }
            return nested
        case 5:
            return [JSONValue.null, .bool(true), .array([]), .object([:]), .string("")][below(5)]
        case 6:
            guard case .object(var members) = value, let key = members.keys.sorted().randomElement(using: &random) else {
                return .object(["id": .number(JSONNumber(Int(Int32.max))), "value": value])
            }
            members[key] = nil
            return .object(members)
        case 7:
            guard case .object(var members) = value else { return .array([value, value]) }
            let keys = ["id", "value", "label", "nextValueID", "phones", "name", "format", "x-new"]
            members[keys[below(keys.count)]] = below(2) == 0 ? .number(JSONNumber(Int(Int32.max))) : .string("x")
            return .object(members)
        default:
            guard case .array(let items) = value, !items.isEmpty else { return value }
            return .array(items + items)
        }
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8]) {
        let position = bytes.isEmpty ? 0 : below(bytes.count + 1)
        switch below(11) {
        case 0 where !bytes.isEmpty:
            bytes[below(bytes.count)] ^= UInt8(1) << UInt8(below(8))
        case 1:
            replaceNumber(&bytes, with: Self.boundaryNumbers[below(Self.boundaryNumbers.count)])
        case 2:
            bytes.insert(contentsOf: Array(Self.tokens[below(Self.tokens.count)].utf8), at: position)
        case 3:
            let invalid: [[UInt8]] = [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0]]
            bytes.insert(contentsOf: invalid[below(invalid.count)], at: position)
        case 4:
            insertConflictMarkers(&bytes)
        case 5:
            let huge = [UInt8(ascii: "\"")] + Self.repeated(["a", "é", "\\n", "名"][below(4)], count: 20_000 + below(30_000))
                + [UInt8(ascii: "\"")]
            bytes.insert(contentsOf: huge, at: position)
        case 6:
            let depth = 100 + below(20_000)
            let (open, close) = below(2) == 0 ? ("[", "]") : ("{\"a\":", "}")
            let nesting = Self.repeated(open, count: depth) + (below(2) == 0 ? Self.repeated(close, count: depth) : [])
            bytes.insert(contentsOf: nesting, at: position)
        case 7:
            bytes.removeSubrange(position..<min(bytes.count, position + below(40)))
        case 8:
            bytes.removeSubrange(position...)
        case 9 where !bytes.isEmpty:
            let start = below(bytes.count)
            let piece = bytes[start..<min(bytes.count, start + below(200))]
            bytes.insert(contentsOf: piece, at: position)
        default:
            bytes.insert(UInt8(truncatingIfNeeded: below(256)), at: position)
        }
    }

    /// Replaces one run of digits (with its sign) by `number`.
    private mutating func replaceNumber(_ bytes: inout [UInt8], with number: String) {
        let starts = bytes.indices.filter { index in
            Self.isDigit(bytes[index]) && (index == 0 || !Self.isDigit(bytes[index - 1]))
        }
        guard !starts.isEmpty else { return }
        var start = starts[below(starts.count)]
        var end = start
        while end < bytes.count, Self.isDigit(bytes[end]) { end += 1 }
        if start > 0, bytes[start - 1] == UInt8(ascii: "-") { start -= 1 }
        bytes.replaceSubrange(start..<end, with: Array(number.utf8))
    }

    private mutating func insertConflictMarkers(_ bytes: inout [UInt8]) {
        let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        let first = lineStarts[below(lineStarts.count)]
        let markers = ["<<<<<<< ours\n", "=======\n", ">>>>>>> theirs\n", "||||||| base\n"]
        let count = 1 + below(3)
        var at = first
        for marker in markers.prefix(count) {
            bytes.insert(contentsOf: Array(marker.utf8), at: min(at, bytes.count))
            at = min(bytes.count, at + marker.utf8.count + below(60))
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// A short, printable view of an input for a failure report: its length and first bytes
    /// with non-printable ones escaped.
    static func preview(_ data: Data, limit: Int = 300) -> String {
        var text = ""
        for byte in data.prefix(limit) {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return "\(data.count) bytes: \(text)\(data.count > limit ? "…" : "")"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
