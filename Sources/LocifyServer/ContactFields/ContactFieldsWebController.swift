import LocifyCore
import Vapor

/// The contact page's phone numbers, e-mails and accounts, and Settings → Kinds of contact field. Every
/// form works without scripts; a refused one draws its page again with the problem beside it and
/// nothing changed.
struct ContactFieldsWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post(ContactFieldPaths.contactFields, use: addField)
        routes.post(ContactFieldPaths.field, use: editField)
        routes.post(ContactFieldPaths.deleteField, use: deleteField)
        routes.get(ContactFieldPaths.kinds, use: showKinds)
        routes.post(ContactFieldPaths.kinds, use: createKind)
        routes.post(ContactFieldPaths.kind, use: updateKind)
        routes.post(ContactFieldPaths.deleteKind, use: deleteKind)
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

        /// What was sent, drawn again in the form when it is refused.
        var typed: [String: String?] {
            ["contact_field_type_id": kindID, "data": data, "labels": labels]
        }
    }

    func addField(request: Request) async throws -> Response {
        let contactID = try request.pathID(.contactID)
        let form = try request.content.decode(FieldForm.self)
        return try await request.handleContactForm(.contactField, contact: contactID, typed: form.typed) {
            let field = try await request.contactFields().create(try form.input(contactID: contactID))
            return .redirect(to: ContactPaths.contact(contactID).path + "#fields", flash: "“\(field.data)” was added.")
        }
    }

    func editField(request: Request) async throws -> Response {
        let service = try request.contactFields()
        let field = try await service.field(try request.pathID(.fieldID))
        let form = try request.content.decode(FieldForm.self)
        return try await request.handleContactForm(
            .contactField, contact: field.contactID, item: field.id, typed: form.typed
        ) {
            _ = try await service.update(field.id, try form.input(contactID: field.contactID))
            return .redirect(to: ContactPaths.contact(field.contactID).path + "#fields", flash: "The field was saved.")
        }
    }

    func deleteField(request: Request) async throws -> Response {
        let service = try request.contactFields()
        let field = try await service.field(try request.pathID(.fieldID))
        try await service.delete(field.id)
        return request.redirect(
            to: ContactPaths.contact(field.contactID).path + "#fields", flash: "“\(field.data)” was deleted.")
    }

    // MARK: Kinds

    struct KindForm: Content {
        var name: String?
        var linkProtocol: String?

        enum CodingKeys: String, CodingKey {
            case name
            case linkProtocol = "protocol"
        }

        var typed: [String: String?] { ["name": name, "protocol": linkProtocol] }
    }

    func showKinds(request: Request) async throws -> View {
        try await request.view.render("settings/field-kinds", try await FieldKindsPage.load(request))
    }

    func createKind(request: Request) async throws -> Response {
        let form = try request.content.decode(KindForm.self)
        return try await request.handleForm(.fieldKind, typed: form.typed) {
            let kind = try await request.contactFields().createType(
                name: form.name, icon: nil, linkProtocol: form.linkProtocol, type: nil)
            return .redirect(to: SitePaths.settingsFieldKinds.path, flash: "“\(kind.name)” was added.")
        } redraw: { problem in
            try await request.view.render(
                "settings/field-kinds", try await FieldKindsPage.load(request, problem: problem))
        }
    }

    /// A kind's name and protocol; its icon and type stay.
    func updateKind(request: Request) async throws -> Response {
        let id = try request.pathID(.kindID)
        let form = try request.content.decode(KindForm.self)
        return try await request.handleForm(.fieldKind, item: id, typed: form.typed) {
            let kind = try await request.contactFields().updateType(
                id, name: .some(form.name), icon: nil, linkProtocol: .some(form.linkProtocol), type: nil)
            return .redirect(to: SitePaths.settingsFieldKinds.path, flash: "“\(kind.name)” was saved.")
        } redraw: { problem in
            try await request.view.render(
                "settings/field-kinds", try await FieldKindsPage.load(request, problem: problem))
        }
    }

    func deleteKind(request: Request) async throws -> Response {
        let id = try request.pathID(.kindID)
        let service = try request.contactFields()
        let kind = try await service.type(id)
        return try await request.handleForm(.fieldKind, item: id) {
            try await service.deleteType(id)
            return .redirect(to: SitePaths.settingsFieldKinds.path, flash: "“\(kind.name)” was deleted.")
        } redraw: { problem in
            try await request.view.render(
                "settings/field-kinds", try await FieldKindsPage.load(request, problem: problem))
        }
    }
}

/// `GET /settings/field-kinds`.
enum FieldKindsPage {
    struct Row: Encodable {
        let id: Int
        let name: String
        let isDelible: Bool
        let fieldsLabel: String
        let saveURL: String
        let deleteURL: String
        let nameField: FormField
        let protocolField: FormField
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let kinds: [Row]
        let addURL: String
        let nameField: FormField
        let protocolField: FormField
        let settingsURL: String
    }

    /// `problem` is a refused form: a row's (its save or delete) or the new kind's.
    static func load(_ request: Request, problem: FormProblem? = nil) async throws -> Context {
        let service = try request.contactFields()
        let kinds = try await service.types()
        let counts = try await service.fieldCounts()
        let rows = kinds.map { kind in
            let count = counts[kind.id] ?? 0
            return Row(
                id: kind.id, name: kind.name, isDelible: kind.isDelible,
                fieldsLabel: count == 1 ? "1 field" : "\(count) fields",
                saveURL: ContactFieldPaths.kind(kind.id).path,
                deleteURL: ContactFieldPaths.deleteKind(kind.id).path,
                nameField: FormField(
                    "name", label: "Name", value: problem?.typed("name", in: .fieldKind, item: kind.id) ?? kind.name,
                    error: problem?.message(for: .fieldKind, item: kind.id), isRequired: true, maxLength: 255
                ).identified(as: "kind-\(kind.id)-name"),
                protocolField: FormField(
                    "protocol", label: "Protocol",
                    value: problem?.typed("protocol", in: .fieldKind, item: kind.id) ?? kind.linkProtocol,
                    maxLength: 255
                ).identified(as: "kind-\(kind.id)-protocol"))
        }
        return Context(
            layout: LayoutContext(title: "Kinds of contact field", section: .settings, session: request.pageSession),
            kinds: rows, addURL: SitePaths.settingsFieldKinds.path,
            nameField: FormField(
                "name", label: "Name", value: problem?.typed("name", in: .fieldKind),
                error: problem?.message(for: .fieldKind), isRequired: true, maxLength: 255
            ).identified(as: "new-kind-name"),
            protocolField: FormField(
                "protocol", label: "Protocol (optional)", value: problem?.typed("protocol", in: .fieldKind),
                hint: "What a link to the value starts with.", maxLength: 255, placeholder: "https://mastodon.social/@"
            ).identified(as: "new-kind-protocol"),
            settingsURL: SitePaths.settings.path)
    }
}
