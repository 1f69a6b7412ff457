/// One coming occurrence of a person's birthday or anniversary, as
/// ``AddressBook/upcomingDates(from:within:people:)`` lists them.
///
/// ```swift
/// for upcoming in try book.upcomingDates(from: .today(), within: 30) {
///     print(upcoming.next, upcoming.name ?? "", upcoming.kind, upcoming.age.map(String.init) ?? "")
/// }
/// ```
public struct UpcomingDate: Sendable, Hashable {
    /// What the date celebrates.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The person's birthday (`kABPersonBirthdayProperty`).
        case birthday
        /// A date labelled ``Label/anniversary`` (`kABPersonAnniversaryLabel`).
        case anniversary
    }

    /// The person's record ID.
    public var recordID: RecordID
    /// The person's composite name, `nil` for a person without one.
    public var name: String?
    /// Birthday or anniversary.
    public var kind: Kind
    /// The date as stored, with or without a year.
    public var date: ContactDate
    /// The identifier of the anniversary's entry among the person's dates; `nil` for a birthday.
    public var entryIdentifier: MultiValueIdentifier?
    /// The day it falls on next, with its year: on or after the day counted from, and 28
    /// February in a common year for a 29 February.
    public var next: ContactDate
    /// Days from the day counted from to ``next``: 0 when it is that day.
    public var days: Int
    /// The age reached (for a birthday) or the years completed (for an anniversary) on
    /// ``next``; `nil` when the stored date has no year or lies after ``next``.
    public var age: Int?

    /// Creates an occurrence.
    public init(
        recordID: RecordID, name: String?, kind: Kind, date: ContactDate, entryIdentifier: MultiValueIdentifier?,
        next: ContactDate, days: Int, age: Int?
    ) {
        self.recordID = recordID
        self.name = name
        self.kind = kind
        self.date = date
        self.entryIdentifier = entryIdentifier
        self.next = next
        self.days = days
        self.age = age
    }
}
