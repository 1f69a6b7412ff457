import FoundationEssentials

/// The list of operations of one commit, as written to `<store>/.contacts/journal`.
///
/// The journal's appearance under its final name is a commit's commit point. Its format is
/// line based, with every path length-prefixed so that any UTF-8 path (even one holding a
/// newline) round-trips, and a closing line with a checksum so that a torn or damaged
/// journal is recognised and treated as "not committed":
///
/// ```
/// plaincontacts-journal 1
/// transaction 3f9c0a…
/// w 0 27
/// people/katie-bell-x7k2.json
/// d 26
/// people/old-entry-a1b2.json
/// end 2 9b1e4c0d5a7f2e11
/// ```
///
/// `w <n> <length>` moves staged file `<n>` onto the path on the next line; `d <length>` removes
/// the path on the next line. The `end` line repeats the number of operations and holds the
/// 64-bit FNV-1a hash of every byte before it, in hexadecimal.
struct TransactionJournal: Sendable, Equatable {
    /// One operation of a commit.
    enum Operation: Sendable, Equatable {
        /// Move the staged file numbered `staged` onto `target` (relative to the store root).
        case write(staged: Int, target: String)
        /// Remove `target` (relative to the store root).
        case delete(target: String)

        /// The path relative to the store root that the operation changes.
        var target: String {
            switch self {
            case .write(_, let target), .delete(let target): target
            }
        }
    }

    /// The random hexadecimal name of the commit, also the name of its staging folder.
    var transactionID: String
    /// The operations, in the order they are applied.
    var operations: [Operation]

    private static let header = "plaincontacts-journal 1"

    /// The journal's bytes.
    func encoded() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + operations.count * 48)
        func line(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        line(Self.header)
        line("transaction \(transactionID)")
        for operation in operations {
            switch operation {
            case .write(let staged, let target):
                line("w \(staged) \(target.utf8.count)")
                line(target)
            case .delete(let target):
                line("d \(target.utf8.count)")
                line(target)
            }
        }
        let checksum = Self.checksum(bytes[...])
        line("end \(operations.count) \(checksum)")
        return Data(bytes)
    }

    /// Creates a journal with the given name and operations.
    init(transactionID: String, operations: [Operation]) {
        self.transactionID = transactionID
        self.operations = operations
    }

    /// Reads a journal; `nil` when the bytes are torn, damaged or not a journal at all.
    init?(decoding data: Data) {
        var reader = Reader(bytes: [UInt8](data))
        guard reader.line() == Self.header,
            let idLine = reader.line(), idLine.hasPrefix("transaction "),
            case let transactionID = String(idLine.dropFirst("transaction ".count)),
            !transactionID.isEmpty, transactionID.allSatisfy(\.isHexDigit)
        else { return nil }
        var operations: [Operation] = []
        while true {
            let lineStart = reader.offset
            guard let fields = reader.line()?.split(separator: " ", omittingEmptySubsequences: false)
            else { return nil }
            switch (fields.first, fields.count) {
            case ("w", 3):
                guard let staged = Int(fields[1]), staged >= 0, let length = Int(fields[2]),
                    let target = reader.path(length: length)
                else { return nil }
                operations.append(.write(staged: staged, target: target))
            case ("d", 2):
                guard let length = Int(fields[1]), let target = reader.path(length: length) else { return nil }
                operations.append(.delete(target: target))
            case ("end", 3):
                guard Int(fields[1]) == operations.count,
                    String(fields[2]) == Self.checksum(reader.bytes[..<lineStart]),
                    reader.isAtEnd
                else { return nil }
                self.init(transactionID: transactionID, operations: operations)
                return
            default:
                return nil
            }
        }
    }

    /// The 64-bit FNV-1a hash of `bytes`, as 16 hexadecimal digits.
    private static func checksum(_ bytes: ArraySlice<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Walks the journal's bytes line by line.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        /// The next line without its newline; `nil` if no complete line is left or it is not UTF-8.
        mutating func line() -> String? {
            guard let newline = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let text = String(validating: bytes[offset..<newline], as: UTF8.self)
            offset = newline + 1
            return text
        }

        /// The next `length` bytes as an acceptable store path followed by a newline.
        mutating func path(length: Int) -> String? {
            guard length > 0, length < bytes.count - offset,
                bytes[offset + length] == UInt8(ascii: "\n"),
                let text = String(validating: bytes[offset..<(offset + length)], as: UTF8.self),
                FileChange.isAcceptablePath(text)
            else { return nil }
            offset += length + 1
            return text
        }
    }
}
