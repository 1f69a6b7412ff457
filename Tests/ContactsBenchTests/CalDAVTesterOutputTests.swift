import Testing

@testable import contacts_bench

@Suite("CalDAVTester output")
struct CalDAVTesterOutputTests {
    @Test func readsTheTotalsAndTheFailedTestsBySuite() {
        let output = CalDAVTesterOutput(
            """
            Starting tests

            scripts.tests.CardDAV.get
              Suite: GET on resource
                Test: 1                                                       [OK]
                Test: 2                                                   [FAILED]
              Suite: GET on collections                                  [IGNORED]

            ======================================================================
            [FAILED]
            Failed Verifier: statusCode
            ----------------------------------------------------------------------
            Ran 3 tests in 0.019s

            FAILED (ok=1, ignored=1, failed=1, errors=0)
            """)
        #expect(output.passed == 1)
        #expect(output.failed == 1)
        #expect(output.ignored == 1)
        #expect(output.checks == 2)
        #expect(output.failures == ["GET on resource/2"])
        #expect(output.finished)
    }

    @Test func readsAScriptWhoseSetUpFailed() {
        let output = CalDAVTesterOutput(
            """
            scripts.tests.CardDAV.sync-report                              [ERROR]

            FAILED (ok=0, ignored=0, failed=0, errors=1)
            """)
        #expect(output.checks == 0)
        #expect(output.errors == 1)
        #expect(output.finished)
    }

    @Test func tellsARunThatDiedBeforeItsSummary() {
        let output = CalDAVTesterOutput("Starting tests\n\nTraceback (most recent call last):\n")
        #expect(!output.finished)
    }
}
