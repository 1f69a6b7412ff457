import Foundation
import TestTags
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV
@testable import PlainContactsFuzz

/// The acceptance fuzz target of every XML-reading path: damaged request bodies sent to a
/// served store and damaged answers read by the client end in the body being read or refused
/// as expected (400, a malformed-response error), never a 5xx, a trap or a hang. A longer run,
/// with any seed: `contacts-bench --fuzz-xml N --seed S`.
@Suite(.tags(.fuzz)) struct WebDAVXMLFuzzerTests {
    /// 3,000 cases, a third per target, in two runs of their own seeds side by side: the budget
    /// a debug build spends in about half a minute of the suite; `contacts-bench --fuzz-xml`
    /// runs a million in a release build.
    @Test(.tags(.slow), .slowTestsEnabled, arguments: [20_261_128, 20_261_129] as [UInt64])
    func damagedBodiesAreReadOrRefusedNeverMore(seed: UInt64) throws {
        var fuzzer = WebDAVXMLFuzzer(seed: seed)
        let summary = try fuzzer.run(cases: 1500)
        #expect(summary.tally.cases == 1500)
        #expect(summary.tally.casesPerTarget.count == WebDAVXMLFuzzer.Target.allCases.count)
        #expect(summary.read > 0 && summary.read < 1500)
        for failure in summary.tally.failures { Issue.record("seed \(seed), \(failure)") }
    }

    @Test func everyKindOfPlaceIsFoundInTheSeeds() {
        let bodies = (WebDAVXMLFuzzer.requestSeeds + WebDAVXMLFuzzer.answerSeeds).map { Array($0.body.utf8) }
        for site in FuzzMutator.XMLSite.allCases {
            #expect(bodies.contains { !FuzzMutator.places(of: site, in: $0).isEmpty }, "\(site)")
        }
        let body = Array(#"<?xml version="1.0" encoding="utf-8"?><d:a xmlns:d="DAV:" x="1">t</d:a>"#.utf8)
        let text = { (site: FuzzMutator.XMLSite) in
            FuzzMutator.places(of: site, in: body).map { String(decoding: body[$0], as: UTF8.self) }
        }
        #expect(text(.elementName) == ["a", "a"])
        #expect(text(.prefix) == ["d", "d", "d"])
        #expect(text(.namespaceURI) == ["DAV:"])
        #expect(text(.attributeName) == ["version", "x"])
        #expect(text(.text) == ["t"])
        #expect(text(.declaration) == ["utf-8"])
    }

    @Test func mostDamagedBodiesAreNotUTF8AndTheSameSeedReplaysThem() {
        var first = FuzzMutator(seed: 9)
        var second = FuzzMutator(seed: 9)
        let body = Data(WebDAVXMLFuzzer.requestSeeds[0].body.utf8)
        var refusedByTheGuard = 0
        for _ in 0..<300 {
            let damaged = first.mutateXML(body)
            #expect(damaged == second.mutateXML(body))
            if (try? XMLBodyEncoding.utf8(of: damaged)) == nil { refusedByTheGuard += 1 }
        }
        #expect(refusedByTheGuard > 100)
    }
}
