import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's tags.
    func tags() throws -> TagService {
        TagService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }
}
