import Foundation

/// Every file of a clone outside `.git` and `.contacts`, by path: what two clones that merged
/// each other must hold alike.
func cloneFiles(of clone: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: clone.path(percentEncoded: false))
    while let path = enumerator?.nextObject() as? String {
        if path == ".git" || path == ".contacts" {
            enumerator?.skipDescendants()
            continue
        }
        var isFolder: ObjCBool = false
        let full = clone.appending(path: path)
        guard FileManager.default.fileExists(atPath: full.path(percentEncoded: false), isDirectory: &isFolder), !isFolder.boolValue
        else { continue }
        result[path] = try Data(contentsOf: full)
    }
    return result
}
