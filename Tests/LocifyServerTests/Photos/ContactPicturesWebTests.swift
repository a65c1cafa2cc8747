import Foundation
import LocifyAPI
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// The contact page's pictures and Settings' Gravatar choice, through the pages as a browser uses them.
final class ContactPicturesWebTests: XCTestCase {
    private func upload(
        _ browser: WebClient, contactID: Int, _ bytes: [UInt8], makeAvatar: Bool = true
    ) async throws -> XCTHTTPResponse {
        try await browser.get("/contacts/\(contactID)")
        var fields = ["_csrf": browser.csrfToken ?? ""]
        if makeAvatar { fields["make_avatar"] = "1" }
        let (body, type) = TestImages.multipart(bytes, filename: "holiday.png", fields: fields)
        return try await browser.send(.POST, "/contacts/\(contactID)/photos", bytes: body, contentType: type)
    }

    private func imageSources(_ html: String) -> [String] {
        html.components(separatedBy: "<img src=\"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    func testUploadMakeItThePictureAndGoBackToInitials() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let before = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(before.text.contains(">AL</span>"), "\(database): initials first")
            XCTAssertFalse(before.text.contains("/store/avatars/"), "initials need no picture request")
            XCTAssertTrue(before.text.contains(#"accept="image/jpeg,image/png,image/gif,image/webp""#))
            let uploaded = try await upload(browser, contactID: ada.id, TestImages.png(width: 300, height: 600))
            XCTAssertEqual(uploaded.status, .seeOther, uploaded.text)
            let page = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(page.text.contains("is now Ada Lovelace"), "the flash says what happened")
            let sources = imageSources(page.text)
            let avatar = try XCTUnwrap(sources.first { $0.hasPrefix("/store/avatars/\(ada.id)?v=") })
            XCTAssertTrue(page.text.contains(#"width="128" height="128" loading="eager""#))
            // The photo's own thumbnail keeps its proportions within 160 pixels.
            XCTAssertTrue(page.text.contains(#"width="80" height="160""#), page.text)
            XCTAssertTrue(page.text.contains("Shown as the picture"))
            let served = try await browser.get(avatar.replacingOccurrences(of: "&amp;", with: "&"))
            XCTAssertEqual(served.status, .ok)
            XCTAssertEqual(Array(served.body.readableBytesView), TestImages.png(width: 300, height: 600))
            // The list shows it at 40 pixels.
            let list = try await browser.get("/contacts")
            XCTAssertTrue(list.text.contains(#"<img src="/store/avatars/\#(ada.id)?v="#), list.text)
            XCTAssertTrue(list.text.contains(#"width="40" height="40" loading="lazy""#))
            // Back to initials.
            try await browser.get("/contacts/\(ada.id)")
            let back = try await browser.post("/contacts/\(ada.id)/avatar", form: ["source": "default"])
            XCTAssertEqual(back.status, .seeOther)
            let initials = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(initials.text.contains("now shows the initials"))
            XCTAssertFalse(initials.text.contains("/store/avatars/"))
            // And the photo again, then deleted: initials once more.
            let photos = try await PhotoService(database: app.db, ownerID: account.id, dependencies: app.dependencies)
                .photos(ofContact: ada.id)
            let photo = try XCTUnwrap(photos.first)
            try await browser.post(
                "/contacts/\(ada.id)/avatar", form: ["source": "photo", "photo_id": String(photo.id)])
            let again = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(again.text.contains("/store/avatars/\(ada.id)?v="))
            try await browser.post("/contacts/\(ada.id)/photos/\(photo.id)/delete", form: [:])
            let gone = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(gone.text.contains("The photo was deleted."))
            XCTAssertFalse(gone.text.contains("/store/avatars/"))
            XCTAssertTrue(gone.text.contains(">AL</span>"))
        }
    }

    func testARefusedUploadIsExplainedOnThePageAndChangesNothing() async throws {
        try await forEachDatabase { app, _, database in
            let browser = WebClient(app: app)
            try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada"))
            let svg = try await upload(browser, contactID: ada.id, TestImages.svg)
            XCTAssertEqual(svg.status, .unprocessableEntity, "\(database)")
            XCTAssertTrue(svg.text.contains(#"<p class="error" id="photo-file-error">"#), svg.text)
            XCTAssertTrue(svg.text.contains("JPEG, PNG, GIF or WebP"))
            XCTAssertTrue(svg.text.contains(#"aria-invalid="true""#))
            app.locifyConfig.maximumPhotoBytes = 1024 * 1024
            let large = try await upload(browser, contactID: ada.id, TestImages.png(filler: 1024 * 1024 + 1))
            XCTAssertEqual(large.status, .payloadTooLarge)
            XCTAssertTrue(large.text.contains("larger than 1 MB"), large.text)
            let badChoice = try await browser.post(
                "/contacts/\(ada.id)/avatar", form: ["source": "photo", "photo_id": "99"])
            XCTAssertEqual(badChoice.status, .unprocessableEntity)
            XCTAssertTrue(badChoice.text.contains("must be one of this contact"))
            let photos = try await app.count(PhotosTable.self)
            XCTAssertEqual(photos, 0)
            // Another account's contact is not there at all.
            let other = WebClient(app: app)
            try await other.register(name: "Eve", email: "eve@example.com")
            let foreign = try await upload(other, contactID: ada.id, TestImages.png())
            XCTAssertEqual(foreign.status, .notFound)
        }
    }

    func testSettingsExplainGravatarAndTurnItOff() async throws {
        try await forEachDatabase { app, clock, database in
            app.dependencies.gravatar = FakeGravatar { _, _ in
                GravatarImage(contentType: "image/png", bytes: Data(TestImages.png(width: 200, height: 200)))
            }
            let browser = WebClient(app: app)
            try await browser.register()
            let account = try await app.account(email: "grace@example.com")
            let ada = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", email: "ada@example.com"))
            try await app.jobRunner.runDue(now: clock.now)
            let shown = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(shown.text.contains("the picture Gravatar has for ada@example.com"), "\(database)")
            XCTAssertFalse(shown.text.contains("Use the Gravatar"), "it is what is shown")
            try await browser.post("/contacts/\(ada.id)/avatar", form: ["source": "default"])
            let offered = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(offered.text.contains("Use the Gravatar"), "found, so offered")
            XCTAssertTrue(shown.text.contains("/store/avatars/\(ada.id)?v="))
            let settings = try await browser.get("/settings")
            XCTAssertTrue(settings.text.contains("only the MD5 hash of the address"))
            XCTAssertTrue(
                settings.text.contains(#"id="gravatar-look-up" name="look_up" type="checkbox" value="1" checked"#))
            let off = try await browser.post("/settings/gravatar", form: [:])
            XCTAssertEqual(off.status, .seeOther)
            let after = try await browser.get("/settings")
            XCTAssertTrue(after.text.contains("were deleted"))
            XCTAssertFalse(after.text.contains(#"value="1" checked aria-describedby="gravatar-look-up-hint""#))
            let cached = try await app.count(GravatarCacheTable.self)
            XCTAssertEqual(cached, 0)
            let initials = try await browser.get("/contacts/\(ada.id)")
            XCTAssertFalse(initials.text.contains("/store/avatars/"))
            XCTAssertFalse(initials.text.contains("Use the Gravatar"), "not offered while look-ups are off")
            try await browser.post("/settings/gravatar", form: ["look_up": "1"])
            try await app.jobRunner.runDue(now: clock.now)
            try await browser.get("/contacts/\(ada.id)")
            try await browser.post("/contacts/\(ada.id)/avatar", form: ["source": "gravatar"])
            let back = try await browser.get("/contacts/\(ada.id)")
            XCTAssertTrue(back.text.contains("/store/avatars/\(ada.id)?v="), "looked up again when turned back on")
        }
    }
}
