import LocifyAPI
import Vapor

// The wire types live in LocifyAPI without Vapor; the server makes them response bodies here.
extension APIRootResource: Content {}
extension OAuthLoginResource: Content {}
extension OAuthLoginRequest: Content {}
extension DataEnvelope: Content {}
extension PageResource: Content {}
extension DeletedResource: Content {}
extension HealthResource: Content {}
extension PlaceCategoryListResource: Content {}
extension PlaceImportReportResource: Content {}
extension SyncPullResource: Content {}
extension SyncPushAnswerResource: Content {}

/// Vapor's JSON encoder, with keys kept in declaration order (see `OrderedJSONEncoder`).
extension OrderedJSONEncoder: ContentEncoder {
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        headers.contentType = .json
        body.writeBytes(try encode(encodable))
    }

    public func encode<E: Encodable>(
        _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders,
        userInfo: [CodingUserInfoKey: any Sendable]
    ) throws {
        try encode(encodable, to: &body, headers: &headers)
    }
}
