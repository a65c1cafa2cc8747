import LocifyCore
import Vapor

/// Each field's first problem, by wire name, for showing beside the field.
typealias FieldMessages = [String: String]

/// One input of a web form as `partials/field.leaf` draws it. The label, hint, error and ARIA
/// attributes are worked out here once, so every form field looks and behaves the same.
struct FormField: Encodable, Equatable {
    enum Control: String, Encodable {
        case text, email, password, textarea, select, checkbox, time, date, url, number
    }

    let name: String
    /// The element's id: the name, unless a page shows the field in several forms.
    private(set) var id: String
    let label: String
    let control: Control
    let value: String
    let hint: String?
    let error: String?
    let isRequired: Bool
    let autocomplete: String
    let inputMode: String?
    let maxLength: Int?
    let minLength: Int?
    let size: Int?
    let options: [SelectOption]
    /// For a long select: the placeholder of the filter a script puts above it ("Type to find a contact").
    let filterPlaceholder: String?
    let isChecked: Bool
    /// Values offered as the person types (a `datalist`); any other text is allowed too.
    let suggestions: [String]
    private(set) var suggestionsID: String
    /// The ids of the hint and the error, for `aria-describedby`.
    private(set) var describedBy: String?
    private(set) var hintID: String
    private(set) var errorID: String

    init(
        _ name: String, label: String, control: Control = .text, value: String? = nil, errors: FieldMessages = [:],
        hint: String? = nil, isRequired: Bool = false, autocomplete: String = "off", inputMode: String? = nil,
        maxLength: Int? = nil, minLength: Int? = nil, size: Int? = nil, options: [SelectOption] = [],
        filterPlaceholder: String? = nil, isChecked: Bool = false, suggestions: [String] = []
    ) {
        self.filterPlaceholder = filterPlaceholder
        self.name = name
        id = name
        self.label = label
        self.control = control
        self.value = value ?? ""
        self.hint = hint
        error = errors[name]
        self.isRequired = isRequired
        self.autocomplete = autocomplete
        self.inputMode = inputMode
        self.maxLength = maxLength
        self.minLength = minLength
        self.size = size
        self.options = options
        self.isChecked = isChecked
        self.suggestions = suggestions
        suggestionsID = ""
        hintID = ""
        errorID = ""
        identify(as: name)
    }

    /// The same field under another element id, for pages that show several forms with one field name.
    func identified(as id: String) -> FormField {
        var copy = self
        copy.identify(as: id)
        return copy
    }

    private mutating func identify(as id: String) {
        self.id = id
        suggestionsID = id + "-suggestions"
        hintID = id + "-hint"
        errorID = id + "-error"
        let described = [hint == nil ? nil : hintID, error == nil ? nil : errorID].compactMap { $0 }
        describedBy = described.isEmpty ? nil : described.joined(separator: " ")
    }
}

/// The one way a form submission ends.
enum FormOutcome {
    /// Saved: go to `path`, with a one-time message.
    case redirect(to: String, flash: String)
    /// Saved, with a page of its own to show (a new token's secret).
    case page(Response)
}

extension Request {
    /// Handles a form POST the one way every form does: `submit` saves and says where to go; when the
    /// input breaks a rule the page is drawn again by `redraw`, with status 422 and each problem beside
    /// its field, and nothing is saved.
    func handleForm(
        _ submit: () async throws -> FormOutcome,
        redraw: (FieldMessages) async throws -> View
    ) async throws -> Response {
        do {
            switch try await submit() {
            case .redirect(let path, let flash): return redirect(to: path, flash: flash)
            case .page(let response): return response
            }
        } catch let failure as ValidationFailure {
            return try await redraw(failure.byField).encodeResponse(status: .unprocessableEntity, for: self)
        }
    }
}
