import LocifyAPI
import Vapor

extension SyncedType {
    /// Contact fields with their labels, which change with them.
    static let contactField = SyncedType(ContactFieldsTable.self, restore: .contactField) { request, ids in
        let fields = try await request.contactFields().fields(ids)
        return byID(try await request.contactFieldResources(fields), id: \.id, as: SyncRecord.contactField)
    }

    static let contactFieldType = SyncedType(ContactFieldTypesTable.self, restore: .contactFieldType) { request, ids in
        let wanted = Set(ids)
        let kinds = try await request.contactFields().types().filter { wanted.contains($0.id) }
        return byID(kinds.map(ContactFieldTypeResource.init), id: \.id, as: SyncRecord.contactFieldType)
    }
}

extension ArchiveRestore {
    /// A field comes back with its labels: a standard one by its type (`cell`), another by its words.
    static let contactField = ArchiveRestore { request, record, uuid, ids in
        var labels: [String] = []
        if case .array(let items) = record["labels"] {
            for label in items.compactMap(\.object) {
                if case .string(let type) = label["type"] ?? .null {
                    labels.append(type)
                } else if case .string(let words) = label["label"] ?? .null {
                    labels.append(words)
                }
            }
        }
        return try await request.contactFields().create(
            ContactFieldService.Input(
                contactID: try ids.id(of: "contact", record.referencedID("contact")),
                typeID: try ids.id(of: "contactfieldtype", record.referencedID("contact_field_type")),
                data: record.text("content"), labels: labels, uuid: uuid)
        ).id
    }

    /// A kind of the same name (the account's defaults: Email, Phone, …) is the archive's kind.
    static let contactFieldType = ArchiveRestore(
        existing: { request, record, _ in
            record.sameName(among: try await request.contactFields().types(), name: \.name)?.id
        },
        create: { request, record, uuid, _ in
            try await request.contactFields().createType(
                name: record.text("name"), icon: record.text("fontawesome_icon"), linkProtocol: record.text("protocol"),
                type: record.text("type"), uuid: uuid
            ).id
        })
}
