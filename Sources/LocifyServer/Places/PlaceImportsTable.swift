/// Places imports kept between requests: a large file imported in the background, with its progress,
/// and a file previewed on the web and waiting for "Import".
enum PlaceImportsTable: StoredTable {
    static let name = "place_imports"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// `PlaceImportRecord.Status`.
        case status
        case fileName = "file_name"
        case targetCategoryID = "target_category_id"
        case stage
        case processed
        case total
        /// The report's counts and unreadable records, as JSON; its rows are in `place_import_rows`.
        case report
        case error
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The columns `PlaceImportRecord(row:)` reads.
    static let recordColumns = selection(Column.allCases)
}
