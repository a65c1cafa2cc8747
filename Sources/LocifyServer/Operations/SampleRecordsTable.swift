/// What the sample data added to an account (`SampleData`), so "Remove sample data" takes away exactly that
/// and filling twice adds nothing twice. A row goes with its contact or place when a person deletes one.
enum SampleRecordsTable: StoredTable {
    static let name = "sample_records"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// The sample's own name for what it added (`contact:<e-mail>`, `place:<name>`): unique in an account.
        case key
        case contactID = "contact_id"
        case placeID = "place_id"
        case createdAt = "created_at"
    }
}
