import Vapor

extension Request {
    /// The integer id in the path, or a 404 (a non-number cannot name anything).
    func pathID(_ name: String) throws -> Int {
        guard let value = parameters.get(name), let id = Int(value) else { throw AppError.notFound }
        return id
    }
}
