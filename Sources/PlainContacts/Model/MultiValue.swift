import PlainContactsSystem
/// The stable identifier of one value within a multi-value property.
///
/// It stays the same across saves, reloads, and the insertion or removal of other values, and
/// is never given to a new value of the same property of the same record. Identifiers run
/// from 0 to 2,147,483,646. The first value added in one edit of a saved record lands a random
/// amount (below 65,536) above the record's counter, so that clones of a store adding values
/// to the same record rarely pick the same identifier; a record never saved, and a
/// multi-value made on its own, number their values 0, 1, 2…
///
/// The AddressBook equivalent is `ABMultiValueIdentifier`, with ``invalid`` for
/// `kABMultiValueInvalidIdentifier`.
public struct MultiValueIdentifier: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32-bit value.
    public var rawValue: Int32

    /// Creates an identifier from its 32-bit value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// No value (`kABMultiValueInvalidIdentifier`).
    public static let invalid = MultiValueIdentifier(rawValue: -1)

    /// The highest identifier a value can receive, 2147483646: one below `Int32.max`, so that a
    /// record's counter (`"nextValueID"`) of 2147483647 can say that every identifier has been
    /// handed out.
    static let highest: Int32 = Int32.max - 1

    /// The identifier after `rawValue`, or `Int32.max` (none left) past ``highest``.
    static func successor(of rawValue: Int32) -> Int32 {
        rawValue < Int32.max ? rawValue + 1 : Int32.max
    }

    /// How far ahead of a saved record's counter the first value added in one edit may land:
    /// 65,536 identifiers, so that two clones adding values to the same record before they
    /// pull each other pick the same identifier once in 65,536 times. A record can take
    /// about 65,000 such edits (2^31 / the mean jump of 32,768) before the jumps shrink.
    static let spreadWidth: Int64 = 65_536

    /// The first identifier to hand out in an edit of a saved record whose counter is
    /// `counter`: the counter plus a random jump below ``spreadWidth``, or below a sixteenth of
    /// the identifiers left near the top of the range, down to no jump at all. `counter` itself
    /// when none is left.
    static func spreadStart<G: RandomNumberGenerator>(from counter: Int32, using generator: inout G) -> Int32 {
        guard counter >= 0, counter <= highest else { return counter }
        let left = Int64(highest) - Int64(counter) + 1
        let width = Swift.max(1, Swift.min(spreadWidth, left / 16))
        return counter + Int32(Int64.random(in: 0..<width, using: &generator))
    }

    /// ``spreadStart(from:using:)`` with the system's random numbers.
    static func spreadStart(from counter: Int32) -> Int32 {
        var generator = SystemRandomNumberGenerator()
        return spreadStart(from: counter, using: &generator)
    }

    public static func < (lhs: MultiValueIdentifier, rhs: MultiValueIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { String(rawValue) }
}

/// An ordered list of labelled values, such as a person's phone numbers.
///
/// A multi-value is a value type: a copy taken from a person is independent until it is set
/// back with ``Person/setValue(_:for:)`` or a typed property such as ``Person/phones``. This
/// replaces AddressBook's immutable `ABMultiValueRef` and mutable `ABMutableMultiValueRef`.
///
/// ```swift
/// var phones = person.phones
/// let id = phones.add("555-0100", label: .mobile)
/// phones.replaceLabel(at: phones.index(for: id) ?? 0, with: .work)
/// person.phones = phones
/// ```
public struct MultiValue<Value: Sendable & Hashable>: Sendable, Hashable, RandomAccessCollection {
    /// One labelled value and its identifier.
    public struct Entry: Sendable, Hashable {
        /// The value's stable identifier.
        public let identifier: MultiValueIdentifier
        /// The label, or `nil` for none.
        public var label: Label?
        /// The value.
        public var value: Value
        /// Keys found in the file beside `id`, `label` and `value` that this version does not
        /// know; kept on rewrite.
        var unknownFields: [String: JSONValue] = [:]

        init(identifier: MultiValueIdentifier, label: Label?, value: Value,
                     unknownFields: [String: JSONValue] = [:]) {
            self.identifier = identifier
            self.label = label
            self.value = value
            self.unknownFields = unknownFields
        }
    }

    /// The entries in order.
    public private(set) var entries: [Entry]
    /// The identifier the next added value receives (before the jump, when
    /// ``spreadsNextIdentifier``).
    private(set) var nextIdentifier: Int32
    /// Whether this multi-value was read from a person through ``continuing(from:spreading:)``,
    /// so that values it adds take identifiers the person has not handed out.
    private var continuesRecord = false
    /// Whether the next added value jumps ahead of ``nextIdentifier`` (see
    /// ``MultiValueIdentifier/spreadStart(from:using:)``); later ones continue from it.
    private var spreadsNextIdentifier = false

    /// Creates an empty multi-value.
    ///
    /// The AddressBook equivalent is `ABMultiValueCreateMutable`.
    public init() {
        entries = []
        nextIdentifier = 0
    }

    /// Creates a multi-value from values and labels, identified 0, 1, 2…
    public init(_ values: [(value: Value, label: Label?)]) {
        self.init()
        for item in values { add(item.value, label: item.label) }
    }

