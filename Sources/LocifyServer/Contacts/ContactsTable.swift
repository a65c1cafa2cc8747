import FluentKit
import Foundation
import LocifyCore

/// The people of each account. Its child tables (addresses, reminders, notes, photos, contact fields…)
/// go with a deleted contact through their foreign keys.
enum ContactsTable: StoredTable {
    static let name = "contacts"

    enum Column: String, CaseIterable, Sendable {
        case id
        case uuid
        case owner = "user_id"
        case firstName = "first_name"
        case lastName = "last_name"
        case nickname
        case description
        case birthdateDay = "birthdate_day"
        case birthdateMonth = "birthdate_month"
        case birthdateYear = "birthdate_year"
        case birthdateIsAgeBased = "birthdate_is_age_based"
        case isStarred = "is_starred"
        case isArchived = "is_archived"
        case defaultAvatarColor = "default_avatar_color"
        /// Folded names, nickname and field data (`ContactFields.searchKey`), so search is one portable LIKE.
        case searchKey = "search_key"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case avatarChoice = "avatar_choice"
        case avatarPhotoID = "avatar_photo_id"
        case avatarSource = "avatar_source"
        case avatarDigest = "avatar_digest"
        /// The Gravatar hash of the contact's first e-mail field: a Gravatar look-up's answer finds its
        /// contacts by it.
        case gravatarHash = "gravatar_hash"
        /// One of the owner's genders (`genders`); no foreign key (see `CreateGenders`).
        case genderID = "gender_id"
        case job
        case company
        case foodPreferences = "food_preferences"
        /// How the owner met the contact (`ContactIntroduction`), in Monica's column names.
        case firstMetStory = "first_met_additional_info"
        case firstMetWhere = "first_met_where"
        case firstMetDay = "first_met_day"
        case firstMetMonth = "first_met_month"
        case firstMetYear = "first_met_year"
        case firstMetIsAgeBased = "first_met_is_age_based"
        /// Another contact of the owner; the foreign key forgets it when that contact is deleted.
        case firstMetThrough = "first_met_through_contact_id"
        /// The revision of the row's last change (`WriteRevision`).
        case revision
    }

    static let sync: SyncedColumns<Column>? = SyncedColumns(
        type: "contact", revision: .revision, uuid: .uuid,
        dependents: [
            SyncedDependent(AddressesTable.self, by: .contact), SyncedDependent(ContactFieldsTable.self, by: .contact),
            SyncedDependent(ContactTagsTable.self, by: .contact), SyncedDependent(NotesTable.self, by: .contact),
            SyncedDependent(PhotosTable.self, by: .contact), SyncedDependent(RemindersTable.self, by: .contact),
            SyncedDependent(TasksTable.self, by: .contact), SyncedDependent(CallsTable.self, by: .contact),
            SyncedDependent(RelationshipsTable.self, by: .contact),
            SyncedDependent(RelationshipsTable.self, by: .ofContact), SyncedDependent(DebtsTable.self, by: .contact),
            SyncedDependent(GiftsTable.self, by: .contact), SyncedDependent(PetsTable.self, by: .contact),
            SyncedDependent(LifeEventsTable.self, by: .contact), SyncedDependent(ConversationsTable.self, by: .contact),
            SyncedDependent(OccupationsTable.self, by: .contact), SyncedDependent(DocumentsTable.self, by: .contact),
        ])

    /// The columns a contact's fields set.
    static func values(of fields: ContactFields, now: Date) -> TableWriter<Self>.Values {
        [
            .firstName: fields.firstName, .lastName: fields.lastName, .nickname: fields.nickname,
            .description: fields.description, .birthdateDay: fields.birthdate?.day,
            .birthdateMonth: fields.birthdate?.month, .birthdateYear: fields.birthdate?.year,
            .birthdateIsAgeBased: fields.birthdate?.isAgeBased ?? false, .genderID: fields.gender?.id,
            .job: fields.job, .company: fields.company, .isStarred: fields.isStarred, .isArchived: fields.isArchived,
            .updatedAt: now,
        ]
    }

    /// The columns how the owner met the contact sets.
    static func values(of introduction: ContactIntroduction, now: Date) -> TableWriter<Self>.Values {
        [
            .firstMetStory: introduction.story, .firstMetWhere: introduction.place,
            .firstMetDay: introduction.firstMet?.day, .firstMetMonth: introduction.firstMet?.month,
            .firstMetYear: introduction.firstMet?.year, .firstMetIsAgeBased: introduction.firstMet?.isAgeBased ?? false,
            .firstMetThrough: introduction.throughContactID, .updatedAt: now,
        ]
    }

    /// The columns a contact's avatar sets.
    static func values(of avatar: ContactAvatar) -> TableWriter<Self>.Values {
        [
            .avatarChoice: avatar.choice?.rawValue, .avatarPhotoID: avatar.photoID,
            .avatarSource: avatar.source.rawValue, .avatarDigest: avatar.imageDigest,
        ]
    }
}

/// One of the owner's contacts, as a feature that adds to it needs to know it.
struct OwnedContact: Sendable {
    let id: Int
    let isArchived: Bool
}

extension Database {
    /// The contact `id` if `ownerID` owns it; another account's contact is as absent as a missing one.
    /// Every child row (address, note, reminder, photo…) checks its contact here before it is written.
    func requireContact(_ id: Int, ownedBy ownerID: Int) async throws -> OwnedContact {
        // A push that makes a contact and its addresses, reminders and notes would ask for each.
        try await TransactionReads.answer(of: ContactsTable.self, for: id, ownedBy: ownerID) {
            let rows = try await plainRows(
                #"SELECT "is_archived" FROM "contacts" WHERE \#(ContactsTable.ownedRow(id, ownedBy: ownerID))"#,
                columns: ["is_archived"])
            guard let row = rows.first else { throw AppError.notFound }
            return OwnedContact(id: id, isArchived: try row.requiredBool(0))
        }
    }

    /// The contact a child item (note, reminder, address) belongs to after an update that may move it:
    /// `requested`, checked to be another of `ownerID`'s contacts, or `current` when it names none or
    /// the same one.
    func contact(movingTo requested: Int?, from current: Int, ownedBy ownerID: Int) async throws -> Int {
        guard let requested, requested != current else { return current }
        return try await requireContact(requested, ownedBy: ownerID).id
    }
}
