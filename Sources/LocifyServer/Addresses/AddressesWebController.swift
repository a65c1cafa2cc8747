import LocifyCore
import Vapor

/// The address pages of the web app: add, edit and delete a contact's addresses, and download them as vCards.
struct AddressesWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ContactPaths.vcard, use: VCardDownloads.contact)
        routes.post(AddressPaths.list, use: create)
        routes.get(AddressPaths.new, use: new)
        routes.get(AddressPaths.edit, use: edit)
        routes.post(AddressPaths.edit, use: update)
        routes.get(AddressPaths.delete, use: confirmDelete)
        routes.post(AddressPaths.delete, use: delete)
        routes.get(AddressPaths.vcard, use: VCardDownloads.address)
    }

    func new(request: Request) async throws -> View {
        let contact = try await request.contacts().contact(try request.pathID(.contactID))
        var form = AddressForm(defaultCountry: try await request.addresses().lastUsedCountry())
        if let country = request.queryParameters["country"] { form.country = country }
        return try await request.view.render(
            "addresses/form",
            AddressFormPage.Context(
                form: form, contact: contact, session: request.pageSession, tilesEnabled: request.mapTilesEnabled))
    }

    func create(request: Request) async throws -> Response {
        let contact = try await request.contacts().contact(try request.pathID(.contactID))
        let form = try request.content.decode(AddressForm.self)
        func page(_ errors: FieldMessages) async throws -> View {
            try await request.view.render(
                "addresses/form",
                AddressFormPage.Context(
                    form: form, contact: contact, errors: errors, session: request.pageSession,
                    tilesEnabled: request.mapTilesEnabled))
        }
        if form.isRefresh { return try await page([:]).encodeResponse(for: request) }
        return try await request.handleForm {
            let (draft, typeErrors, coordinatesSent) = form.draft()
            _ = try await request.addresses().create(
                contactID: contact.id, draft, typeErrors: typeErrors, coordinatesSent: coordinatesSent)
            return .redirect(to: ContactPaths.contact(contact.id).path, flash: "The address was added.")
        } redraw: { errors in
            try await page(errors)
        }
    }

    func edit(request: Request) async throws -> View {
        let (contact, address) = try await request.contactAndAddress()
        var form = AddressForm(address)
        if let country = request.queryParameters["country"] { form.country = country }
        return try await request.view.render(
            "addresses/form",
            AddressFormPage.Context(
                form: form, contact: contact, editing: address, session: request.pageSession,
                tilesEnabled: request.mapTilesEnabled))
    }

    func update(request: Request) async throws -> Response {
        let (contact, address) = try await request.contactAndAddress()
        let form = try request.content.decode(AddressForm.self)
        func page(_ errors: FieldMessages) async throws -> View {
            try await request.view.render(
                "addresses/form",
                AddressFormPage.Context(
                    form: form, contact: contact, errors: errors, editing: address, session: request.pageSession,
                    tilesEnabled: request.mapTilesEnabled))
        }
        if form.isRefresh { return try await page([:]).encodeResponse(for: request) }
        return try await request.handleForm {
            let (draft, typeErrors, coordinatesSent) = form.draft(stored: address)
            _ = try await request.addresses().update(
                address.id, contactID: nil, typeErrors: typeErrors, coordinatesSent: coordinatesSent
            ) { _ in draft }
            return .redirect(to: ContactPaths.contact(contact.id).path, flash: "The address was saved.")
        } redraw: { errors in
            try await page(errors)
        }
    }

    func confirmDelete(request: Request) async throws -> View {
        let (contact, address) = try await request.contactAndAddress()
        return try await request.view.render(
            "addresses/delete",
            DeleteAddressPage.Context(
                address: address, contact: contact, preferredApp: request.preferredMapsApp,
                session: request.pageSession))
    }

    func delete(request: Request) async throws -> Response {
        let (contact, address) = try await request.contactAndAddress()
        try await request.addresses().delete(address.id)
        return request.redirect(to: ContactPaths.contact(contact.id).path, flash: "The address was deleted.")
    }

}

extension Request {
    /// The contact and its address named in the path (`contactID`, `addressID`); an address of another
    /// contact is not found.
    func contactAndAddress() async throws -> (Contact, ContactAddress) {
        let contact = try await contacts().contact(try pathID(.contactID))
        let address = try await addresses().address(try pathID(.addressID))
        guard address.contactID == contact.id else { throw AppError.notFound }
        return (contact, address)
    }

    /// The maps app the signed-in user picked in Settings.
    var preferredMapsApp: MapsApp {
        auth.get(AuthenticatedUser.self)?.profile.mapsApp ?? .openStreetMap
    }
}
