import Vapor

/// A path whose id is not a number: no route means it, so it is answered like a path with no route
/// (`MethodNotAllowedMiddleware` makes it a 405 where another method serves that exact path, else a 404).
struct PathIDNotANumber: Error {}

extension Request {
    /// The integer id in the path.
    func pathID(_ name: String) throws -> Int {
        guard let value = parameters.get(name), let id = Int(value) else { throw PathIDNotANumber() }
        return id
    }
}
