import Foundation
import Testing
@testable import PlainContactsDAV

@Suite struct WebDAVConditionsTests {
    @Test(arguments: [("0", WebDAVConditions.Depth.zero), (" 1 ", .one), ("Infinity", .infinity)])
    func aDepthIsReadWhateverItsCaseAndSpaces(_ value: String, _ depth: WebDAVConditions.Depth) {
        #expect(WebDAVConditions.depth(value) == depth)
    }

    @Test func aDepthOfAnythingElseIsNone() {
        #expect(WebDAVConditions.depth("2") == nil)
        #expect(WebDAVConditions.depth("") == nil)
    }

    @Test func aBodyOfWhiteSpaceHasNoContent() {
        #expect(!WebDAVConditions.hasContent(Data(" \r\n\t".utf8)))
        #expect(WebDAVConditions.hasContent(Data(" <a/>".utf8)))
    }

    @Test func ifMatchNeedsTheCurrentTagOrAStarAndAResource() {
        #expect(WebDAVConditions.evaluate(ifMatch: #""a", "b""#, ifNoneMatch: nil, currentETag: #""b""#, isRead: false) == .proceed)
        #expect(WebDAVConditions.evaluate(ifMatch: "*", ifNoneMatch: nil, currentETag: #""b""#, isRead: false) == .proceed)
        #expect(WebDAVConditions.evaluate(ifMatch: #""a""#, ifNoneMatch: nil, currentETag: #""b""#, isRead: false) == .preconditionFailed)
        #expect(WebDAVConditions.evaluate(ifMatch: "*", ifNoneMatch: nil, currentETag: nil, isRead: false) == .preconditionFailed)
    }

    @Test func ifNoneMatchFailsAWriteAndAnswersAReadNotModified() {
        let tag = #""b""#
        #expect(WebDAVConditions.evaluate(ifMatch: nil, ifNoneMatch: "*", currentETag: tag, isRead: false) == .preconditionFailed)
        #expect(WebDAVConditions.evaluate(ifMatch: nil, ifNoneMatch: "W/" + tag, currentETag: tag, isRead: true) == .notModified)
        #expect(WebDAVConditions.evaluate(ifMatch: nil, ifNoneMatch: "*", currentETag: nil, isRead: false) == .proceed)
        #expect(WebDAVConditions.evaluate(ifMatch: nil, ifNoneMatch: #""a""#, currentETag: tag, isRead: true) == .proceed)
    }
}
