import FoundationEssentials

/// A person or organization record.
///
/// A person may be created on its own and added to an address book later. Changes to a person
/// that belongs to a book are that book's unsaved changes until ``AddressBook/save()``.
/// Persons are not `Sendable`: like the book they belong to, use them from one thread and pass
/// ``recordID`` or a ``PersonReference`` across threads instead.
///
/// The AddressBook equivalent is an `ABRecordRef` of type `kABPersonType`, created by
/// `ABPersonCreate`.
///
/// ```swift
/// let person = Person()
/// person.firstName = "Katie"
/// person.lastName = "Bell"
/// var phones = MultiValue<String>()
/// phones.add("555-1234", label: .mobile)
/// person.phones = phones
/// try book.add(person)
/// try book.save()
/// ```
public final class Person {
    /// The record ID, ``RecordID/invalid`` until the person is first saved
    /// (`ABRecordGetRecordID`).
    public package(set) var recordID: RecordID = .invalid

    /// The record type, always ``RecordType/person`` (`ABRecordGetRecordType`).
    public var recordType: RecordType { .person }

    /// The file key, fixed by the first save and never changed afterwards.
    package var key: RecordKey?

    /// The record's contents. Set only inside the store: other layers change a person through
    /// its properties or a named operation such as ``AddressBook/applyCard(_:to:merging:placement:)``.
    package internal(set) var state: PersonState {
        didSet { owner?.noteTouched(self) }
    }

    /// The book this person was added to, if any.
    weak var owner: (any RecordOwner)? {
        didSet { if let owner { imageSource = owner.imageSource } }
    }

    /// Where a saved image's bytes are read from: the store the person was loaded from or saved
    /// to, kept after its book is gone. The person never reads a file itself.
    var imageSource: (any PersonImageSource)?

    /// Creates an empty person that belongs to no address book (`ABPersonCreate`).
    public init() {
        state = PersonState()
    }

    /// A person read from a record file, in no book: what a card is made from.
    init(state: PersonState, key: RecordKey? = nil, recordID: RecordID = .invalid) {
        self.key = key
        self.recordID = recordID
        self.state = state
    }

    init(key: RecordKey, recordID: RecordID, state: PersonState, owner: any RecordOwner) {
        self.key = key
        self.recordID = recordID
        self.state = state
        self.owner = owner
        self.imageSource = owner.imageSource
    }

    /// The value of a property, or `nil` when it is not set (`ABRecordCopyValue`).
    public func value(for property: PropertyID) -> PropertyValue? {
        guard property.recordType == .person else { return nil }
        if property == .kind { return .kind(kind) }
        return state.values[property]
    }

    /// Sets a property (`ABRecordSetValue`). An empty text or an empty multi-value removes it.
    ///
    /// Multi-value identifiers are reconciled so that an identifier retired from this record is
    /// never given to a new value.
    ///
    /// - Throws: ``ContactsError/Code/propertyTypeMismatch`` when the value's type is not the
    ///   property's declared type; ``ContactsError/Code/unknownProperty`` for a group property;
    ///   ``ContactsError/Code/invalidValue`` for the store-maintained creation and modification
    ///   dates; ``ContactsError/Code/identifiersExhausted`` when a new value needs an identifier
    ///   and the record has handed out all of them.
    public func setValue(_ value: PropertyValue, for property: PropertyID) throws {
        guard property.recordType == .person else {
            throw ContactsError(.unknownProperty, "'\(property.key)' is not a person property")
        }
        guard value.type == property.type else {
            throw ContactsError(
                .propertyTypeMismatch,
                "'\(property.key)' takes a \(property.type.rawValue) value, not a \(value.type.rawValue)")
        }
        guard !property.isReadOnly else {
            throw ContactsError(.invalidValue, "'\(property.key)' is maintained by the store on save")
        }
        if value.isEmpty || value == .kind(.person) {
            removeValue(for: property)
            return
        }
        var counter = state.nextValueIdentifier
        let reconciled = try value.reconciled(with: state.values[property], recordCounter: &counter, spreading: key != nil)
        var newState = state
        newState.values[property] = reconciled
        newState.nextValueIdentifier = counter
        if newState != state { state = newState }
    }

    /// Removes a property (`ABRecordRemoveValue`). Store-maintained dates are kept.
    public func removeValue(for property: PropertyID) {
        guard property.recordType == .person, !property.isReadOnly, state.values[property] != nil else { return }
        state.values[property] = nil
    }

    /// The name shown for this person, in the book's composite-name format when the person
    /// belongs to a book, else first-name-first (`ABRecordCopyCompositeName`).
    public var compositeName: String? {
        CompositeName.make(state.nameParts, format: owner?.compositeNameFormat ?? .firstNameFirst)
    }
}

extension PropertyValue {
    /// This value with multi-value identifiers reconciled against the previous value (see
    /// ``MultiValue/reconciled(with:recordCounter:spreading:)``).
    func reconciled(with previous: PropertyValue?, recordCounter: inout Int32, spreading: Bool) throws -> PropertyValue {
        switch self {
        case .multiString(let values):
            guard case .multiString(let old)? = previous else {
                return .multiString(try values.reconciled(with: nil, recordCounter: &recordCounter, spreading: spreading))
            }
            return .multiString(try values.reconciled(with: old, recordCounter: &recordCounter, spreading: spreading))
        case .multiDate(let values):
            guard case .multiDate(let old)? = previous else {
                return .multiDate(try values.reconciled(with: nil, recordCounter: &recordCounter, spreading: spreading))
            }
            return .multiDate(try values.reconciled(with: old, recordCounter: &recordCounter, spreading: spreading))
        case .multiAddress(let values):
            guard case .multiAddress(let old)? = previous else {
                return .multiAddress(try values.reconciled(with: nil, recordCounter: &recordCounter, spreading: spreading))
            }
            return .multiAddress(try values.reconciled(with: old, recordCounter: &recordCounter, spreading: spreading))
        case .multiInstantMessage(let values):
            guard case .multiInstantMessage(let old)? = previous else {
                return .multiInstantMessage(try values.reconciled(with: nil, recordCounter: &recordCounter, spreading: spreading))
            }
            return .multiInstantMessage(try values.reconciled(with: old, recordCounter: &recordCounter, spreading: spreading))
        case .multiSocialProfile(let values):
            guard case .multiSocialProfile(let old)? = previous else {
                return .multiSocialProfile(try values.reconciled(with: nil, recordCounter: &recordCounter, spreading: spreading))
            }
            return .multiSocialProfile(try values.reconciled(with: old, recordCounter: &recordCounter, spreading: spreading))
        case .string, .timestamp, .date, .kind:
            return self
        }
    }
}
