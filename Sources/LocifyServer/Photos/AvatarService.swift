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
        guard var subject = try await subjects(where: ContactsTable.ownedRow(contactID, ownedBy: ownerID)).first else {
            throw AppError.notFound
        }
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
        subject.avatar.choice = choice
        subject.avatar.photoID = choice == .photo ? photoID : nil
        var resolving = [subject]
        let lookUps = try await resolve(&resolving)
        // Choosing a picture changes the contact, as an edit of its fields does.
        let now = dependencies.now()
        var values = ContactsTable.values(of: resolving[0].avatar)
        values[.updatedAt] = now
        try await database.write(ownedBy: ownerID, at: now) { [ownerID, values, dependencies] transaction in
            try await TableWriter(ContactsTable.self, on: transaction).update(contactID, ownedBy: ownerID, set: values)
            try await Self(database: transaction, ownerID: ownerID, dependencies: dependencies).queueLookUps(lookUps)
        }
        return try ContactRows.contact(
            from: try await ContactRows.requireContact(contactID, ownedBy: ownerID, on: database))
    }

    /// What working out a contact's avatar reads of it: its avatar as stored and its first e-mail's
    /// Gravatar hash.
    struct Subject: Sendable {
        /// nil for a contact not stored yet.
        let contactID: Int?
        var avatar: ContactAvatar
        let gravatarHash: String?
    }

    private func subjects(where condition: SQLQueryString) async throws -> [Subject] {
        let columns = ContactsTable.selection([
            .id, .avatarChoice, .avatarPhotoID, .avatarSource, .avatarDigest, .gravatarHash,
        ])
        return try await database.plainRows(
            #"SELECT \#(columns.list) FROM "contacts" WHERE "user_id" = \#(literal: ownerID) AND \#(condition) ORDER BY "id""#,
            columns: columns.names
        ).map { row in
            Subject(
                contactID: try row.requiredInteger(0),
                avatar: ContactAvatar(
                    choice: try row.text(1).flatMap(AvatarChoice.init(rawValue:)), photoID: try row.integer(2),
                    source: AvatarSource(rawValue: try row.requiredText(3)) ?? .initials, imageDigest: try row.text(4)),
                gravatarHash: try row.text(5))
        }
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
        let condition: SQLQueryString
        switch affected {
        case .showingPhoto(let id): condition = #""avatar_photo_id" = \#(literal: id)"#
        case .withGravatarHash(let hash): condition = #""gravatar_hash" = \#(bind: hash)"#
        case .withAnyEmail: condition = #""gravatar_hash" IS NOT NULL"#
        case .contacts(let ids):
            guard !ids.isEmpty else { return }
            condition = SQLQueryString(#""id" IN ("# + Set(ids).sorted().map(String.init).joined(separator: ", ") + ")")
        }
        let before = try await subjects(where: condition)
        var after = before
        let lookUps = try await resolve(&after)
        let changed = zip(before, after).compactMap { old, new in
            new.avatar != old.avatar ? new.contactID.map { (id: $0, avatar: new.avatar) } : nil
        }
        if !changed.isEmpty {
            try await database.write(ContactsTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] in
                for change in changed {
                    try await $0.update(change.id, ownedBy: ownerID, set: ContactsTable.values(of: change.avatar))
                }
            }
        }
        try await queueLookUps(lookUps, anew: lookingUpAnew)
    }

    /// Sets each subject's served avatar from its choice, its photo and its Gravatar answer (not saved).
    /// Returns the e-mail hashes without a fresh answer, for `queueLookUps` once the contacts are saved.
    ///
    /// Only reads, so a caller runs it before its write transaction: on SQLite a transaction that reads
    /// first and writes later fails at once (SQLITE_BUSY_SNAPSHOT) when another process wrote in between,
    /// where one that writes first waits its turn.
    func resolve(_ subjects: inout [Subject]) async throws -> Set<String> {
        guard !subjects.isEmpty else { return [] }
        let photoIDs = subjects.compactMap { $0.avatar.choice == .photo ? $0.avatar.photoID : nil }
        let photoDigests = try await digests(ofPhotos: photoIDs)
        let hashes = Set(subjects.compactMap(\.gravatarHash))
        // Contacts without an e-mail (most imports) need not ask whether the account looks up Gravatars.
        var answers: [String: GravatarAnswer]?
        if !hashes.isEmpty, try await looksUpGravatar() { answers = try await gravatarAnswers(for: hashes) }
        let now = dependencies.now()
        var stale: Set<String> = []
        for index in subjects.indices {
            let subject = subjects[index]
            var gravatarDigest: String?
            if let answers, let hash = subject.gravatarHash {
                let answer = answers[hash]
                gravatarDigest = answer?.digest
                if answer.map({ now.timeIntervalSince($0.fetchedAt) >= Self.gravatarLifetime }) ?? true {
                    stale.insert(hash)
                }
            }
            let photoID = subject.avatar.photoID
            subjects[index].avatar = ContactAvatar.resolved(
                choice: subject.avatar.choice, photoID: photoID, photoDigest: photoID.flatMap { photoDigests[$0] },
                gravatarDigest: gravatarDigest)
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
            try await TableWriter(UsersTable.self, on: transaction).update(
                [.looksUpGravatar: enabled], where: #""id" = \#(literal: ownerID)"#)
            if !enabled {
                try await TableWriter(GravatarCacheTable.self, on: transaction).delete(
                    where: #""user_id" = \#(literal: ownerID)"#)
                try await PhotoBlobs(database: transaction, ownerID: ownerID).deleteUnused()
            }
        }
        try await refresh(.withAnyEmail, lookingUpAnew: enabled)
    }

    /// Stores Gravatar's answer for `hash` (a picture, or nil for none) and updates the contacts it is for.
    func recordGravatar(hash: String, image: GravatarImage?) async throws {
        let now = dependencies.now()
        try await database.transaction { transaction in
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
            try await TableWriter(GravatarCacheTable.self, on: transaction).insert(
                [
                    .owner: ownerID, .emailHash: hash, .blob: blobID, .mimeType: mimeType, .digest: digest,
                    .fetchedAt: now,
                ], onConflict: [.owner, .emailHash], updating: [.blob, .mimeType, .digest, .fetchedAt])
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
