import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Gravatar is asked in the background, through the live client against a local stand-in: found,
/// missing, slow and down, with the clock moved by hand.
final class GravatarTests: XCTestCase {
    private static let picture = TestImages.png(width: 200, height: 200, filler: 64, seed: 3)

    private func avatar(_ app: Application, _ account: TestAccount, _ id: Int) async throws -> AvatarResource {
        try await app.send(.GET, "/api/contacts/\(id)", headers: account.bearer)
            .decoded(DataEnvelope<ContactResource>.self).data.information.avatar
    }

    private func createContact(_ app: Application, _ account: TestAccount, email: String) async throws -> Int {
        let response = try await app.send(
            .POST, "/api/contacts", headers: account.bearer,
            json: #"{"first_name": "\#(email.prefix(while: { $0 != "@" }))", "email": "\#(email)"}"#)
        XCTAssertEqual(response.status, .created, response.text)
        return try response.decoded(DataEnvelope<ContactResource>.self).data.id
    }

    func testFoundMissingSlowAndDown() async throws {
        let found = Avatar.gravatarHash(email: "ada@example.com")
        let slow = Avatar.gravatarHash(email: "slow@example.com")
        let serve: StandInRoutes = { routes in
            routes.get("avatar", ":hash") { request async throws -> Response in
                let hash = request.parameters.get("hash")
                if hash == slow { try await Task.sleep(for: .seconds(1)) }
                guard hash == found || hash == slow else { return Response(status: .notFound) }
                return Response(
                    status: .ok, headers: ["Content-Type": "image/png"], body: .init(data: Data(Self.picture)))
            }
        }
        try await withStandIn(serve) { standIn in
            try await forEachDatabase { app, clock, database in
                let http = LiveHTTPClient(client: .shared, userAgent: "Locify/test")
                XCTAssertEqual(LiveGravatarClient(baseURL: standIn.baseURL, http: http).timeout, .seconds(3))
                // The stand-in's slow answer takes a second; this client gives up sooner, as the live one does after 3.
                app.dependencies.gravatar = LiveGravatarClient(
                    baseURL: standIn.baseURL, http: http, timeout: .milliseconds(300))
                let account = try await app.makeAccount()
                let asked = standIn.requests.count
                let ada = try await createContact(app, account, email: " Ada@Example.com ")
                let nobody = try await createContact(app, account, email: "nobody@example.com")
                let slowpoke = try await createContact(app, account, email: "slow@example.com")
                XCTAssertEqual(standIn.requests.count, asked, "\(database): no response waits on Gravatar")
                let adaBefore = try await avatar(app, account, ada)
                XCTAssertEqual(adaBefore.source, "default")
                try await app.jobRunner.runDue(now: clock.now)
                let requests = standIn.requests.dropFirst(asked)
                XCTAssertEqual(requests.count, 3)
                XCTAssertTrue(requests.allSatisfy { $0.query == "s=200&d=404" })
                XCTAssertTrue(requests.contains { $0.path == "/avatar/\(found)" }, "the trimmed, lower-cased address")
                // Found: served from our own store, under a new URL.
                let adaAfter = try await avatar(app, account, ada)
                XCTAssertEqual(adaAfter.source, "gravatar")
                XCTAssertNotEqual(adaAfter.url, adaBefore.url)
                let served = try await app.send(
                    .GET, try XCTUnwrap(adaAfter.url).replacingOccurrences(of: "http://127.0.0.1:8080", with: ""))
                XCTAssertEqual(Array(served.body.readableBytesView), Self.picture)
                XCTAssertEqual(served.headers.contentType?.description, "image/png")
                // Missing: initials, and the answer is kept.
                let nobodyAvatar = try await avatar(app, account, nobody)
                XCTAssertEqual(nobodyAvatar.source, "default")
                // Slow: the look-up failed and will be tried again; meanwhile initials.
                let slowAvatar = try await avatar(app, account, slowpoke)
                XCTAssertEqual(slowAvatar.source, "default")
                let jobs = try await JobRecord.all(on: app.db).filter { $0.kind == GravatarLookUpJob.kind }
                XCTAssertEqual(jobs.filter { $0.state == .done }.count, 2)
                let retried = try XCTUnwrap(jobs.first { $0.state == .queued })
                XCTAssertEqual(retried.attempts, 1)
                XCTAssertNotNil(retried.lastError)
                // Down: nothing listens there; still initials, still queued for later.
                app.dependencies.gravatar = LiveGravatarClient(
                    baseURL: "http://127.0.0.1:9", http: http, timeout: .milliseconds(300))
                clock.advance(by: 3600)
                try await app.jobRunner.runDue(now: clock.now)
                let afterDown = try await JobRecord.all(on: app.db).first { $0.id == retried.id }
                XCTAssertEqual(afterDown?.attempts, 2)
                XCTAssertEqual(afterDown?.state, .queued)
                let stillInitials = try await avatar(app, account, slowpoke)
                XCTAssertEqual(stillInitials.source, "default")
            }
        }
    }

    func testAnswersAreKeptAWeekAndFollowTheEmail() async throws {
        let ada = Avatar.gravatarHash(email: "ada@example.com")
        let grace = Avatar.gravatarHash(email: "grace@example.com")
        try await forEachDatabase { app, clock, database in
            let asked = NIOLockedValueBox<[String]>([])
            let known = NIOLockedValueBox<Set<String>>([ada, grace])
            app.dependencies.gravatar = FakeGravatar { hash, size in
                XCTAssertEqual(size, 200)
                asked.withLockedValue { $0.append(hash) }
                guard known.withLockedValue({ $0.contains(hash) }) else { return nil }
                return GravatarImage(contentType: "image/png", bytes: Data(Self.picture))
            }
            let account = try await app.makeAccount()
            let id = try await createContact(app, account, email: "ada@example.com")
            try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(asked.withLockedValue { $0 }, [ada])
            // Within the week a sweep asks nothing.
            clock.advance(by: 6 * 86_400)
            let early = try await app.gravatarRefresher.sweepIfDue(
                now: clock.now, on: app.db, lookUpsEnabled: true, force: true)
            XCTAssertEqual(early, 0, "\(database)")
            // After it, the answer is asked again: Ada has removed her picture.
            clock.advance(by: 2 * 86_400)
            known.withLockedValue { $0.remove(ada) }
            let due = try await app.gravatarRefresher.sweepIfDue(
                now: clock.now, on: app.db, lookUpsEnabled: true, force: true)
            XCTAssertEqual(due, 1)
            try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(asked.withLockedValue { $0 }, [ada, ada])
            let afterRefresh = try await avatar(app, account, id)
            XCTAssertEqual(afterRefresh.source, "default")
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual(blobs, 0, "the picture that went is deleted")
            // A second e-mail changes nothing: the first chooses the picture.
            let added = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer, json: #"{"email": "countess@example.com"}"#)
            XCTAssertEqual(added.status, .ok, added.text)
            try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(asked.withLockedValue { $0 }, [ada, ada])
            // A changed first e-mail is looked up at once; the contact shows initials until the answer.
            let fields = try await app.send(.GET, "/api/contacts/\(id)/contactfields", headers: account.bearer)
            let first = try XCTUnwrap(try fields.decoded(PageResource<ContactFieldResource>.self).data.first)
            let changed = try await app.send(
                .PUT, "/api/contactfields/\(first.id)", headers: account.bearer,
                json: #"""
                    {"contact_id": \#(id), "contact_field_type_id": \#(first.contactFieldType.id), "data": "grace@example.com"}
                    """#)
            XCTAssertEqual(changed.status, .ok, changed.text)

            try await app.jobRunner.runDue(now: clock.now)
            XCTAssertEqual(asked.withLockedValue { $0 }, [ada, ada, grace])
            let regraced = try await avatar(app, account, id)
            XCTAssertEqual(regraced.source, "gravatar")
            // Choosing initials keeps them, Gravatar or not; choosing Gravatar brings it back.
            let initials = try await app.send(
                .PUT, "/api/contacts/\(id)/avatar", headers: account.bearer, json: #"{"source": "default"}"#)
            XCTAssertEqual(
                try initials.decoded(DataEnvelope<ContactResource>.self).data.information.avatar.source, "default")
            let gravatar = try await app.send(
                .PUT, "/api/contacts/\(id)/avatar", headers: account.bearer, json: #"{"source": "gravatar"}"#)
            XCTAssertEqual(
                try gravatar.decoded(DataEnvelope<ContactResource>.self).data.information.avatar.source, "gravatar")
        }
    }

    func testTurningLookUpsOffDeletesWhatWasKept() async throws {
        try await forEachDatabase { app, clock, database in
            app.dependencies.gravatar = FakeGravatar { _, _ in
                GravatarImage(contentType: "image/png", bytes: Data(Self.picture))
            }
            let account = try await app.makeAccount()
            let other = try await app.makeAccount(email: "eve@example.com")
            let id = try await createContact(app, account, email: "ada@example.com")
            _ = try await createContact(app, other, email: "ada@example.com")
            try await app.jobRunner.runDue(now: clock.now)
            let cached = try await app.count(GravatarCacheTable.self)
            XCTAssertEqual(cached, 2, "\(database): each account keeps its own")
            try await AvatarService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
                .setLooksUpGravatar(false)
            let left = try await app.count(GravatarCacheTable.self)
            let blobs = try await app.count(PhotoBlobsTable.self)
            XCTAssertEqual([left, blobs], [1, 1], "only the other account's Gravatar is left")
            let shown = try await avatar(app, account, id)
            XCTAssertEqual(shown.source, "default")
            // Nothing is asked for this account any more, even a week later.
            app.dependencies.gravatar = FakeGravatar()
            clock.advance(by: 8 * 86_400)
            _ = try await app.send(
                .PUT, "/api/contacts/\(id)", headers: account.bearer, json: #"{"email": "new@example.com"}"#)
            let swept = try await app.gravatarRefresher.sweepIfDue(
                now: clock.now, on: app.db, lookUpsEnabled: true, force: true)
            XCTAssertEqual(swept, 1, "the other account's stale answer only")
            let queued = try await JobRecord.all(on: app.db).filter {
                $0.kind == GravatarLookUpJob.kind && $0.state == .queued
            }
            XCTAssertEqual(queued.count, 1)
            XCTAssertTrue(queued.allSatisfy { $0.payload.contains("\"ownerID\":\(other.id)") }, "\(queued)")
        }
    }
}
