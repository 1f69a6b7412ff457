/// Whether a program may use a store, as the store's user decided.
///
/// The AddressBook equivalent is `ABAuthorizationStatus`, returned by
/// `ABAddressBookGetAuthorizationStatus`.
///
/// ```swift
/// let consent = AccessConsentStore(storeURL: storeURL)
/// switch consent.status(for: "com.example.mailer") {
/// case .authorized: print("go ahead")
/// case .notDetermined: print("ask first")
/// case .denied, .restricted: print("no access")
/// }
/// ```
public enum AuthorizationStatus: String, Sendable, CaseIterable {
    /// The user has not decided yet; asking is allowed.
    ///
    /// The AddressBook equivalent is `kABAuthorizationStatusNotDetermined`.
    case notDetermined
    /// Access is blocked by the administrator's policy file or by the operating system's
    /// file permissions; the user cannot change it.
    ///
    /// The AddressBook equivalent is `kABAuthorizationStatusRestricted`.
    case restricted
    /// The user refused access.
    ///
    /// The AddressBook equivalent is `kABAuthorizationStatusDenied`.
    case denied
    /// The user allowed access.
    ///
    /// The AddressBook equivalent is `kABAuthorizationStatusAuthorized`.
    case authorized
}
