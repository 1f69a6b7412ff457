import Testing

@testable import contacts_bench

@Suite("CalDAVTester server information")
struct CalDAVTesterServerInfoTests {
    @Test func writesTheServersLayoutAfterTheTemplatesSubstitutions() throws {
        let template = "<serverinfo><substitutions>UPSTREAM</substitutions></serverinfo>"
        let xml = CalDAVTesterServerInfo(port: 5232, users: 2, template: template).xml
        #expect(xml.contains("<nonsslport>5232</nonsslport>"))
        #expect(xml.contains("<key>$addressbookhome%d:</key><value>$root:$userid%d:</value>"))
        let upstream = try #require(xml.range(of: "UPSTREAM"))
        let layout = try #require(xml.range(of: "$addressbookhome%d:"))
        #expect(upstream.lowerBound < layout.lowerBound)
    }
}
