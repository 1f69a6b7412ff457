import Foundation
import PlainContacts
import Testing

/// Every text property of a person goes through the commands without a command naming it: `set`
/// takes it by key, `show` labels it, and a vCard export imports back into another store with
/// it, in 3.0 and 4.0.
@Suite struct TextPropertyCommandTests {
    /// The text properties, by key.
    private static let keys = PropertyID.personProperties.filter { $0.type == .string }.map(\.key)

    /// The value each property gets: for the formatted name one that differs from the name.
    private static func value(of key: String) -> String {
        key == PropertyID.formattedName.key ? "Dr. Zoë Ünal-Bell" : "Zoë Ünal \(key)"
    }

    @Test func everyTextPropertyIsSetShownAndCarriedByAVCard() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Katie", "--last", "Bell"])
        try sandbox.succeed(["set", id] + Self.keys.map { "\($0)=\(Self.value(of: $0))" })
        let shown = try sandbox.succeed(["show", id]).stdout
        let json = try sandbox.json(id)
        for key in Self.keys {
            #expect(json[key] as? String == Self.value(of: key), "\(key)")
        }
        for property in PropertyID.personProperties where property.type == .string {
            // The name parts are the heading; the rest have a line each.
            let heading: Set<PropertyID> = [.prefix, .firstName, .middleName, .lastName, .suffix]
            #expect(heading.contains(property) || shown.contains(Self.value(of: property.key)), "\(property)")
        }
        for version in ["3.0", "4.0"] {
            let file = sandbox.root.appending(path: "katie-\(version).vcf").path(percentEncoded: false)
            try sandbox.succeed(["export", id, "--vcard-version", version, "--output", file])
            let copy = try CLISandbox()
            try copy.initStore()
            try copy.succeed(["import", file])
            let imported = try copy.json("1")
            for key in Self.keys {
                #expect(imported[key] as? String == Self.value(of: key), "\(key) in vCard \(version)")
            }
        }
    }
}
