import DAVTestSupport
import Foundation
import Glibc
import Testing

@testable import PlainContacts

/// A failed call keeps its `errno` and its name as the error's cause, and the codes callers act
/// on (permission, full disk, read-only file system) are told apart from other failures.
@Suite struct PosixErrorTests {
    @Test(arguments: [
        (EACCES, ContactsError.Code.permissionDenied), (EPERM, .permissionDenied), (ENOSPC, .diskFull),
        (EDQUOT, .diskFull), (EROFS, .readOnlyFileSystem), (EIO, .io), (ENOENT, .io), (ENOTDIR, .io),
    ])
    func anErrnoBecomesItsCodeAndStaysTheCause(errno code: Int32, expected: ContactsError.Code) throws {
        let error = PosixError.error("could not open file", path: "/store/people/a.json", code: code, call: "open")
        #expect(error.code == expected)
        #expect(error.path == "/store/people/a.json")
        let cause = try #require(error.underlying as? SystemCallError)
        #expect(cause == SystemCallError(call: "open", errno: code))
    }

    @Test func aFoundationReadErrorKeepsTheErrnoOfItsUnderlyingPOSIXError() throws {
        let store = try TemporaryStore()
        let underAFile = store.url.appending(path: "file")
        try Data("x".utf8).write(to: underAFile)
        var caught: (any Error)?
        do {
            _ = try Data(contentsOf: underAFile.appending(path: "child"))
        } catch {
            caught = error
        }
        let failure = try #require(caught)
        #expect(PosixError.errno(of: failure) == ENOTDIR)
        let error = PosixError.error("cannot read the file", path: "x", foundationError: failure, call: "Data(contentsOf:)")
        #expect(error.code == .io)
        #expect((error.underlying as? SystemCallError)?.errno == ENOTDIR)
    }

    @Test(arguments: [
        (CocoaError.Code.fileReadNoPermission, ContactsError.Code.permissionDenied),
        (.fileWriteNoPermission, .permissionDenied), (.fileWriteOutOfSpace, .diskFull),
        (.fileWriteVolumeReadOnly, .readOnlyFileSystem), (.fileReadCorruptFile, .io),
    ])
    func aFoundationErrorWithoutAnErrnoIsCodedFromItsCocoaCode(cocoa: CocoaError.Code, expected: ContactsError.Code) {
        let error = PosixError.error("cannot read the file", path: "x", foundationError: CocoaError(cocoa), call: "Data(contentsOf:)")
        #expect(error.code == expected)
    }
}
