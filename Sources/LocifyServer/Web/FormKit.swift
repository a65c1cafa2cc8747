import LocifyCore
import Vapor

/// Each field's first problem, by wire name, for showing beside the field.
typealias FieldMessages = [String: String]

/// One control of a web form as `partials/field.leaf` (or, in a row or a menu, `partials/compact-field.leaf`)
/// draws it. The label, hint, error and ARIA attributes are worked out here once, so every control looks
/// and behaves the same and no template writes one by hand.
struct FormField: Encodable, Equatable {
    enum Control: String, Encodable {
        case text, email, password, textarea, select, checkbox, radio, time, date, url, number, search, file
        /// A value the form sends back unseen (where to go afterwards, which contact), drawn by
        /// `partials/control.leaf` alone: it has no label, hint or error.
        case hidden
    }

    /// A `data-` attribute a page script reads (`name` without the prefix).
    struct DataAttribute: Encodable, Equatable {
        let name: String
        let value: String
    }

    let name: String
    /// The element's id: the name, unless a page shows the field in several forms.
    private(set) var id: String
    let label: String
    let control: Control
    /// The text typed; for a checkbox or a radio button, the value it sends when ticked.
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
    /// A select of which several options may be chosen (`multiple`); its values are sent as one field
    /// repeated.
    let isMultiple: Bool
    let isChecked: Bool
    /// Values offered as the person types (a `datalist`, there even while empty, so a script or a
    /// later page finds it); any other text is allowed too.
    let suggestions: [String]
    let offersSuggestions: Bool
    /// A textarea's height in lines.
    let rows: Int
    let placeholder: String?
    /// The kinds of file a file control takes (`accept`).
    let accept: String?
    /// Text to select and copy (a share text, a token), not to edit.
    let isReadOnly: Bool
    /// The label is read out but not shown: a search box whose row says what it is.
    let isLabelHidden: Bool
    /// Neither control nor label shows until a script needs them (a switch the script drives).
    let isHidden: Bool
    /// A class of the stylesheet for the control (`share-text`, `token-value`).
    let styleClass: String?
    let dataAttributes: [DataAttribute]
    private(set) var suggestionsID: String
    /// The ids of the hint and the error, for `aria-describedby`.
    private(set) var describedBy: String?
    private(set) var hintID: String
    private(set) var errorID: String

    /// `errors` are the form's messages by field name; `error` is this field's own, for a form that
    /// reports one message (a small form of a page that shows several).
    init(
        _ name: String, label: String, control: Control = .text, value: String? = nil, errors: FieldMessages = [:],
        error: String? = nil, hint: String? = nil, isRequired: Bool = false, autocomplete: String = "off",
        inputMode: String? = nil, maxLength: Int? = nil, minLength: Int? = nil, size: Int? = nil,
        options: [SelectOption] = [], filterPlaceholder: String? = nil, isMultiple: Bool = false,
        isChecked: Bool = false,
        suggestions: [String]? = nil, rows: Int = 4, placeholder: String? = nil, accept: String? = nil,
        isReadOnly: Bool = false, isLabelHidden: Bool = false, isHidden: Bool = false, styleClass: String? = nil,
        dataAttributes: [DataAttribute] = []
    ) {
        self.filterPlaceholder = filterPlaceholder
        self.isMultiple = isMultiple
        self.name = name
        id = name
        self.label = label
        self.control = control
        self.value = value ?? ""
        self.hint = hint
        self.error = errors[name] ?? error
        self.isRequired = isRequired
        self.autocomplete = autocomplete
        self.inputMode = inputMode
        self.maxLength = maxLength
        self.minLength = minLength
        self.size = size
        self.options = options
        self.isChecked = isChecked
        self.suggestions = suggestions ?? []
        offersSuggestions = suggestions != nil
        self.rows = rows
        self.placeholder = placeholder
        self.accept = accept
        self.isReadOnly = isReadOnly
        self.isLabelHidden = isLabelHidden
        self.isHidden = isHidden
        self.styleClass = styleClass
        self.dataAttributes = dataAttributes
        suggestionsID = ""
        hintID = ""
        errorID = ""
        identify(as: name)
    }

