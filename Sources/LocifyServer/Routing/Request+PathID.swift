import Vapor

/// A path whose id is not a number: no route means it, so it is answered like a path with no route
/// (`MethodNotAllowedMiddleware` makes it a 405 where another method serves that exact path, else a 404).
struct PathIDNotANumber: Error {}

extension Request {
    /// The integer id in the path.
    func pathID(_ parameter: PathParameter) throws -> Int {
        guard let value = parameters.get(parameter.name), let id = Int(value) else { throw PathIDNotANumber() }
        return id
    }

    /// The text in the path (a feed's secret, a file's name); nil only if the route has no such parameter.
    func pathText(_ parameter: PathParameter) -> String? {
        parameters.get(parameter.name)
    }
}
