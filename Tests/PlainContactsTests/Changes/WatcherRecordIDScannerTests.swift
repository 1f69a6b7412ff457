import FoundationEssentials
import Testing
@testable import PlainContacts

@Suite("WatcherRecordIDScanner")
struct WatcherRecordIDScannerTests {
    private func scan(_ text: String) -> RecordID? {
        WatcherRecordIDScanner.recordID(in: Data(text.utf8))
    }

    @Test
    func findsTheTopLevelID() {
        #expect(scan("{\n  \"firstName\": \"Ann\",\n  \"id\": 42\n}\n") == RecordID(42))
        #expect(scan("{\"id\":7}") == RecordID(7))
        #expect(scan("\u{FEFF}{ \"id\" : 2147483647 }") == RecordID(Int32.max))
    }

    @Test
    func skipsIDsInsideNestedObjectsArraysAndStrings() {
        let text = """
            {
              "addresses": [{"id": 1, "label": "home"}],
              "note": "\\"id\\": 2, {\\"id\\": 3}",
              "related": {"id": 4},
              "id": 5
            }
            """
        #expect(scan(text) == RecordID(5))
    }

    @Test
    func skipsValuesThatLookLikeTheKey() {
        #expect(scan("{\"nickname\": \"id\", \"id\": 6}") == RecordID(6))
    }

    @Test(arguments: [
        "{\"id\": 0}", "{\"id\": -3}", "{\"id\": 1.5}", "{\"id\": 2e3}", "{\"id\": \"9\"}",
        "{\"id\": 2147483648}", "{\"name\": \"x\"}", "[{\"id\": 1}]", "", "not json",
        "{\"related\": {\"id\": 4}}", "<<<<<<< HEAD\n{\"id\": 4}",
    ])
    func findsNothingWithoutAPositiveTopLevelInteger(text: String) {
        #expect(scan(text) == nil)
    }
}
