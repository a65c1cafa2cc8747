import LocifyAPI
import Vapor

extension Request {
    /// The body decoded as `Input`; an empty body is `empty` (an input with nothing in it), so the client
    /// hears which fields are missing rather than that it sent no JSON. Only JSON is read: form bodies
    /// cannot tell null from the text "null".
    func jsonInput<Input: Decodable>(_ type: Input.Type, empty: @autoclosure () -> Input) throws -> Input {
        guard try jsonBody() != nil else { return empty() }
        return try content.decode(Input.self)
    }

    /// The JSON body as a `JSONValue`, read in one pass (`JSONValue(parsing:)`); no body is `.null`.
    func jsonValueInput() throws -> JSONValue {
        guard let body = try jsonBody() else { return .null }
        return try body.withUnsafeReadableBytes { try JSONValue(parsing: $0) }
    }

    /// The body, nil when there is none; a body that is not JSON is refused.
    private func jsonBody() throws -> ByteBuffer? {
        guard let body = body.data, body.readableBytes > 0 else { return nil }
        guard headers.contentType == .json else { throw AppError.malformedBody }
        return body
    }
}
