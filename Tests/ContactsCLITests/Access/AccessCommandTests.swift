import Foundation
import Testing

@Suite struct AccessCommandTests {
    @Test func grantDenyResetAndList() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.succeed(["access", "status", "com.example.mail"]).stdout == "notDetermined\n")
        try sandbox.succeed(["access", "grant", "com.example.mail"])
        try sandbox.succeed(["access", "deny", "com.example.spy"])
        #expect(try sandbox.succeed(["access", "status", "com.example.mail"]).stdout == "authorized\n")
        #expect(try sandbox.succeed(["access", "list"]).lines == ["com.example.mail\tauthorized", "com.example.spy\tdenied"])
        #expect(try sandbox.succeed(["access", "status"]).lines.count == 2)
        try sandbox.succeed(["access", "reset", "com.example.mail"])
        #expect(try sandbox.succeed(["access", "status", "com.example.mail"]).stdout == "notDetermined\n")
        try sandbox.succeed(["access", "reset"])
        #expect(try sandbox.succeed(["access", "list"]).stdout.isEmpty)
    }

    @Test func theStoreOwnersOwnToolIsAlwaysAuthorized() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        #expect(try sandbox.succeed(["access", "status", "contacts"]).stdout == "authorized\n")
        #expect(try sandbox.run(["access", "deny", "contacts"]).status == 65)
        #expect(try sandbox.run(["access", "grant", ""]).status == 65)
    }

    @Test func decisionsStayOutOfTheSharedFiles() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let before = try sandbox.snapshot()
        try sandbox.succeed(["access", "grant", "com.example.mail"])
        #expect(try sandbox.snapshot() == before)
    }
}
