import PlainContacts

/// The code of the error of `domain` that `body` throws; `nil` when it throws nothing or an
/// error of another type.
///
/// ```swift
/// #expect(thrownCode(in: SyncDomain.self) { try remotes.remove(named: name) } == .remoteNotFound)
/// ```
func thrownCode<Domain>(in domain: Domain.Type, _ body: () throws -> Void) -> PlainContactsError<Domain>.Code? {
    do {
        try body()
        return nil
    } catch let error as PlainContactsError<Domain> {
        return error.code
    } catch {
        return nil
    }
}
