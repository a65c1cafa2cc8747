import Vapor

extension Request {
    /// The signed-in user's contacts.
    func contacts() throws -> ContactService {
        ContactService(database: db, owner: try requireUser(), dependencies: dependencies)
    }
}
