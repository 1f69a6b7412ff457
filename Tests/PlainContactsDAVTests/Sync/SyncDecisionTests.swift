import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct SyncDecisionTests {
    private typealias Change = SyncDecision.Change
    private typealias Action = SyncDecision.Action

    /// The whole table for contacts both sides had at the last sync.
    private static let table: [(local: Change, remote: Change, action: Action)] = [
        (.unchanged, .unchanged, .nothing),
        (.changed, .unchanged, .upload),
        (.unchanged, .changed, .download),
        (.changed, .changed, .merge(base: true, prefer: nil)),
        (.removed, .unchanged, .deleteRemote),
        (.unchanged, .removed, .deleteLocal),
        (.removed, .changed, .restoreLocal),
        (.changed, .removed, .restoreRemote),
        (.removed, .removed, .forget),
    ]

    @Test func theTableCoversEveryCombinationOnce() {
        for local in Change.allCases {
            for remote in Change.allCases {
                #expect(Self.table.filter { $0.local == local && $0.remote == remote }.count == 1)
            }
        }
    }

    @Test(arguments: Self.table.indices)
    func withAStatusEachCombinationHasItsAction(_ row: Int) {
        let (local, remote, expected) = Self.table[row]
        #expect(SyncDecision.action(local: local, remote: remote) == expected)
        // The same through fingerprints and ETags.
        let status = SyncStatus(localFingerprint: "L0", remoteETag: "\"R0\"")
        let localNow: String? = switch local {
        case .unchanged: "L0"
        case .changed: "L1"
        case .removed: nil
        }
        let remoteNow: String? = switch remote {
        case .unchanged: "\"R0\""
        case .changed: "\"R1\""
        case .removed: nil
        }
        #expect(SyncDecision.action(status: status, localFingerprint: localNow, remoteETag: remoteNow) == expected)
    }

    @Test(arguments: [nil, "L"] as [String?], [nil, "\"R\""] as [String?])
    func withoutAStatusEachSideThatHasTheContactIsNew(_ local: String?, _ remote: String?) {
        let action = SyncDecision.action(status: nil, localFingerprint: local, remoteETag: remote)
        switch (local, remote) {
        case (nil, nil): #expect(action == .forget)
        case (_?, nil): #expect(action == .upload)
        case (nil, _?): #expect(action == .download)
        case (_?, _?): #expect(action == .merge(base: false, prefer: nil))
        }
    }

    @Test(arguments: MergePreference.allCases)
    func aPreferenceOnlySettlesWhatBothSidesChanged(_ prefer: MergePreference) {
        for (local, remote, expected) in Self.table {
            let action = SyncDecision.action(local: local, remote: remote, prefer: prefer)
            if case .merge = expected {
                #expect(action == .merge(base: true, prefer: prefer))
            } else {
                #expect(action == expected)
            }
        }
        #expect(
            SyncDecision.action(status: nil, localFingerprint: "L", remoteETag: "\"R\"", prefer: prefer)
                == .merge(base: false, prefer: prefer))
    }

    @Test func removingMoreThanHalfAndMoreThanFiveOfASideIsTooMuch() {
        let six = Array(repeating: Action.deleteLocal, count: 6)
        #expect(SyncDecision.removesTooMuch(six, localCount: 10, remoteCount: 10))
        #expect(!SyncDecision.removesTooMuch(six, localCount: 12, remoteCount: 12))
        #expect(!SyncDecision.removesTooMuch(Array(repeating: .deleteRemote, count: 5), localCount: 5, remoteCount: 5))
        #expect(SyncDecision.removesTooMuch(Array(repeating: .deleteRemote, count: 7), localCount: 100, remoteCount: 8))
        #expect(!SyncDecision.removesTooMuch(Array(repeating: .upload, count: 50), localCount: 50, remoteCount: 0))
    }
}