    init(entries: [Entry], nextIdentifier: Int32) {
        self.entries = entries
        let highest = entries.map(\.identifier.rawValue).max() ?? -1
        self.nextIdentifier = Swift.max(nextIdentifier, MultiValueIdentifier.successor(of: highest))
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    /// The value at an index (`ABMultiValueCopyValueAtIndex`).
    public func value(at index: Int) -> Value { entries[index].value }

    /// The label at an index (`ABMultiValueCopyLabelAtIndex`).
    public func label(at index: Int) -> Label? { entries[index].label }

    /// Every value in order (`ABMultiValueCopyArrayOfAllValues`).
    public var values: [Value] { entries.map(\.value) }

    /// The index of the value with an identifier, or `nil` (`ABMultiValueGetIndexForIdentifier`).
    public func index(for identifier: MultiValueIdentifier) -> Int? {
        entries.firstIndex { $0.identifier == identifier }
    }

    /// The identifier of the value at an index (`ABMultiValueGetIdentifierAtIndex`).
    public func identifier(at index: Int) -> MultiValueIdentifier { entries[index].identifier }

    /// The index of the first entry holding a value, or `nil` (`ABMultiValueGetFirstIndexOfValue`).
    public func firstIndex(of value: Value) -> Int? {
        entries.firstIndex { $0.value == value }
    }

    /// Appends a value and returns its new identifier (`ABMultiValueAddValueAndLabel`).
    ///
    /// When every identifier has been handed out (2,147,483,647 of them), nothing is added and
    /// the result is ``MultiValueIdentifier/invalid``, as the AddressBook function returns false.
    @discardableResult
    public mutating func add(_ value: Value, label: Label? = nil) -> MultiValueIdentifier {
        insert(value, label: label, at: entries.count)
    }

    /// Inserts a value at an index and returns its new identifier
    /// (`ABMultiValueInsertValueAndLabelAtIndex`).
    ///
    /// When every identifier has been handed out (2,147,483,647 of them), nothing is inserted
    /// and the result is ``MultiValueIdentifier/invalid``.
    @discardableResult
    public mutating func insert(_ value: Value, label: Label? = nil, at index: Int) -> MultiValueIdentifier {
        if spreadsNextIdentifier {
            nextIdentifier = MultiValueIdentifier.spreadStart(from: nextIdentifier)
            spreadsNextIdentifier = false
        }
        guard nextIdentifier <= MultiValueIdentifier.highest else { return .invalid }
        let identifier = MultiValueIdentifier(rawValue: nextIdentifier)
        nextIdentifier += 1
        entries.insert(Entry(identifier: identifier, label: label, value: value), at: index)
        return identifier
    }

    /// Replaces the value at an index, keeping its label and identifier
    /// (`ABMultiValueReplaceValueAtIndex`).
    public mutating func replaceValue(at index: Int, with value: Value) {
        entries[index].value = value
    }

    /// Replaces the label at an index (`ABMultiValueReplaceLabelAtIndex`).
    public mutating func replaceLabel(at index: Int, with label: Label?) {
        entries[index].label = label
    }

    /// Removes the value at an index (`ABMultiValueRemoveValueAndLabelAtIndex`); its identifier is
    /// never handed out again.
    public mutating func remove(at index: Int) {
        entries.remove(at: index)
    }

    /// Two multi-values are equal when they hold the same entries in the same order; the
    /// internal identifier counter does not take part.
    public static func == (lhs: MultiValue<Value>, rhs: MultiValue<Value>) -> Bool {
        lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }

    /// This multi-value with its counter moved up to a record's counter, so that values added to
    /// it never reuse an identifier the record has handed out. For a saved record
    /// (`spreading`), the first value added jumps ahead of the counter by a random amount, so
    /// that clones adding values to the same record rarely pick the same identifier.
    func continuing(from recordCounter: Int32, spreading: Bool = false) -> MultiValue<Value> {
        var copy = self
        copy.nextIdentifier = Swift.max(nextIdentifier, recordCounter)
        copy.continuesRecord = true
        copy.spreadsNextIdentifier = spreading
        return copy
    }

    /// Gives identifiers to entries so that none reuses an identifier retired from `previous`.
    ///
    /// Entries whose identifier exists in `previous` keep it; an entry whose identifier is below
    /// the record's counter but not in `previous` is a newcomer and gets a fresh identifier.
    /// For a saved record (`spreading`), every newcomer of a multi-value made on its own (not
    /// read from the person) gets a fresh identifier too, and the first fresh identifier jumps
    /// ahead of the counter (see ``MultiValueIdentifier/spreadStart(from:using:)``).
    ///
    /// - Throws: ``ContactsError/Code/identifiersExhausted`` when a newcomer needs an
    ///   identifier and the record has handed out every one.
    func reconciled(
        with previous: MultiValue<Value>?, recordCounter: inout Int32, spreading: Bool = false
    ) throws -> MultiValue<Value> {
        let kept = Set(previous?.entries.map(\.identifier) ?? [])
        var counter = Swift.max(recordCounter, previous?.nextIdentifier ?? 0)
        let renumbersEveryNewcomer = spreading && !continuesRecord
        var jumps = spreading
        var result = self
        for index in result.entries.indices {
            let entry = result.entries[index]
            if kept.contains(entry.identifier) { continue }
            if renumbersEveryNewcomer || entry.identifier.rawValue < counter {
                if jumps {
                    counter = MultiValueIdentifier.spreadStart(from: counter)
                    jumps = false
                }
                guard counter <= MultiValueIdentifier.highest else { throw ContactsError.identifiersExhausted(path: nil) }
                result.entries[index] = Entry(
                    identifier: MultiValueIdentifier(rawValue: counter), label: entry.label,
                    value: entry.value, unknownFields: entry.unknownFields)
                counter += 1
            } else {
                counter = Swift.max(counter, MultiValueIdentifier.successor(of: entry.identifier.rawValue))
            }
        }
        counter = Swift.max(counter, nextIdentifier)
        result.nextIdentifier = counter
        result.continuesRecord = false
        result.spreadsNextIdentifier = false
        recordCounter = counter
        return result
    }
}
