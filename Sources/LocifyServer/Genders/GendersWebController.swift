import LocifyCore
import Vapor

/// Settings → Genders: the account's list, each with how many contacts have it; add, rename or retype,
/// and delete (a gender in use asks which gender its contacts move to).
struct GendersWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(GenderPaths.settings, use: show)
        routes.post(GenderPaths.settings, use: create)
        routes.post(GenderPaths.gender, use: update)
        routes.post(GenderPaths.delete, use: delete)
    }

    struct GenderForm: Content {
        var name: String?
        var type: String?
        var replaceBy: String?

        enum CodingKeys: String, CodingKey {
            case name, type
            case replaceBy = "replace_by"
        }

        var typed: [String: String?] { ["name": name, "type": type, "replace_by": replaceBy] }
    }

    func show(request: Request) async throws -> View {
        try await request.view.render("settings/genders", try await GendersPage.load(request))
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(GenderForm.self)
        return try await request.handleForm(.gender, typed: form.typed) {
            let gender = try await request.genders().create(name: form.name, type: form.type)
            return .redirect(to: SitePaths.settingsGenders.path, flash: "“\(gender.name)” was added.")
        } redraw: { problem in
            try await request.view.render("settings/genders", try await GendersPage.load(request, problem: problem))
        }
    }

    func update(request: Request) async throws -> Response {
        let id = try request.pathID(.genderID)
        let form = try request.content.decode(GenderForm.self)
        return try await request.handleForm(.gender, item: id, typed: form.typed) {
            let gender = try await request.genders().update(id, name: .some(form.name), type: .some(form.type))
            return .redirect(to: SitePaths.settingsGenders.path, flash: "“\(gender.name)” was saved.")
        } redraw: { problem in
            try await request.view.render("settings/genders", try await GendersPage.load(request, problem: problem))
        }
    }

    func delete(request: Request) async throws -> Response {
        let id = try request.pathID(.genderID)
        let form = try request.content.decode(GenderForm.self)
        let gender = try await request.genders().gender(id)
        return try await request.handleForm(.gender, item: id) {
            var replacement: Int?
            if let text = form.replaceBy, !text.isEmpty {
                guard let value = LooseValue.integer(text) else { throw AppError.notFound }
                replacement = value
            }
            try await request.genders().delete(id, replacement: replacement)
            return .redirect(to: SitePaths.settingsGenders.path, flash: "“\(gender.name)” was deleted.")
        } redraw: { problem in
            try await request.view.render("settings/genders", try await GendersPage.load(request, problem: problem))
        }
    }
}

extension FormName {
    static let gender = FormName("gender")
}

/// `GET /settings/genders`.
enum GendersPage {
    struct Row: Encodable {
        let id: Int
        let name: String
        let contacts: Int
        let contactsLabel: String
        let saveURL: String
        let deleteURL: String
        let nameField: FormField
        let typeField: FormField
        /// Which of the other genders takes this one's contacts; nil when it is the only gender.
        let replacementField: FormField?
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let genders: [Row]
        let addURL: String
        let nameField: FormField
        let typeField: FormField
        let settingsURL: String
    }

    static let typeLabels: [(type: String, label: String)] = [
        ("M", "Male (M)"), ("F", "Female (F)"), ("O", "Other (O)"), ("U", "Unknown (U)"), ("N", "None (N)"),
    ]

    static func typeOptions(selected: String) -> [SelectOption] {
        typeLabels.map { SelectOption(value: $0.type, label: $0.label, isSelected: $0.type == selected) }
    }

    /// `problem` is a refused form: a row's (its save or delete) or the new gender's.
    static func load(_ request: Request, problem: FormProblem? = nil) async throws -> Context {
        let service = try request.genders()
        let genders = try await service.all()
        let counts = try await service.contactCounts()
        let rows = genders.map { gender in
            let count = counts[gender.id] ?? 0
            let contactsLabel = count == 1 ? "1 contact" : "\(count) contacts"
            func typed(_ name: String) -> String? { problem?.typed(name, in: .gender, item: gender.id) }
            let others = genders.filter { $0.id != gender.id }
            return Row(
                id: gender.id, name: gender.name, contacts: count, contactsLabel: contactsLabel,
                saveURL: GenderPaths.gender(gender.id).path,
                deleteURL: GenderPaths.delete(gender.id).path,
                nameField: FormField(
                    "name", label: "Name", value: typed("name") ?? gender.name,
                    error: problem?.message(for: .gender, item: gender.id), isRequired: true, maxLength: 255
                ).identified(as: "gender-\(gender.id)-name"),
                typeField: FormField(
                    "type", label: "Type", control: .select,
                    options: typeOptions(selected: typed("type") ?? gender.type)
                ).identified(as: "gender-\(gender.id)-type"),
                replacementField: others.isEmpty
                    ? nil
                    : FormField(
                        "replace_by", label: "\(contactsLabel) will have instead", control: .select,
                        options: others.map { SelectOption(value: String($0.id), label: $0.name, isSelected: false) }
                    ).identified(as: "gender-\(gender.id)-replace"))
        }
        return Context(
            layout: LayoutContext(title: "Genders", section: .settings, session: request.pageSession), genders: rows,
            addURL: SitePaths.settingsGenders.path,
            nameField: FormField(
                "name", label: "Name", value: problem?.typed("name", in: .gender),
                error: problem?.message(for: .gender), isRequired: true, maxLength: 255
            ).identified(as: "new-gender-name"),
            typeField: FormField(
                "type", label: "Type", control: .select,
                options: typeOptions(selected: problem?.typed("type", in: .gender) ?? "O")
            ).identified(as: "new-gender-type"),
            settingsURL: SitePaths.settings.path)
    }
}
