import Foundation

/// A form whose change the offline app keeps on the device when the server cannot be reached: the page's
/// script (`offline-changes.js`) turns what the person typed into a sync mutation (`POST /api/sync`) from
/// these attributes, and sends it when the server answers again. Drawn into the `<form>` tag by
/// `partials/offline-form.leaf` (`data-sync-…`); the form works as before without the script.
struct OfflineForm: Encodable, Equatable, Sendable {
    enum Operation: String, Encodable, Sendable {
        case create, update, delete
    }

    /// The sync type (`contact`, `place`, …).
    let type: String
    let op: Operation
    /// The record changed or deleted; the script finds its uuid and revision in the device's copy.
    let id: Int?
    /// The form's controls that are the type's push fields, space-separated: only those are sent, and an
    /// update sends only those the person changed.
    let fields: String
    /// Fields the form sets whatever is typed, as JSON (a favorite button's `{"is_favorite": true}`, the
    /// contact a new address is for).
    let fixed: String?
    /// The change in the person's words, for the list of changes waiting ("Changes to Ada Lovelace").
    let summary: String
    /// The page the person goes to once the change is kept on the device.
    let then: String
    /// A control that names a record to make first, as JSON: a place's "Or a new category" becomes a new
    /// category, and the place names it by the uuid made for it.
    let companion: String?

    /// `fixed` values are strings, numbers or booleans.
    init(
        _ op: Operation, of type: SyncedType, id: Int? = nil, fixed: [String: any Encodable & Sendable] = [:],
        summary: String, then: String, companion: Companion? = nil
    ) {
        self.type = type.name
        self.op = op
        self.id = id
        fields = type.writes?.fieldList ?? ""
        self.fixed = fixed.isEmpty ? nil : Self.json(fixed.mapValues(AnyEncodable.init))
        self.summary = summary
        self.then = then
        self.companion = companion.map(Self.json)
    }

    /// A control whose text makes a record of `type` (its `field`) that the form's record names by uuid
    /// in `reference`.
    struct Companion: Encodable, Sendable {
        let control: String
        let type: String
        let field: String
        let reference: String
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private struct AnyEncodable: Encodable {
        let value: any Encodable & Sendable
        init(_ value: any Encodable & Sendable) { self.value = value }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
}
