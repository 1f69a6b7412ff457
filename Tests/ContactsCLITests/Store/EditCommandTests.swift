import Foundation
import Testing

@Suite struct EditCommandTests {
    private func temporaryFiles(_ sandbox: CLISandbox) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.temporary.path(percentEncoded: false)).sorted()
    }

    @Test func anEditorThatRewritesTheFileSavesTheChanges() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--last", "Lee", "--note", "old note", "--phone", "mobile:111"])
        let editor = try sandbox.script("editor.sh", #"sed -i -e 's/"Lee"/"Li"/' -e '/"note"/d' "$1""#)
        let result = try sandbox.run(["edit", id], environment: ["EDITOR": editor])
        #expect(result.status == 0)
        let json = try sandbox.json(id)
        #expect(json["lastName"] as? String == "Li")
        #expect(json["note"] == nil)
        #expect((json["phones"] as? [[String: Any]])?.first?["value"] as? String == "111")
        #expect(try temporaryFiles(sandbox).isEmpty)
    }

    @Test func visualWinsOverEditor() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let visual = try sandbox.script("visual.sh", #"sed -i 's/"Kim"/"Visual"/' "$1""#)
        let editor = try sandbox.script("editor.sh", #"sed -i 's/"Kim"/"Editor"/' "$1""#)
        try sandbox.succeed(["edit", id], environment: ["VISUAL": visual, "EDITOR": editor])
        #expect(try sandbox.json(id)["firstName"] as? String == "Visual")
    }

    @Test func theFileOffersTheEditablePropertiesOnlyAndIsPrivate() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim", "--phone", "111"])
        let copy = sandbox.root.appending(path: "seen.json").path(percentEncoded: false)
        let editor = try sandbox.script("editor.sh", #"cp "$1" "\#(copy)"; stat -c %a "$1" > "\#(copy).mode""#)
        let result = try sandbox.run(["edit", id], environment: ["EDITOR": editor])
        #expect(result.status == 0)
        #expect(result.stdout.contains("No changes"))
        let seen = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: copy))) as? [String: Any])
        #expect(Set(seen.keys) == ["firstName", "phones", "kind"])
        #expect(try String(contentsOfFile: copy + ".mode", encoding: .utf8).hasPrefix("600"))
    }

    @Test func closingTheEditorWithoutChangesWritesNothing() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let result = try sandbox.run(["edit", id], environment: ["EDITOR": "true"])
        #expect(result.status == 0)
        #expect(result.stdout == "No changes.\n")
        #expect(try sandbox.snapshot() == before)
        #expect(try temporaryFiles(sandbox).isEmpty)
    }

    @Test func invalidJSONWithoutATerminalIsExit65AndKeepsTheText() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let before = try sandbox.snapshot()
        let editor = try sandbox.script("editor.sh", #"printf '{ "firstName": "Kimberly", oops' > "$1""#)
        let result = try sandbox.run(["edit", id], environment: ["EDITOR": editor])
        #expect(result.status == 65)
        #expect(try sandbox.snapshot() == before)
        let kept = try temporaryFiles(sandbox)
        try #require(kept.count == 1)
        #expect(result.stderr.contains(kept[0]))
        let text = try String(contentsOf: sandbox.temporary.appending(path: kept[0]), encoding: .utf8)
        #expect(text == #"{ "firstName": "Kimberly", oops"#)
    }

    @Test func aValidJSONWithAWrongValueIsExit65Too() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let editor = try sandbox.script("editor.sh", #"printf '{"firstName": "Kim", "birthday": "someday"}' > "$1""#)
        let result = try sandbox.run(["edit", id], environment: ["EDITOR": editor])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\"birthday\""))
        #expect(try temporaryFiles(sandbox).count == 1)
    }

    @Test func aFailingEditorSavesNothingAndKeepsTheText() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let id = try sandbox.add(["--first", "Kim"])
        let editor = try sandbox.script("editor.sh", #"sed -i 's/"Kim"/"Kimberly"/' "$1"; exit 3"#)
        let result = try sandbox.run(["edit", id], environment: ["EDITOR": editor])
        #expect(result.status == 1)
        #expect(try sandbox.json(id)["firstName"] as? String == "Kim")
        #expect(try temporaryFiles(sandbox).count == 1)
    }

    @Test func editingAnUnknownIDIsExit66() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.run(["edit", "3"], environment: ["EDITOR": "true"]).status == 66)
    }
}
