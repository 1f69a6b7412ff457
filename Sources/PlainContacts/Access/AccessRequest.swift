import FoundationEssentials

/// Asks the user, once, whether a program may use a store, and records the answer.
///
/// The AddressBook equivalent is `ABAddressBookRequestAccessWithCompletion`. A program names
/// itself with a client name (a reverse-DNS name such as `com.example.mailer` is a good
/// choice); the decision is kept per store and per device by ``AccessConsentStore``.
///
/// | Status before            | Prompt asked? | Result          | Status after       |
/// |--------------------------|---------------|-----------------|--------------------|
/// | `authorized`             | no            | `true`          | `authorized`       |
/// | `denied`, `restricted`   | no            | `false`         | unchanged          |
/// | `notDetermined`          | yes: allow    | `true`          | `authorized`       |
/// | `notDetermined`          | yes: refuse   | `false`         | `denied`           |
/// | `notDetermined`          | could not ask | `false`         | `notDetermined`    |
///
/// ```swift
/// AccessRequest.requestAccess(client: "com.example.mailer", store: storeURL) { granted, error in
///     if let error {
///         print("could not record the answer: \(error)")
///     } else if granted {
///         // open the book as "com.example.mailer"
///     }
/// }
/// ```
public enum AccessRequest {
    /// Requests access for `client` to the store at `store`, asking the user with `prompt` if
    /// they have not decided yet, and reports the outcome to `completion`.
    ///
    /// The call returns at once. `completion` runs exactly once, later, on a background thread
    /// (never inside this call, never on the main thread), whether or not the user was asked. Its arguments are whether access
    /// is granted, and the error that prevented recording the user's answer or checking the
    /// request, if any.
    ///
    /// The AddressBook equivalent is `ABAddressBookRequestAccessWithCompletion`.
    ///
    /// ```swift
    /// AccessRequest.requestAccess(client: "com.example.mailer", store: storeURL) { granted, _ in
    ///     print(granted ? "allowed" : "not allowed")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - client: The program's name, as given to ``AccessConsentStore``.
    ///   - store: The store's folder.
    ///   - prompt: Who to ask; by default the controlling terminal.
    ///   - completion: Receives `(granted, error)`. The error is
    ///     ``ContactsError/Code/invalidValue`` for an invalid client name, or
    ///     ``ContactsError/Code/malformedFile`` or ``ContactsError/Code/io`` if the answer could
    ///     not be recorded; `granted` is then `false`.
    public static func requestAccess(
        client: String,
        store: URL,
        prompt: any AccessPrompt = TerminalAccessPrompt(),
        completion: @escaping @Sendable (Bool, ContactsError?) -> Void
    ) {
        Task.detached {
            let outcome = await perform(client: client, store: AccessConsentStore(storeURL: store), prompt: prompt)
            completion(outcome.granted, outcome.error)
        }
    }

    /// Requests access for `client` to the store at `store`, asking the user with `prompt` if
    /// they have not decided yet; returns whether access is granted.
    ///
    /// Errors count as a refusal; use the completion-handler form to tell them apart.
    ///
    /// ```swift
    /// guard await AccessRequest.requestAccess(client: "com.example.mailer", store: storeURL) else {
    ///     print("not allowed")
    ///     return
    /// }
    /// ```
    public static func requestAccess(
        client: String,
        store: URL,
        prompt: any AccessPrompt = TerminalAccessPrompt()
    ) async -> Bool {
        await perform(client: client, store: AccessConsentStore(storeURL: store), prompt: prompt).granted
    }

    /// The request itself, shared by both forms.
    static func perform(
        client: String, store consent: AccessConsentStore, prompt: any AccessPrompt
    ) async -> (granted: Bool, error: ContactsError?) {
        do {
            try AccessConsentStore.validate(client: client)
        } catch {
            return (false, error)
        }
        switch consent.status(for: client) {
        case .authorized: return (true, nil)
        case .denied, .restricted: return (false, nil)
        case .notDetermined: break
        }
        guard let allowed = await prompt.askForAccess(client: client, store: consent.storeURL) else {
            return (false, nil)
        }
        do {
            try consent.setStatus(allowed ? .authorized : .denied, for: client)
        } catch let error as ContactsError {
            return (false, error)
        } catch {
            return (false, ContactsError(.io, "could not record the access decision", underlying: error))
        }
        return (allowed, nil)
    }
}
