import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's contact fields and their kinds.
    func contactFields() throws -> ContactFieldService {
        ContactFieldService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }

    /// The body as a contact field input; `contactID` (from the path) wins over the body's.
    func contactFieldInput(contactID: Int?) throws -> ContactFieldService.Input {
        let body = try jsonInput(ContactFieldInput.self, empty: ContactFieldInput())
        return ContactFieldService.Input(
            contactID: contactID ?? body.contactID, typeID: body.typeID, data: body.data, labels: body.labels,
            typeErrors: contactID == nil ? body.typeErrors : body.typeErrors.filter { $0.field != "contact_id" })
    }

    /// Each field with its kind, its labels' ids and its contact, read in one question each.
    func contactFieldResources(_ fields: [ContactField]) async throws -> [ContactFieldResource] {
        let service = try contactFields()
        let types = Dictionary(uniqueKeysWithValues: try await service.types().map { ($0.id, $0) })
        return try await resources(fields, contactOf: \.contactID) { field, contact in
            guard let type = types[field.typeID] else { throw AppError.notFound }
            return ContactFieldResource(field, type: type, contact: contact)
        }
    }
}
