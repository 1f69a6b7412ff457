import FoundationEssentials
import PlainContactsSystem

/// Writes a record's canonical JSON with Git-style conflict markers around the members that
/// could not be merged, so that Git reports the conflict, the store refuses to load the file
/// until it is resolved, and deleting either side with its markers leaves valid JSON.
///
/// ```
/// <<<<<<< ours
///   "jobTitle": "Pilot",
/// =======
///   "jobTitle": "Sailor",
/// >>>>>>> theirs
/// ```
///
/// Each side ends its lines with the commas that side needs. A conflicting member after the
/// last member both sides share is shown together with that shared member, because whether
/// the shared member takes a comma depends on which side is kept.
enum ConflictMarkup {
    static let oursMarker = "<<<<<<< ours\n"
    static let separator = "=======\n"
    static let theirsMarker = ">>>>>>> theirs\n"

    /// The text of `ours` (a merged record that holds this side's value for each conflicting
    /// key) with a conflict hunk for each key in `conflicts`, whose other side is the value in
    /// `theirs` (absent there: an empty side).
    static func render(ours: [String: JSONValue], theirs: [String: JSONValue], conflicts: [String]) -> Data {
        let conflicting = Set(conflicts)
        var keys = Set(ours.keys)
        for key in conflicting where theirs[key] != nil { keys.insert(key) }
        let sorted = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let tailStart = sorted.lastIndex { !conflicting.contains($0) } ?? 0

        var text = "{\n"
        for key in sorted[..<tailStart] {
            if conflicting.contains(key) {
                text += hunk(
                    ours: ours[key].map { member(key, $0) + ",\n" } ?? "",
                    theirs: theirs[key].map { member(key, $0) + ",\n" } ?? "")
            } else if let value = ours[key] {
                text += member(key, value) + ",\n"
            }
        }
        let tail = sorted[tailStart...]
        let oursTail = side(tail, conflicting: conflicting, values: ours, fixed: ours)
        if tail.contains(where: conflicting.contains) {
            text += hunk(ours: oursTail, theirs: side(tail, conflicting: conflicting, values: theirs, fixed: ours))
        } else {
            text += oursTail
        }
        text += "}\n"
        return Data(text.utf8)
    }

    /// The members of one side of the final hunk, separated by commas, the last without one.
    private static func side(
        _ keys: ArraySlice<String>, conflicting: Set<String>, values: [String: JSONValue], fixed: [String: JSONValue]
    ) -> String {
        let members = keys.compactMap { key -> String? in
            let value = conflicting.contains(key) ? values[key] : fixed[key]
            return value.map { member(key, $0) }
        }
        return members.isEmpty ? "" : members.joined(separator: ",\n") + "\n"
    }

    private static func hunk(ours: String, theirs: String) -> String {
        oursMarker + ours + separator + theirs + theirsMarker
    }

    /// One member as canonical JSON writes it at the top level of a record: indented two
    /// spaces, possibly over several lines, without a trailing comma or newline.
    private static func member(_ key: String, _ value: JSONValue) -> String {
        let text = String(decoding: CanonicalJSON.encode(.object([key: value])), as: UTF8.self)
        // "{\n" + member + "\n}\n"
        return String(text.dropFirst(2).dropLast(3))
    }
}
