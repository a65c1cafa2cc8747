/// An import's file, kept until the import is done: in a table of its own, as SQLite writes a row whole
/// and every progress note would write the file again (`MovePlaceImportFiles`).
enum PlaceImportFilesTable: StoredTable {
    static let name = "place_import_files"

    enum Column: String, CaseIterable, Sendable {
        case importID = "import_id"
        case file
    }
}
