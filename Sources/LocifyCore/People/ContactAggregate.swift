/// A contact with the records that hang off it, loaded together: one query for the contacts and one
/// per child table, however many contacts a page holds.
public struct ContactAggregate: Equatable, Sendable {
    public var contact: Contact
    public var addresses: [ContactAddress]

    public init(contact: Contact, addresses: [ContactAddress]) {
        self.contact = contact
        self.addresses = addresses
    }
}
