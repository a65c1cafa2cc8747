/// Which tags are on which contacts; the `id` keeps the order tags were put on a contact.
enum ContactTagsTable: StoredTable {
    static let name = "contact_tags"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        case contact = "contact_id"
        case tag = "tag_id"
        case createdAt = "created_at"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(type: "contact_tag", revision: .revision, uuid: nil)
}
