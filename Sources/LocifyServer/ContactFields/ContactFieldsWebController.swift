import LocifyCore
import Vapor

/// The contact page's phone numbers, e-mails and accounts, and Settings → Kinds of contact field. Every
/// form works without scripts; a refused one draws its page again with the problem beside it and
/// nothing changed.
struct ContactFieldsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(SiteURL.contacts.pathComponents).grouped(":contactID").post("fields", use: addField)
        let field = routes.grouped("fields").grouped(":fieldID")
        field.post(use: editField)
        field.post("delete", use: deleteField)
        let kinds = routes.grouped(SiteURL.settingsFieldKinds.pathComponents)
        kinds.get(use: showKinds)
        kinds.post(use: createKind)
        kinds.post(":kindID", use: updateKind)
        kinds.post(":kindID", "delete", use: deleteKind)
    }

    struct FieldForm: Content {
        var kindID: String?
        var data: String?
        var labels: String?

        enum CodingKeys: String, CodingKey {
            case kindID = "contact_field_type_id"
            case data, labels
        }

        /// Labels typed in one field, separated by commas.
        var labelList: [String] {
            (labels ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        /// The form as the service's input; a kind that is not a number is one the account does not have.
        func input(contactID: Int) throws -> ContactFieldService.Input {
            var kind: Int?
            if let text = kindID, !text.isEmpty {
                guard let id = LooseValue.integer(text) else { throw AppError.notFound }
                kind = id
            }
            return ContactFieldService.Input(
                contactID: contactID, typeID: kind, data: data, labels: labelList, labelsAreTheWholeSet: true)
        }

        func problem(_ failure: ValidationFailure, itemID: Int?) -> ContactSectionProblem {
            ContactSectionProblem(
                section: .field, message: failure.plainMessage, typed: data, itemID: itemID,
                kindID: kindID.flatMap(LooseValue.integer), typedLabels: labels)
        }
    }

    func addField(request: Request) async throws -> Response {
        let contactID = try request.pathID("contactID")
        let form = try request.content.decode(FieldForm.self)
        let field: ContactField
        do {
            field = try await request.contactFields().create(try form.input(contactID: contactID))
        } catch let failure as ValidationFailure {
            return try await ContactPage.redraw(request, contactID, form.problem(failure, itemID: nil))
        }
        return request.redirect(to: SiteURL.contact(contactID).path + "#fields", flash: "“\(field.data)” was added.")
    }

    func editField(request: Request) async throws -> Response {
        let service = try request.contactFields()
        let field = try await service.field(try request.pathID("fieldID"))
        let form = try request.content.decode(FieldForm.self)
        do {
            _ = try await service.update(field.id, try form.input(contactID: field.contactID))
        } catch let failure as ValidationFailure {
            return try await ContactPage.redraw(request, field.contactID, form.problem(failure, itemID: field.id))
        }
        return request.redirect(to: SiteURL.contact(field.contactID).path + "#fields", flash: "The field was saved.")
    }

    func deleteField(request: Request) async throws -> Response {
        let service = try request.contactFields()
        let field = try await service.field(try request.pathID("fieldID"))
        try await service.delete(field.id)
        return request.redirect(
            to: SiteURL.contact(field.contactID).path + "#fields", flash: "“\(field.data)” was deleted.")
    }

    // MARK: Kinds

    struct KindForm: Content {
        var name: String?
        var linkProtocol: String?

        enum CodingKeys: String, CodingKey {
            case name
            case linkProtocol = "protocol"
        }
    }

    func showKinds(request: Request) async throws -> View {
        try await request.view.render("settings/field-kinds", try await FieldKindsPage.load(request))
    }

    func createKind(request: Request) async throws -> Response {
        let form = try request.content.decode(KindForm.self)
        do {
            let kind = try await request.contactFields().createType(
                name: form.name, icon: nil, linkProtocol: form.linkProtocol, type: nil)
            return request.redirect(to: SiteURL.settingsFieldKinds.path, flash: "“\(kind.name)” was added.")
        } catch let failure as ValidationFailure {
            return try await redrawKinds(request, problem: .init(kindID: nil, message: failure.plainMessage))
        }
    }

    /// A kind's name and protocol; its icon and type stay.
    func updateKind(request: Request) async throws -> Response {
        let id = try request.pathID("kindID")
        let form = try request.content.decode(KindForm.self)
        do {
            let kind = try await request.contactFields().updateType(
                id, name: .some(form.name), icon: nil, linkProtocol: .some(form.linkProtocol), type: nil)
            return request.redirect(to: SiteURL.settingsFieldKinds.path, flash: "“\(kind.name)” was saved.")
        } catch let failure as ValidationFailure {
            return try await redrawKinds(request, problem: .init(kindID: id, message: failure.plainMessage))
        }
    }

    func deleteKind(request: Request) async throws -> Response {
        let id = try request.pathID("kindID")
        let service = try request.contactFields()
        let kind = try await service.type(id)
        do {
            try await service.deleteType(id)
        } catch let failure as ValidationFailure {
            return try await redrawKinds(request, problem: .init(kindID: id, message: failure.plainMessage))
        }
        return request.redirect(to: SiteURL.settingsFieldKinds.path, flash: "“\(kind.name)” was deleted.")
    }

    private func redrawKinds(_ request: Request, problem: FieldKindsPage.Problem) async throws -> Response {
        try await request.view.render("settings/field-kinds", try await FieldKindsPage.load(request, problem: problem))
            .encodeResponse(status: .unprocessableEntity, for: request)
    }
}

/// `GET /settings/field-kinds`.
enum FieldKindsPage {
    /// A refused form: the kind it was about (nil for a new one) and what was wrong.
    struct Problem: Encodable {
        let kindID: Int?
        let message: String
    }

    struct Row: Encodable {
        let id: Int
        let name: String
        let linkProtocol: String
        let isDelible: Bool
        let fieldsLabel: String
        let saveURL: String
        let deleteURL: String
        let error: String?
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let kinds: [Row]
        let addURL: String
        let newError: String?
        let settingsURL: String
    }

    static func load(_ request: Request, problem: Problem? = nil) async throws -> Context {
        let service = try request.contactFields()
        let kinds = try await service.types()
        let counts = try await service.fieldCounts()
        let rows = kinds.map { kind in
            let count = counts[kind.id] ?? 0
            return Row(
                id: kind.id, name: kind.name, linkProtocol: kind.linkProtocol ?? "", isDelible: kind.isDelible,
                fieldsLabel: count == 1 ? "1 field" : "\(count) fields",
                saveURL: SiteURL.settingsFieldKind(kind.id).path,
                deleteURL: SiteURL.deleteSettingsFieldKind(kind.id).path,
                error: problem?.kindID == kind.id ? problem?.message : nil)
        }
        return Context(
            layout: LayoutContext(title: "Kinds of contact field", section: .settings, session: request.pageSession),
            kinds: rows, addURL: SiteURL.settingsFieldKinds.path,
            newError: problem != nil && problem?.kindID == nil ? problem?.message : nil,
            settingsURL: SiteURL.settings.path)
    }
}
