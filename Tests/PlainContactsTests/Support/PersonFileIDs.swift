import Foundation
import Testing

/// The record ID written in each person file of a store (`people/*.json`), read straight from
/// the files, so that a test sees IDs as saved, before any renumbering by the book.
func personFileIDs(in store: URL) throws -> [Int] {
    let folder = store.appending(path: "people")
    var ids: [Int] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
        let data = try Data(contentsOf: folder.appending(path: name))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "people/\(name)")
        ids.append(try #require(object["id"] as? Int, "people/\(name) has no id"))
    }
    return ids
}
