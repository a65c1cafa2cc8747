import LocifyCore
import Vapor

/// Settings → Genders: the account's list, each with how many contacts have it; add, rename or retype,
/// and delete (a gender in use asks which gender its contacts move to).
struct GendersWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let genders = routes.grouped(SiteURL.settingsGenders.pathComponents)
        genders.get(use: show)
        genders.post(use: create)
        genders.post(":genderID", use: update)
        genders.post(":genderID", "delete", use: delete)
    }

    struct GenderForm: Content {
        var name: String?
        var type: String?
        var replaceBy: String?

        enum CodingKeys: String, CodingKey {
            case name, type
            case replaceBy = "replace_by"
        }
    }

    func show(request: Request) async throws -> View {
        try await request.view.render("settings/genders", try await GendersPage.load(request))
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(GenderForm.self)
        do {
            let gender = try await request.genders().create(name: form.name, type: form.type)
            return request.redirect(to: SiteURL.settingsGenders.path, flash: "“\(gender.name)” was added.")
        } catch let failure as ValidationFailure {
            return try await redraw(request, problem: .init(genderID: nil, message: failure.plainMessage))
        }
    }

    func update(request: Request) async throws -> Response {
        let id = try request.pathID("genderID")
        let form = try request.content.decode(GenderForm.self)
        do {
            let gender = try await request.genders().update(id, name: .some(form.name), type: .some(form.type))
            return request.redirect(to: SiteURL.settingsGenders.path, flash: "“\(gender.name)” was saved.")
        } catch let failure as ValidationFailure {
            return try await redraw(request, problem: .init(genderID: id, message: failure.plainMessage))
        }
    }

    func delete(request: Request) async throws -> Response {
        let id = try request.pathID("genderID")
        let form = try request.content.decode(GenderForm.self)
        let gender = try await request.genders().gender(id)
        do {
            var replacement: Int?
            if let text = form.replaceBy, !text.isEmpty {
                guard let value = LooseValue.integer(text) else { throw AppError.notFound }
                replacement = value
            }
            try await request.genders().delete(id, replacement: replacement)
        } catch let failure as ValidationFailure {
            return try await redraw(request, problem: .init(genderID: id, message: failure.plainMessage))
        }
        return request.redirect(to: SiteURL.settingsGenders.path, flash: "“\(gender.name)” was deleted.")
    }

    private func redraw(_ request: Request, problem: GendersPage.Problem) async throws -> Response {
        try await request.view.render("settings/genders", try await GendersPage.load(request, problem: problem))
            .encodeResponse(status: .unprocessableEntity, for: request)
    }
}

/// `GET /settings/genders`.
enum GendersPage {
    /// A refused form: the gender it was about (nil for a new one) and what was wrong.
    struct Problem: Encodable {
        let genderID: Int?
        let message: String
    }

    struct Row: Encodable {
        let id: Int
        let name: String
        let typeOptions: [SelectOption]
        let contacts: Int
        let contactsLabel: String
        let saveURL: String
        let deleteURL: String
        /// The other genders, which may take this one's contacts.
        let replacements: [SelectOption]
        let error: String?
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let genders: [Row]
        let addURL: String
        let newTypeOptions: [SelectOption]
        let newError: String?
        let settingsURL: String
    }

    static let typeLabels: [(type: String, label: String)] = [
        ("M", "Male (M)"), ("F", "Female (F)"), ("O", "Other (O)"), ("U", "Unknown (U)"), ("N", "None (N)"),
    ]

    static func typeOptions(selected: String) -> [SelectOption] {
        typeLabels.map { SelectOption(value: $0.type, label: $0.label, isSelected: $0.type == selected) }
    }

    static func load(_ request: Request, problem: Problem? = nil) async throws -> Context {
        let service = try request.genders()
        let genders = try await service.all()
        let counts = try await service.contactCounts()
        let rows = genders.map { gender in
            let count = counts[gender.id] ?? 0
            return Row(
                id: gender.id, name: gender.name, typeOptions: typeOptions(selected: gender.type), contacts: count,
                contactsLabel: count == 1 ? "1 contact" : "\(count) contacts",
                saveURL: SiteURL.settingsGender(gender.id).path,
                deleteURL: SiteURL.deleteSettingsGender(gender.id).path,
                replacements: genders.filter { $0.id != gender.id }.map {
                    SelectOption(value: String($0.id), label: $0.name, isSelected: false)
                },
                error: problem?.genderID == gender.id ? problem?.message : nil)
        }
        return Context(
            layout: LayoutContext(title: "Genders", section: .settings, session: request.pageSession), genders: rows,
            addURL: SiteURL.settingsGenders.path, newTypeOptions: typeOptions(selected: "O"),
            newError: problem != nil && problem?.genderID == nil ? problem?.message : nil,
            settingsURL: SiteURL.settings.path)
    }
}
