import Foundation

/// A contact with the records that hang off it, loaded together: one query for the contacts and one
/// per child table, however many contacts a page holds.
public struct ContactAggregate: Equatable, Sendable {
    public var contact: Contact
    public var addresses: [ContactAddress]
    /// The tags on the contact, in the order they were put on.
    public var tags: [Tag]
    /// How many reminders, notes, tasks and calls the contact has (Monica's `statistics`).
    public var counts: ContactCounts
    /// The contact's side of each of its relationships, oldest first, with the other contact.
    public var relationships: [ContactRelationship]
    /// The contact the owner met this one through (`ContactIntroduction.throughContactID`).
    public var metThrough: Contact?

    public init(
        contact: Contact, addresses: [ContactAddress], tags: [Tag] = [], counts: ContactCounts = ContactCounts(),
        relationships: [ContactRelationship] = [], metThrough: Contact? = nil
    ) {
        self.contact = contact
        self.addresses = addresses
        self.tags = tags
        self.counts = counts
        self.relationships = relationships
        self.metThrough = metThrough
    }
}

/// One of a contact's relationships with the contact at its other end.
public struct ContactRelationship: Equatable, Sendable {
    public var relationship: Relationship
    public var ofContact: Contact

    public init(_ relationship: Relationship, ofContact: Contact) {
        self.relationship = relationship
        self.ofContact = ofContact
    }
}

/// How many of each kind of record a contact has, for Monica's `statistics`.
public struct ContactCounts: Equatable, Sendable {
    public var reminders: Int
    public var notes: Int
    public var tasks: Int
    public var calls: Int
    public var debts: Int
    public var gifts: Int
    public var activities: Int
    /// The day of the newest activity the contact was at (Monica's `last_activity_together`).
    public var lastActivity: CalendarDate?
    /// When the newest call was (Monica's `last_called`).
    public var lastCall: Date?

    public init(
        reminders: Int = 0, notes: Int = 0, tasks: Int = 0, calls: Int = 0, debts: Int = 0, gifts: Int = 0,
        lastCall: Date? = nil, activities: Int = 0, lastActivity: CalendarDate? = nil
    ) {
        self.reminders = reminders
        self.notes = notes
        self.tasks = tasks
        self.calls = calls
        self.debts = debts
        self.gifts = gifts
        self.activities = activities
        self.lastActivity = lastActivity
        self.lastCall = lastCall
    }
}
