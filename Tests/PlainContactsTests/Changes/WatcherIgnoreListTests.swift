import Testing
@testable import PlainContacts

@Suite("WatcherIgnoreList")
struct WatcherIgnoreListTests {
    private func consume(
        _ list: inout WatcherIgnoreList, path: String, fingerprint: UInt64, at now: ContinuousClock.Instant
    ) -> Bool {
        list.consume(path: path, fingerprint: fingerprint, at: now)
    }

    @Test
    func matchingFingerprintIsConsumedOnce() {
        var list = WatcherIgnoreList()
        let now = ContinuousClock.now
        list.add(path: "people/a.json", fingerprint: 11, at: now)

        #expect(consume(&list, path: "people/a.json", fingerprint: 11, at: now))
        #expect(!consume(&list, path: "people/a.json", fingerprint: 11, at: now))
        #expect(list.isEmpty)
    }

    @Test
    func otherFingerprintOrPathIsNotOwn() {
        var list = WatcherIgnoreList()
        let now = ContinuousClock.now
        list.add(path: "people/a.json", fingerprint: 11, at: now)

        #expect(!consume(&list, path: "people/a.json", fingerprint: 12, at: now))
        #expect(!consume(&list, path: "people/b.json", fingerprint: 11, at: now))
        #expect(consume(&list, path: "people/a.json", fingerprint: 11, at: now))
    }

    @Test
    func laterMatchUsesUpEarlierExpectations() {
        var list = WatcherIgnoreList()
        let now = ContinuousClock.now
        list.add(path: "people/a.json", fingerprint: 1, at: now)
        list.add(path: "people/a.json", fingerprint: 2, at: now)
        list.add(path: "people/a.json", fingerprint: 3, at: now)

        #expect(consume(&list, path: "people/a.json", fingerprint: 2, at: now))
        #expect(!consume(&list, path: "people/a.json", fingerprint: 1, at: now))
        #expect(consume(&list, path: "people/a.json", fingerprint: 3, at: now))
    }

    @Test
    func expectationsExpire() {
        var list = WatcherIgnoreList()
        let now = ContinuousClock.now
        list.add(path: "people/a.json", fingerprint: 0, at: now)

        let later = now.advanced(by: WatcherIgnoreList.lifetime + .seconds(1))
        #expect(!consume(&list, path: "people/a.json", fingerprint: 0, at: later))
        #expect(list.isEmpty)
    }
}
