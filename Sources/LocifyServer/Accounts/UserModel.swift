import Fluent
import Foundation
import LocifyCore

/// A person with an account. Persistence only: the domain works with `AccountProfile`.
final class UserModel: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Field(key: "email") var email: String
    @Field(key: "name") var name: String
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "timezone") var timezone: String
    @Field(key: "maps_app") var mapsApp: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(profile: AccountProfile, passwordHash: String, uuid: UUID = UUID(), now: Date) {
        self.uuid = uuid
        self.passwordHash = passwordHash
        self.createdAt = now
        self.updatedAt = now
        apply(profile)
    }

    func apply(_ profile: AccountProfile) {
        email = profile.email
        name = profile.name
        timezone = profile.timezone
        mapsApp = profile.mapsApp.rawValue
    }

    var profile: AccountProfile {
        AccountProfile(
            name: name, email: email, timezone: timezone, mapsApp: MapsApp(rawValue: mapsApp) ?? .openStreetMap)
    }
}

struct CreateUsers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserModel.schema)
            .field("id", .int, .identifier(auto: true))
            .field("uuid", .uuid, .required)
            .field("email", .string, .required)
            .field("name", .string, .required)
            .field("password_hash", .string, .required)
            .field("timezone", .string, .required)
            .field("maps_app", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "uuid")
            .unique(on: "email")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserModel.schema).delete()
    }
}
