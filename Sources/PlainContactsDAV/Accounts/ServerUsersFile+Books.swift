import FoundationEssentials
import PlainContacts

/// A book as `contacts user` names it: by its name, or by its store's folder (which names it
/// after the folder, or after the name given with it).
///
/// ```swift
/// try ServedBookReference(argument: "family")                        // a book granted before
/// try ServedBookReference(argument: "/home/kim/contacts/family")     // book "family", that store
/// try ServedBookReference(argument: "shared=/srv/contacts/office")   // book "shared", that store
/// ```
package struct ServedBookReference: Hashable, Sendable {
    /// The book's name.
    package var name: ServedBookName
    /// The store's folder, when given.
    package var folder: URL?

    package init(name: ServedBookName, folder: URL? = nil) {
        self.name = name
        self.folder = folder
    }

    /// Reads a command-line argument: `NAME`, `NAME=FOLDER`, or a `FOLDER` (holding a `/`, or
    /// `.` or `..`), relative to `directory`.
    ///
    /// - Throws: ``ContactsError/Code/invalidValue`` for a name that is not valid, or a folder
    ///   whose own name is not one (then `NAME=FOLDER` names it).
    package init(argument: String, relativeTo directory: URL) throws(ContactsError) {
        if let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("/") {
            name = try ServedBookName(String(argument[..<equals]))
            folder = Self.folder(String(argument[argument.index(after: equals)...]), relativeTo: directory)
            return
        }
        guard argument.contains("/") || argument == "." || argument == ".." else {
            name = try ServedBookName(argument)
            return
        }
        let url = Self.folder(argument, relativeTo: directory)
        let last = url.lastPathComponent
        do {
            name = try ServedBookName(last)
        } catch {
            throw ContactsError(
                .invalidValue, "the folder's name \"\(last)\" cannot name a book (\(error.message)); name it with NAME=\(argument)")
        }
        folder = url
    }

    private static func folder(_ path: String, relativeTo directory: URL) -> URL {
        let url = path.hasPrefix("/") ? URL(filePath: path, directoryHint: .isDirectory) : directory.appending(path: path)
        return url.standardizedFileURL
    }
}

extension ServerUsersFile {
    /// The folder of every book a user may be granted: ``ServedBookName/home`` is this store.
    ///
    /// ```swift
    /// let folders = try file.bookFolders()   // [contacts: <store>, family: /home/kim/contacts/family]
    /// ```
    ///
    /// - Throws: as ``accounts()``.
    package func bookFolders() throws -> [ServedBookName: URL] {
        var folders: [ServedBookName: URL] = [.home: storeURL]
        for (name, path) in try settings.read().books {
            folders[name] = URL(filePath: path, directoryHint: .isDirectory)
        }
        return folders
    }

    /// Gives `name` more books (or the same books with another access): each is added at the end
    /// of its list, or at the front with `first`, in the order given. A user without a list
    /// gets one, starting with the store the file is in, as it had.
    ///
    /// ```swift
    /// try file.grant(kim, books: [ServedBookReference(argument: "../family", relativeTo: here)], access: .readWrite)
    /// ```
    ///
    /// - Throws: `ServeError.Code.userNotFound`; `ServeError.Code.bookNotFound` for a name no
    ///   book has; `ServeError.Code.bookExists` for a name another store has, or a store another
    ///   name has; ``ContactsError/Code/notAStore`` for a folder without a store; as
    ///   ``add(_:password:replacing:books:access:)`` otherwise.
    package func grant(_ name: ServerUserName, books: [ServedBookReference], access: ServerGrant.Access, first: Bool = false) throws {
        try settings.update { contents in
            guard var user = contents.users[name] else { throw notFound(name) }
            let granted = try declare(books, in: &contents).map { ServerGrant(book: $0, access: access) }
            var list = (user.books ?? ServerGrant.standard).filter { grant in !granted.contains { $0.book == grant.book } }
            list.insert(contentsOf: granted, at: first ? 0 : list.count)
            user.books = list
            contents.users[name] = user
        }
    }

    /// Takes books from `name`; a book no user has any more is forgotten.
    ///
    /// ```swift
    /// try file.revoke(kim, books: [try ServedBookName("family")])
    /// ```
    ///
    /// - Throws: `ServeError.Code.userNotFound`; `ServeError.Code.bookNotFound` for a book the
    ///   user does not have; as ``add(_:password:replacing:books:access:)`` otherwise.
    package func revoke(_ name: ServerUserName, books: [ServedBookName]) throws {
        try settings.update { contents in
            guard var user = contents.users[name] else { throw notFound(name) }
            var list = user.books ?? ServerGrant.standard
            for book in books {
                guard list.contains(where: { $0.book == book }) else {
                    throw ServeError(.bookNotFound, "user \"\(name)\" has no book \"\(book)\"; see `contacts user list`",
                        path: fileURL.path(percentEncoded: false))
                }
                list.removeAll { $0.book == book }
            }
            user.books = list
            contents.users[name] = user
            forgetUngrantedBooks(in: &contents)
        }
    }

    /// The names of `books`, each given with its folder recorded as that book's.
    ///
    /// - Throws: as ``grant(_:books:access:first:)``.
    func declare(_ books: [ServedBookReference], in contents: inout Contents) throws -> [ServedBookName] {
        let path = fileURL.path(percentEncoded: false)
        let home = Self.plainPath(of: storeURL)
        var names: [ServedBookName] = []
        for book in books {
            var name = book.name
            if let folder = book.folder {
                let trimmed = Self.plainPath(of: folder)
                if trimmed == home {
                    // This store is always the book `contacts`, whatever the folder's name.
                    name = .home
                } else {
                    try record(name, at: trimmed, in: &contents)
                }
            } else if name != .home, contents.books[name] == nil {
                throw ServeError(.bookNotFound,
                    "no book is named \"\(name)\"; grant it once with its store's folder (NAME=FOLDER or FOLDER)", path: path)
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Records `folder` (another store than this one) as the book `name`'s.
    ///
    /// - Throws: `ServeError.Code.bookExists` when `name` is this store's book or another
    ///   store's, or the store is another book; ``ContactsError/Code/notAStore`` for a folder
    ///   without a store.
    private func record(_ name: ServedBookName, at folder: String, in contents: inout Contents) throws {
        let path = fileURL.path(percentEncoded: false)
        if name == .home {
            throw ServeError(.bookExists,
                "\"\(ServedBookName.home)\" is the book of this store; name the store at \(folder) with NAME=\(folder)", path: path)
        }
        if let known = contents.books[name], known != folder {
            throw ServeError(.bookExists,
                "book \"\(name)\" is the store at \(known); name the store at \(folder) otherwise with NAME=\(folder)", path: path)
        }
        if let other = contents.books.first(where: { $0.value == folder && $0.key != name })?.key {
            throw ServeError(.bookExists, "the store at \(folder) is book \"\(other)\" already; grant it by that name", path: path)
        }
        try AddressBook.requireStore(at: URL(filePath: folder, directoryHint: .isDirectory))
        contents.books[name] = folder
    }

    /// A folder's absolute path, standardized, without a trailing slash: how the file records
    /// a book's store, and how two folders are compared.
    private static func plainPath(of folder: URL) -> String {
        let path = folder.standardizedFileURL.path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Forgets the folders of books no user has.
    func forgetUngrantedBooks(in contents: inout Contents) {
        var granted: Set<ServedBookName> = []
        for user in contents.users.values {
            for grant in user.books ?? ServerGrant.standard { granted.insert(grant.book) }
        }
        contents.books = contents.books.filter { granted.contains($0.key) }
    }
}
