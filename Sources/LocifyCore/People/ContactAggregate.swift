/// A contact with the records that hang off it, loaded together: one query for the contacts and one
/// per child table, however many contacts a page holds.
public struct ContactAggregate: Equatable, Sendable {
    public var contact: Contact
    public var addresses: [ContactAddress]
    /// How many reminders the contact has (Monica's `statistics.number_of_reminders`).
    public var reminderCount: Int

    public init(contact: Contact, addresses: [ContactAddress], reminderCount: Int = 0) {
        self.contact = contact
        self.addresses = addresses
        self.reminderCount = reminderCount
    }
}
