import Fluent

extension Model {
    /// The rows whose parent is one of `parentIDs`, grouped by parent id, in one query. A page of
    /// contacts loads each child table (addresses, reminders, photos) this way, so a list costs one
    /// query per child table, never one per contact.
    static func grouped<Parent: Model>(
        by parent: KeyPath<Self, ParentProperty<Self, Parent>>, in parentIDs: [Int], on database: any Database,
        sortedBy sort: DatabaseQuery.Sort? = nil
    ) async throws -> [Int: [Self]] where Parent.IDValue == Int {
        guard !parentIDs.isEmpty else { return [:] }
        let key = parent.appending(path: \.$id)
        var query = Self.query(on: database).filter(key ~~ parentIDs)
        if let sort { query = query.sort(sort) }
        let rows = try await query.all()
        return Dictionary(grouping: rows) { $0[keyPath: key].value ?? 0 }
    }
}
