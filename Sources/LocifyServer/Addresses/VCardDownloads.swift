import LocifyCore
import Vapor

/// A contact, or one of its addresses, as a `.vcf` download: the same answer for the API (a token) and
/// the web (a session).
enum VCardDownloads {
    @Sendable
    static func contact(request: Request) async throws -> Response {
        let id = try request.pathID(.contactID)
        let aggregate = try await request.contacts().aggregate(id)
        let contactFields = try request.contactFields()
        return VCard(
            aggregate, contactFields: try await contactFields.fields(ofContacts: [id]),
            kinds: try await contactFields.types()
        ).download(named: aggregate.contact.completeName)
    }

    @Sendable
    static func address(request: Request) async throws -> Response {
        let (contact, address) = try await request.contactAndAddress()
        return VCard(ContactAggregate(contact: contact, addresses: [address]))
            .download(named: [contact.completeName, address.address.label].compactMap { $0 }.joined(separator: " "))
    }
}

extension VCard {
    /// The card as a `.vcf` download, named after `name`.
    func download(named name: String) -> Response {
        VCardDownloads.response(VCardFormat.write(self), named: name)
    }
}

extension VCardDownloads {
    /// vCard text as a download (`text/vcard`, an attachment named `name.vcf`).
    static func response(_ text: String, named name: String) -> Response {
        let response = Response(status: .ok, body: .init(string: text))
        response.headers.contentType = HTTPMediaType(type: "text", subType: "vcard", parameters: ["charset": "utf-8"])
        let safeName = name.filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }
        response.headers.replaceOrAdd(
            name: .contentDisposition, value: "attachment; filename=\"\(safeName.isEmpty ? "contact" : safeName).vcf\"")
        return response
    }
}
