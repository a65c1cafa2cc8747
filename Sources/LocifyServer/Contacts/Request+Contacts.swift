import LocifyAPI
import Vapor

extension Request {
    /// The signed-in user's contacts.
    func contacts() throws -> ContactService {
        ContactService(
            database: database, owner: try requireUser(), dependencies: dependencies,
            sharedReads: sharedReads?.value(SharedContactReads.init))
    }

    /// Each of a contact's child items (address, note, reminder, photo…) made into its resource with its
    /// contact's short resource, the contacts read in one query; an item whose contact is not the
    /// signed-in user's is not found.
    func resources<Item, Resource>(
        _ items: [Item], contactOf contactID: (Item) -> Int,
        _ make: (Item, ContactShortResource) throws -> Resource
    ) async throws -> [Resource] {
        let makeWithContact: (Item, ContactShortResource?) throws -> Resource = { item, contact in
            guard let contact else { throw AppError.notFound }
            return try make(item, contact)
        }
        return try await resources(items, optionalContactOf: { contactID($0) }, makeWithContact)
    }

    /// `resources(_:contactOf:_:)` for items that may be about no one (tasks).
    func resources<Item, Resource>(
        _ items: [Item], optionalContactOf contactID: (Item) -> Int?,
        _ make: (Item, ContactShortResource?) throws -> Resource
    ) async throws -> [Resource] {
        let contacts = try await self.contacts().contacts(items.compactMap(contactID))
        let year = today.year
        return try items.map { item in
            guard let id = contactID(item) else { return try make(item, nil) }
            guard let contact = contacts[id] else { throw AppError.notFound }
            return try make(item, contactShortResource(contact, currentYear: year))
        }
    }

    /// Import and export of the signed-in user's contacts.
    func contactInterchange() throws -> ContactInterchange {
        ContactInterchange(
            contacts: try contacts(), contactFields: try contactFields(), addresses: try addresses(),
            cpuWork: application.cpuWork)
    }
}
