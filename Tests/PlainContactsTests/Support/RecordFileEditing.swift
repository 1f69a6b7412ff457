import Foundation
import Testing

/// Rewrites a JSON file of a store by hand, as a person with an editor would: `change` edits
/// its top-level object. The new text replaces the file by rename, as most editors save.
func editJSONFile(_ url: URL, _ change: (inout [String: Any]) -> Void) throws {
    let data = try Data(contentsOf: url)
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(url.lastPathComponent)")
    change(&object)
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url, options: .atomic)
}
