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
extension LivenessResource: Content {}
extension PlaceCategoryListResource: Content {}
extension PlaceImportReportResource: Content {}
extension SyncPullResource: Content {}
extension SharedCategorySyncResource: Content {}
extension SyncPushAnswerResource: Content {}
extension MapAreaDeletedResource: Content {}

/// Vapor's JSON encoder, with keys kept in declaration order (see `OrderedJSONEncoder`).
extension OrderedJSONEncoder: ContentEncoder {
    /// `application/json; charset=utf-8`, serialised once.
    static let jsonContentType = HTTPMediaType.json.serialize()
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        // The header as text: `contentType`'s setter serialises the media type anew for every answer.
        headers.replaceOrAdd(name: .contentType, value: Self.jsonContentType)
        body.writeBytes(try encodedBytes(encodable))
    }

    public func encode<E: Encodable>(
        _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders,
        userInfo: [CodingUserInfoKey: any Sendable]
    ) throws {
        try encode(encodable, to: &body, headers: &headers)
    }
}
