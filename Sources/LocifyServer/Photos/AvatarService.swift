import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The avatars of one owner's contacts: the person's choice, and what is served for it, kept on each
/// contact row (`ContactAvatar`) and worked out again whenever a photo, a Gravatar answer, the e-mail or
/// the choice changes. Queues a Gravatar look-up when an e-mail has no fresh answer.
struct AvatarService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    /// Gravatar answers (pictures and "none" alike) are asked again after this.
    static let gravatarLifetime: TimeInterval = 7 * 86_400

    /// Sets what the contact shows. `photo` needs `photoID`, one of the contact's own photos.
    func choose(contactID: Int, choice: AvatarChoice, photoID: Int?) async throws -> Contact {
        let model = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
        if choice == .photo {
            guard let photoID else {
                throw ValidationFailure(field: "photo_id", "Choose which photo to show.")
            }
            let rows = try await database.plainRows(
                """
                SELECT "id" FROM "photos" WHERE "user_id" = \(literal: ownerID) AND "contact_id" = \(literal: contactID) \
                AND "id" = \(literal: photoID)
                """, columns: ["id"])
            guard !rows.isEmpty else {
                throw ValidationFailure(
                    field: "photo_id", "The photo must be one of this contact's photos.", reason: .unknownReference)
            }
        }
        model.avatarChoice = choice.rawValue
        model.avatarPhotoID = choice == .photo ? photoID : nil
        let lookUps = try await resolve([model])
        // Choosing a picture changes the contact, as an edit of its fields does.
        model.updatedAt = dependencies.now()
        try await model.save(on: database)
        try await queueLookUps(lookUps)
        return try model.value(
            genders: try await GenderService(database: database, ownerID: ownerID, dependencies: dependencies).all())
    }

    /// The contacts whose avatar an event may change.
    enum Affected {
        /// Those showing this photo.
        case showingPhoto(Int)
        /// Those with this e-mail (by its Gravatar hash).
        case withGravatarHash(String)
        /// Every contact with an e-mail.
        case withAnyEmail
        /// These contacts (of the owner).
        case contacts([Int])
    }

    /// Works out again what the `affected` contacts show, and stores it where it changed. The contacts'
    /// `updated_at` stays: a Gravatar arriving is not an edit.
    func refresh(_ affected: Affected, lookingUpAnew: Bool = false) async throws {
        let query = ContactModel.owned(by: ownerID, on: database)
        switch affected {
        case .showingPhoto(let id): query.filter(\.$avatarPhotoID == id)
        case .withGravatarHash(let hash): query.filter(\.$gravatarHash == hash)
        case .withAnyEmail: query.filter(\.$gravatarHash != nil)
        case .contacts(let ids): query.filter(\.$id ~~ ids)
        }
        let models = try await query.all()
        let before = models.map(\.avatar)
        let lookUps = try await resolve(models)
        let sql = try database.sqlDatabase()
        for (model, old) in zip(models, before) where model.avatar != old {
            try await sql.raw(
                """
                UPDATE "contacts" SET "avatar_choice" = \(bind: model.avatarChoice), \
                "avatar_photo_id" = \(bind: model.avatarPhotoID), "avatar_source" = \(bind: model.avatarSource), \
                "avatar_digest" = \(bind: model.avatarDigest) \
                WHERE "id" = \(bind: try model.requireID()) AND "user_id" = \(literal: ownerID)
                """
            ).run()
        }
        try await queueLookUps(lookUps, anew: lookingUpAnew)
    }

    /// Sets each model's served avatar from its choice, its photo and its Gravatar answer (not saved).
    /// Returns the e-mail hashes without a fresh answer, for `queueLookUps` once the models are saved.
    ///
    /// Only reads, so a caller runs it before its write transaction: on SQLite a transaction that reads
    /// first and writes later fails at once (SQLITE_BUSY_SNAPSHOT) when another process wrote in between,
    /// where one that writes first waits its turn.
    func resolve(_ models: [ContactModel]) async throws -> Set<String> {
        guard !models.isEmpty else { return [] }
        let photoIDs = models.compactMap { $0.avatarChoice == AvatarChoice.photo.rawValue ? $0.avatarPhotoID : nil }
        let photoDigests = try await digests(ofPhotos: photoIDs)
        let hashes = Set(models.compactMap(\.gravatarHash))
        // Contacts without an e-mail (most imports) need not ask whether the account looks up Gravatars.
        var answers: [String: GravatarAnswer]?
        if !hashes.isEmpty, try await looksUpGravatar() { answers = try await gravatarAnswers(for: hashes) }
        let now = dependencies.now()
        var stale: Set<String> = []
        for model in models {
            var gravatarDigest: String?
            if let answers, let hash = model.gravatarHash {
                let answer = answers[hash]
                gravatarDigest = answer?.digest
                if answer.map({ now.timeIntervalSince($0.fetchedAt) >= Self.gravatarLifetime }) ?? true {
                    stale.insert(hash)
                }
            }
            let choice = model.avatarChoice.flatMap(AvatarChoice.init(rawValue:))
            let resolved = ContactAvatar.resolved(
                choice: choice, photoID: model.avatarPhotoID,
                photoDigest: model.avatarPhotoID.flatMap { photoDigests[$0] }, gravatarDigest: gravatarDigest)
            model.avatar = resolved
        }
        return stale
    }

    /// Whether Gravatar is asked for this account: the server allows it and the person has not turned it off.
    func looksUpGravatar() async throws -> Bool {
        guard dependencies.gravatar.isEnabled else { return false }
        return try await accountLooksUpGravatar()
    }

    /// `email` (a contact's first), when a picture was found for it at the last look-up (and look-ups
    /// are on).
    func gravatarEmail(_ email: String?) async throws -> String? {
        guard let email, try await looksUpGravatar() else { return nil }
        let answers = try await gravatarAnswers(for: [Avatar.gravatarHash(email: email)])
        return answers.values.contains { $0.digest != nil } ? email : nil
    }

    /// The person's own choice, whatever the server allows.
    func accountLooksUpGravatar() async throws -> Bool {
        let rows = try await database.plainRows(
            #"SELECT "looks_up_gravatar" FROM "users" WHERE "id" = \#(literal: ownerID)"#,
            columns: ["looks_up_gravatar"])
        return try rows.first?.bool(0) ?? false
    }

    /// Turns the account's Gravatar look-ups on or off. Off deletes every cached Gravatar of the account
    /// and shows initials instead; on asks again for every contact's e-mail.
    func setLooksUpGravatar(_ enabled: Bool) async throws {
        try await database.transaction { transaction in
            let sql = try transaction.sqlDatabase()
            try await sql.raw(
                #"UPDATE "users" SET "looks_up_gravatar" = \#(bind: enabled) WHERE "id" = \#(literal: ownerID)"#
            ).run()
            if !enabled {
                try await sql.raw(#"DELETE FROM "gravatar_cache" WHERE "user_id" = \#(literal: ownerID)"#).run()
                try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
            }
        }
        try await refresh(.withAnyEmail, lookingUpAnew: enabled)
    }

    /// Stores Gravatar's answer for `hash` (a picture, or nil for none) and updates the contacts it is for.
    func recordGravatar(hash: String, image: GravatarImage?) async throws {
        let now = dependencies.now()
        try await database.transaction { transaction in
            let sql = try transaction.sqlDatabase()
            var blobID: Int?
            var digest: String?
            var mimeType: String?
            if let image {
                let bytes = [UInt8](image.bytes)
                let checked = ImageInfo(bytes)
                // Served under our own name, so only what a browser will show as an image is kept.
                if let checked {
                    let imageDigest = Photo.digest(of: bytes)
                    blobID = try await PhotoBlobs(database: transaction, ownerID: ownerID)
                        .store(bytes, digest: imageDigest, now: now)
                    digest = imageDigest
                    mimeType = checked.format.mimeType
                }
            }
            try await sql.raw(
                """
                INSERT INTO "gravatar_cache" ("user_id", "email_hash", "blob_id", "mime_type", "digest", "fetched_at") \
                VALUES (\(literal: ownerID), \(bind: hash), \(bind: blobID), \(bind: mimeType), \(bind: digest), \
                \(bind: now)) \
                ON CONFLICT ("user_id", "email_hash") DO UPDATE SET "blob_id" = excluded."blob_id", \
                "mime_type" = excluded."mime_type", "digest" = excluded."digest", "fetched_at" = excluded."fetched_at"
                """
            ).run()
            try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
        }
        try await refresh(.withGravatarHash(hash))
    }

    private func digests(ofPhotos ids: [Int]) async throws -> [Int: String] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.plainRows(
            #"SELECT "id", "digest" FROM "photos" WHERE \#(SQLQueryString.owned(by: ownerID, ids: ids))"#,
            columns: ["id", "digest"])
        var found: [Int: String] = [:]
        for row in rows { found[try row.requiredInteger(0)] = try row.requiredText(1) }
        return found
    }

    private struct GravatarAnswer {
        let digest: String?
        let fetchedAt: Date
    }

    private func gravatarAnswers(for hashes: Set<String>) async throws -> [String: GravatarAnswer] {
        guard !hashes.isEmpty else { return [:] }
        let list = SQLQueryString(hashes.sorted().map { "'\($0.filter(\.isHexDigit))'" }.joined(separator: ", "))
        let rows = try await database.plainRows(
            """
            SELECT "email_hash", "digest", "fetched_at" FROM "gravatar_cache" \
            WHERE "user_id" = \(literal: ownerID) AND "email_hash" IN (\(list))
            """, columns: ["email_hash", "digest", "fetched_at"])
        var answers: [String: GravatarAnswer] = [:]
        for row in rows {
            answers[try row.requiredText(0)] = GravatarAnswer(
                digest: try row.text(1), fetchedAt: try row.requiredDate(2))
        }
        return answers
    }

    /// Queues a Gravatar look-up for each hash (see `GravatarLookUpJob.enqueue`); `anew` even when one
    /// ran today.
    func queueLookUps(_ hashes: Set<String>, anew: Bool = false) async throws {
        let now = dependencies.now()
        for hash in hashes.sorted() {
            try await GravatarLookUpJob.enqueue(ownerID: ownerID, hash: hash, now: now, anew: anew, on: database)
        }
    }
}
