import Fluent

/// A row that belongs to one account. Every table holds its owner's `user_id`, child tables too
/// (addresses, reminders, photos), so one scope proves ownership for any of them without a join.
protocol OwnedModel: Model where IDValue == Int {
    static var ownerKey: KeyPath<Self, ParentProperty<Self, UserModel>> { get }
}

extension OwnedModel {
    /// The rows of `userID`; every service query starts here.
    static func owned(by userID: Int, on database: any Database) -> QueryBuilder<Self> {
        query(on: database).filter(ownerKey.appending(path: \.$id) == userID)
    }

    /// The row with `id` if `userID` owns it; another account's row is as absent as a missing one.
    static func requireOwned(_ id: Int, by userID: Int, on database: any Database) async throws -> Self {
        guard let row = try await owned(by: userID, on: database).filter(\._$id == id).first() else {
            throw AppError.notFound
        }
        return row
    }
}
