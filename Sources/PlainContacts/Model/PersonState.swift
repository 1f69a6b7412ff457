import FoundationEssentials
import PlainContactsSystem

/// Everything a person record holds, as a value: what a save writes and what "unsaved
/// changes" compares against the last saved snapshot.
package struct PersonState: Sendable, Hashable {
    /// The set properties; an absent key means the property is not set.
    var values: [PropertyID: PropertyValue] = [:]
    /// The identifier the next new multi-value entry of this record receives.
    var nextValueIdentifier: Int32 = 0
    /// The image, if any.
    var image: ImageState = .none
    /// Record keys of people merged into this one; references to them re-identify here.
    var mergedKeys: [String] = []
    /// Keys found in the file that this version does not know; kept on rewrite.
    var unknownFields: [String: JSONValue] = [:]

    init() {}

    func string(_ property: PropertyID) -> String? {
        if case .string(let text)? = values[property] { return text }
        return nil
    }

    /// When the person was first saved.
    var creationDate: Date? {
        if case .timestamp(let date)? = values[.creationDate] { return date }
        return nil
    }

    /// The name parts that naming, search and sorting look at.
    var nameParts: NameParts {
        var parts = NameParts()
        parts.prefix = string(.prefix)
        parts.firstName = string(.firstName)
        parts.middleName = string(.middleName)
        parts.lastName = string(.lastName)
        parts.suffix = string(.suffix)
        parts.nickname = string(.nickname)
        parts.firstNamePhonetic = string(.firstNamePhonetic)
        parts.middleNamePhonetic = string(.middleNamePhonetic)
        parts.lastNamePhonetic = string(.lastNamePhonetic)
        parts.organization = string(.organization)
        if case .kind(.organization)? = values[.kind] { parts.isOrganization = true }
        return parts
    }

    /// The hash of the normalized first and last name, used by long-term references.
    var nameHash: NameHash {
        NameHash.of(firstName: string(.firstName), lastName: string(.lastName))
    }
}

/// Where a person's image is.
enum ImageState: Sendable, Hashable {
    /// No image.
    case none
    /// Saved as a sidecar file beside the record, named here (`katie-bell-x7k2mq.jpg`).
    case stored(fileName: String)
    /// Set since the last save; written as a sidecar by the next save.
    case pending(Data)
}

/// Everything a group record holds, as a value.
package struct GroupState: Sendable, Hashable {
    var name: String?
    var creationDate: Date?
    var modificationDate: Date?
    var unknownFields: [String: JSONValue] = [:]

    init() {}
}
