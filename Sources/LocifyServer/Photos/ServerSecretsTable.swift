/// Secrets the server makes for itself on first start (the key that signs picture links), shared by
/// every server on the database.
enum ServerSecretsTable: StoredTable {
    static let name = "server_secrets"

    enum Column: String, CaseIterable, Sendable {
        case name
        case value
        case createdAt = "created_at"
    }
}
