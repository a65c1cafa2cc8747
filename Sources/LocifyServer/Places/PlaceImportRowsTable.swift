/// An import's report, a row per record in file order, written with each batch.
enum PlaceImportRowsTable: StoredTable {
    static let name = "place_import_rows"

    enum Column: String, CaseIterable, Sendable {
        case importID = "import_id"
        case row
        case name
        /// `PlaceImportStore.outcomes`.
        case outcome
        case placeID = "place_id"
        case reason
    }
}
