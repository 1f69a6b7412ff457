import Foundation
import Testing

@Suite struct TextconvCommandTests {
    @Test func aPersonFileIsPrintedAsACard() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        try sandbox.add(["--first", "Katie", "--last", "Bell", "--phone", "mobile:555-0100", "--title", "Pilot"])
        let file = try #require(try sandbox.storeFiles(in: "people").first)
        let result = try sandbox.succeed(["textconv", sandbox.storeFile("people/\(file)").path(percentEncoded: false)])
        #expect(result.stdout.hasPrefix("Katie Bell\nid: 1\nfirst name: Katie\nlast name: Bell\njob title: Pilot\nphone (mobile): 555-0100\n"))
    }

    @Test func unreadableTextIsPrintedUnchanged() throws {
        let sandbox = try CLISandbox()
        let url = sandbox.temporary.appending(path: "x.json")
        try Data("{ not json\n".utf8).write(to: url)
        #expect(try sandbox.succeed(["textconv", url.path(percentEncoded: false)]).stdout == "{ not json\n")
        #expect(try sandbox.run(["textconv", sandbox.temporary.appending(path: "missing").path(percentEncoded: false)]).status == 66)
    }
}
