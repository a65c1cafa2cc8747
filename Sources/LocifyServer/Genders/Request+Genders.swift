import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's genders.
    func genders() throws -> GenderService {
        GenderService(database: database, ownerID: try requireUser().id, dependencies: dependencies)
    }
}