    /// A value the form sends back unseen: `FormField.hidden("return_to", value: back)`, drawn with
    /// `#extend("partials/control", field)`.
    static func hidden(_ name: String, value: String, dataAttributes: [DataAttribute] = []) -> FormField {
        FormField(name, label: "", control: .hidden, value: value, dataAttributes: dataAttributes)
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

/// Fields that answer one question together (checkboxes, radio buttons), drawn by `partials/fieldset.leaf`
/// under their legend, with the group's problem after them.
struct FormGroup: Encodable, Equatable {
    let legend: String
    let fields: [FormField]
    let error: String?
    let errorID: String

    /// `name` is the wire name the group's problem is reported under.
    init(_ name: String, legend: String, fields: [FormField], errors: FieldMessages = [:]) {
        self.legend = legend
        self.fields = fields
        error = errors[name]
        errorID = name + "-error"
    }
}

/// Names one of the small forms of a page that shows several (a contact's note form, a row of a settings
/// list). Each feature declares its own: `extension FormName { static let note = FormName("note") }`.
struct FormName: Hashable, Sendable {
    let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// A refused small form: which form, which item it edits (nil for the form that adds one), the message,
/// and what was typed by field name, so the page draws that one form again with the problem beside it.
struct FormProblem: Sendable {
    let form: FormName
    let itemID: Int?
    let message: String
    let typed: [String: String]

    /// The message, when the refused form is `form` (editing `itemID`; nil for the form that adds one).
    func message(for form: FormName, item itemID: Int? = nil) -> String? {
        isAbout(form, itemID) ? message : nil
    }

    /// What was typed in `field` when the refused form is `form` (editing `itemID`).
    func typed(_ field: String, in form: FormName, item itemID: Int? = nil) -> String? {
        isAbout(form, itemID) ? typed[field] : nil
    }

    private func isAbout(_ form: FormName, _ itemID: Int?) -> Bool {
        self.form == form && self.itemID == itemID
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
    /// Handles a form POST the one way every full-page form does: `submit` saves and says where to go;
    /// when the input breaks a rule the page is drawn again by `redraw`, with status 422 and each problem
    /// beside its field, and nothing is saved.
    func handleForm(
        _ submit: () async throws -> FormOutcome,
        redraw: (FieldMessages) async throws -> View
    ) async throws -> Response {
        try await handle(submit) { failure in try await redraw(failure.byField) }
    }

    /// Handles one of the small forms of a page that shows several (a contact's note, a row of a
    /// settings list), the same way: saved and redirected, or the page drawn again by `redraw` (422)
    /// with the problem beside `form` and `typed` (what was sent, by field name) in it.
    func handleForm(
        _ form: FormName, item itemID: Int? = nil, typed: [String: String?] = [:],
        _ submit: () async throws -> FormOutcome,
        redraw: (FormProblem) async throws -> View
    ) async throws -> Response {
        try await handle(submit) { failure in
            try await redraw(
                FormProblem(
                    form: form, itemID: itemID, message: failure.plainMessage, typed: typed.compactMapValues { $0 }))
        }
    }

    /// Handles a button that changes something and goes back (mark done, delete): a refusal goes back
    /// to `path` too, saying why, and changes nothing.
    func handleAction(returningTo path: String, _ submit: () async throws -> FormOutcome) async throws -> Response {
        do {
            return try await respond(to: submit())
        } catch let failure as ValidationFailure {
            return redirect(to: path, flash: failure.plainMessage)
        }
    }

    private func handle(
        _ submit: () async throws -> FormOutcome, redrawing redraw: (ValidationFailure) async throws -> View
    ) async throws -> Response {
        do {
            return try await respond(to: submit())
        } catch let failure as ValidationFailure {
            return try await redraw(failure).encodeResponse(status: .unprocessableEntity, for: self)
        }
    }

    private func respond(to outcome: FormOutcome) -> Response {
        switch outcome {
        case .redirect(let path, let flash): redirect(to: path, flash: flash)
        case .page(let response): response
        }
    }
}
