import Fluent
import Foundation
import LocifyCore

/// A contact row. Persistence only: the domain works with `Contact`, the API with `ContactResource`.
final class ContactModel: OwnedModel, @unchecked Sendable {
    static let schema = "contacts"
    static let ownerKey: KeyPath<ContactModel, ParentProperty<ContactModel, UserModel>> = \.$owner

    @ID(custom: "id", generatedBy: .database) var id: Int?
    @Field(key: "uuid") var uuid: UUID
    @Parent(key: "user_id") var owner: UserModel
    @Field(key: "first_name") var firstName: String
    @OptionalField(key: "last_name") var lastName: String?
    @OptionalField(key: "nickname") var nickname: String?
    @OptionalField(key: "description") var description: String?
    @OptionalField(key: "birthdate_day") var birthdateDay: Int?
    @OptionalField(key: "birthdate_month") var birthdateMonth: Int?
    @OptionalField(key: "birthdate_year") var birthdateYear: Int?
    @Field(key: "birthdate_is_age_based") var birthdateIsAgeBased: Bool
    /// One of the owner's genders (`genders`).
    @OptionalField(key: "gender_id") var genderID: Int?
    @OptionalField(key: "job") var job: String?
    @OptionalField(key: "company") var company: String?
    @Field(key: "is_starred") var isStarred: Bool
    @Field(key: "is_archived") var isArchived: Bool
    @Field(key: "default_avatar_color") var defaultAvatarColor: String
    @OptionalField(key: "avatar_choice") var avatarChoice: String?
    @OptionalField(key: "avatar_photo_id") var avatarPhotoID: Int?
    @Field(key: "avatar_source") var avatarSource: String
    @OptionalField(key: "avatar_digest") var avatarDigest: String?
    /// The Gravatar hash of the contact's first e-mail field: a Gravatar look-up's answer finds its
    /// contacts by it.
    @OptionalField(key: "gravatar_hash") var gravatarHash: String?
    /// Folded names, nickname and field data (`ContactFields.searchKey`), so search is one portable LIKE.
    @Field(key: "search_key") var searchKey: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(ownerID: Int, fields: ContactFields, uuid: UUID, now: Date) {
        self.uuid = uuid
        self.$owner.id = ownerID
        self.defaultAvatarColor = Avatar.defaultColor(for: uuid)
        self.avatar = .automatic
        self.createdAt = now
        apply(fields, now: now)
        applyDerived(from: ContactFieldDigest())
    }

    func apply(_ fields: ContactFields, now: Date) {
        firstName = fields.firstName
        lastName = fields.lastName
        nickname = fields.nickname
        description = fields.description
        birthdateDay = fields.birthdate?.day
        birthdateMonth = fields.birthdate?.month
        birthdateYear = fields.birthdate?.year
        birthdateIsAgeBased = fields.birthdate?.isAgeBased ?? false
        genderID = fields.gender?.id
        job = fields.job
        company = fields.company
        isStarred = fields.isStarred
        isArchived = fields.isArchived
        updatedAt = now
    }

    /// Sets what the names and the contact's fields give it: the search key, and the Gravatar hash of its
    /// first e-mail. Called after `apply` and whenever the fields change (`ContactFieldService`).
    func applyDerived(from digest: ContactFieldDigest) {
        searchKey = digest.searchKey(fields(genders: []))
        gravatarHash = digest.gravatarHash
    }

    /// The fields, the gender found among the owner's `genders` by id.
    func fields(genders: [Gender]) -> ContactFields {
        let birthdate = birthdateDay.flatMap { day in
            birthdateMonth.flatMap {
                Birthdate(day: day, month: $0, year: birthdateYear, isAgeBased: birthdateIsAgeBased)
            }
        }
        return ContactFields(
            firstName: firstName, lastName: lastName, nickname: nickname, description: description,
            birthdate: birthdate,
            gender: genderID.flatMap { id in genders.first { $0.id == id } }, job: job, company: company,
            isStarred: isStarred, isArchived: isArchived)
    }

    var avatar: ContactAvatar {
        get {
            ContactAvatar(
                choice: avatarChoice.flatMap(AvatarChoice.init(rawValue:)), photoID: avatarPhotoID,
                source: AvatarSource(rawValue: avatarSource) ?? .initials, imageDigest: avatarDigest)
        }
        set {
            avatarChoice = newValue.choice?.rawValue
            avatarPhotoID = newValue.photoID
            avatarSource = newValue.source.rawValue
            avatarDigest = newValue.imageDigest
        }
    }

    func value(genders: [Gender]) throws -> Contact {
        Contact(
            id: try requireID(), uuid: uuid, ownerID: $owner.id, fields: fields(genders: genders),
            defaultAvatarColor: defaultAvatarColor, avatar: avatar, createdAt: createdAt, updatedAt: updatedAt)
    }
}
