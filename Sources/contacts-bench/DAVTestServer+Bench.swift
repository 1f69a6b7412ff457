import DAVTestSupport
import Foundation
import PlainContacts
import PlainContactsDAV

extension DAVTestServer {
    /// The credentials to send to the server.
    var credentials: RemoteCredentials {
        RemoteCredentials(user: user, password: password)
    }

    /// The address book collection's path, such as `/user/contacts/`.
    var addressBookPath: String {
        addressBookURL.path(percentEncoded: true)
    }

    /// Puts the `.vcf` files of `cards` into the server's storage while it is stopped, as its
    /// own files, and starts it again.
    ///
    /// - Throws: when a file cannot be copied, Git fails (Xandikos) or the server does not
    ///   start again.
    func fill(from cards: URL) throws {
        kill()
        let data = folder.appending(path: "data")
        let collection: URL
        switch kind {
        case .radicale: collection = data.appending(path: "collection-root/user/contacts")
        case .xandikos: collection = data.appending(path: "user/contacts/addressbook")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: cards.path) where name.hasSuffix(".vcf") {
            try FileManager.default.copyItem(at: cards.appending(path: name), to: collection.appending(path: name))
        }
        if case .xandikos = kind {
            // Xandikos serves what the collection's Git repository has committed.
            for arguments in [["add", "-A"], ["-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "fill"]] {
                let result = try ChildProcess.run("/usr/bin/env", ["git", "-C", collection.path] + arguments, output: .discardAll)
                guard result.status == 0 else { throw ContactsError(.io, "git \(arguments[0]) failed", path: collection.path) }
            }
        }
        try restart()
    }

    /// Lists the collection once, so that the server builds its caches before any timing.
    ///
    /// - Throws: the listing's errors.
    func warm() throws {
        let book = try CardDAVAddressBook(url: addressBookURL, credentials: credentials)
        _ = try book.collectionState()
        _ = try book.listCards()
    }
}
