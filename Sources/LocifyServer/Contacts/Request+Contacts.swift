import Vapor

extension Request {
    /// The signed-in user's contacts.
    func contacts() throws -> ContactService {
        ContactService(database: db, owner: try requireUser(), dependencies: dependencies)
    }

    /// Import and export of the signed-in user's contacts.
    func contactInterchange() throws -> ContactInterchange {
        ContactInterchange(
            contacts: try contacts(), contactFields: try contactFields(), addresses: try addresses(),
            cpuWork: application.cpuWork)
    }
}
