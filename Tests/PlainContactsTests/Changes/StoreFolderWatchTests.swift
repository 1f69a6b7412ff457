import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts

/// ``StoreFolderWatch`` tells which records' files changed, and when it cannot.
@Suite struct StoreFolderWatchTests {
    @Test func itNamesThePeopleAndGroupsWhoseFilesChangedAndNothingElse() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let katie = makePerson("Katie", "Bell")
        let friends = Group(name: "Friends")
        try book.add(katie)
        try book.add(friends)
        try book.save()
        let watch = try #require(StoreFolderWatch(layout: StoreLayout(root: store.storeURL)))
        #expect(watch.news() == .records(people: [], groups: []))

        katie.note = "changed"
        try friends.addMember(katie)
        try book.save()
        // Files the watch ignores: the store's own folder, hidden files, backups.
        try Data("x".utf8).write(to: store.path(".contacts/scratch"))
        try Data("x".utf8).write(to: store.path("people/.hidden.json"))
        try Data("x".utf8).write(to: store.path("people/backup.json~"))

        let people = Set([try #require(katie.key)])
        let groups = Set([try #require(friends.key)])
        #expect(watch.news() == .records(people: people, groups: groups))
        #expect(watch.news() == .records(people: [], groups: []))
    }

    @Test func aReplacedPeopleFolderIsEverythingAndIsWatchedAgain() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        try book.add(makePerson("Katie", "Bell"))
        try book.save()
        let watch = try #require(StoreFolderWatch(layout: StoreLayout(root: store.storeURL)))
        let people = store.path("people")
        let copy = store.url.appending(path: "people-copy")
        try FileManager.default.copyItem(at: people, to: copy)
        try FileManager.default.removeItem(at: people)
        try FileManager.default.moveItem(at: copy, to: people)
        #expect(watch.news() == .everything(.folderReplaced))

        try book.add(makePerson("Oliver", "Wood"))
        try book.save()
        guard case .records(let changed, _) = watch.news() else {
            Issue.record("the new people folder is not watched")
            return
        }
        #expect(changed.count == 1)
    }
}
