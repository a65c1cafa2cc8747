import Crypto
import XCTest

@testable import LocifyCore

/// What a contact's avatar shows for each choice, and when its URL changes.
final class ContactAvatarTests: XCTestCase {
    private let photoDigest = String(repeating: "ab", count: 32)
    private let gravatarDigest = String(repeating: "cd", count: 32)

    func testAChosenPhotoWinsWhileItExists() {
        let chosen = ContactAvatar.resolved(
            choice: .photo, photoID: 7, photoDigest: photoDigest, gravatarDigest: gravatarDigest)
        XCTAssertEqual(chosen, ContactAvatar(choice: .photo, photoID: 7, source: .photo, imageDigest: photoDigest))
        let photoGone = ContactAvatar.resolved(
            choice: .photo, photoID: 7, photoDigest: nil, gravatarDigest: gravatarDigest)
        XCTAssertEqual(photoGone, ContactAvatar(source: .gravatar, imageDigest: gravatarDigest))
        let nothingLeft = ContactAvatar.resolved(choice: .photo, photoID: nil, photoDigest: nil, gravatarDigest: nil)
        XCTAssertEqual(nothingLeft, .automatic)
    }

    func testGravatarIsShownUnlessInitialsWereChosen() {
        for choice in [nil, AvatarChoice.gravatar] {
            let found = ContactAvatar.resolved(
                choice: choice, photoID: nil, photoDigest: nil, gravatarDigest: gravatarDigest)
            XCTAssertEqual(found.source, .gravatar)
            let missing = ContactAvatar.resolved(choice: choice, photoID: nil, photoDigest: nil, gravatarDigest: nil)
            XCTAssertEqual(missing.source, .initials)
            XCTAssertEqual(missing.choice, choice)
        }
        for choice in [AvatarChoice.initials, .adorable] {
            let chosen = ContactAvatar.resolved(
                choice: choice, photoID: 3, photoDigest: photoDigest, gravatarDigest: gravatarDigest)
            XCTAssertEqual(chosen, ContactAvatar(choice: choice, source: .initials))
        }
        XCTAssertEqual(AvatarSource.initials.rawValue, "default", "Monica calls initials the default avatar")
    }

    func testTheVersionChangesWithThePicture() {
        let initials = ContactAvatar.automatic
        XCTAssertEqual(
            initials.version(name: "Ada Lovelace", color: "#fdb660"),
            initials.version(name: "Ada Lovelace", color: "#fdb660"))
        XCTAssertNotEqual(
            initials.version(name: "Ada Lovelace", color: "#fdb660"),
            initials.version(name: "Ada Byron", color: "#fdb660"))
        XCTAssertNotEqual(
            initials.version(name: "Ada Lovelace", color: "#fdb660"),
            initials.version(name: "Ada Lovelace", color: "#93521e"))
        // The same from one release to the next (FNV-1a of "Ada Lovelace|#fdb660"), so links that clients
        // and browsers keep stay valid.
        XCTAssertEqual(initials.version(name: "Ada Lovelace", color: "#fdb660"), "i8f3991807ebe590f")
        let photo = ContactAvatar(choice: .photo, photoID: 1, source: .photo, imageDigest: photoDigest)
        XCTAssertEqual(photo.version(name: "Ada Lovelace", color: "#fdb660"), String(photoDigest.prefix(16)))
        XCTAssertEqual(
            photo.version(name: "Xavier Yu", color: "#93521e"), String(photoDigest.prefix(16)),
            "a photo ignores the name")
    }
}

/// Signed picture links: made and checked by the same secret, refused when changed or too old.
final class LinkSignerTests: XCTestCase {
    private let signer = LinkSigner(secret: Data(repeating: 7, count: 32))
    private let now = Date(timeIntervalSince1970: 1_790_000_000)

    func testASignatureChecksOutUntilItExpires() {
        let expires = LinkSigner.expiry(now: now)
        let signature = signer.signature(of: "avatar:12:abc", expires: expires)
        XCTAssertEqual(signature.count, 32)
        XCTAssertEqual(signer.verify(signature, of: "avatar:12:abc", expires: expires, now: now), .valid)
        XCTAssertEqual(signer.verify(signature.uppercased(), of: "avatar:12:abc", expires: expires, now: now), .valid)
        let later = Date(timeIntervalSince1970: TimeInterval(expires + 1))
        XCTAssertEqual(signer.verify(signature, of: "avatar:12:abc", expires: expires, now: later), .expired)
    }

    func testTheSignatureIsHMACSHA256() {
        for secret in [Data(repeating: 7, count: 32), Data(repeating: 1, count: 100), Data("short".utf8)] {
            let expected = HMAC<SHA256>.authenticationCode(
                for: Data("avatar:1:v|1790000000".utf8), using: SymmetricKey(data: secret))
            let hex = expected.prefix(16).map { String(format: "%02x", $0) }.joined()
            XCTAssertEqual(LinkSigner(secret: secret).signature(of: "avatar:1:v", expires: 1_790_000_000), hex)
        }
    }

    func testAnythingChangedIsForged() {
        let expires = LinkSigner.expiry(now: now)
        let signature = signer.signature(of: "avatar:12:abc", expires: expires)
        XCTAssertEqual(signer.verify(signature, of: "avatar:13:abc", expires: expires, now: now), .forged)
        XCTAssertEqual(signer.verify(signature, of: "avatar:12:abc", expires: expires + 86_400, now: now), .forged)
        XCTAssertEqual(signer.verify("", of: "avatar:12:abc", expires: expires, now: now), .forged)
        let otherServer = LinkSigner(secret: Data(repeating: 8, count: 32))
        XCTAssertEqual(otherServer.verify(signature, of: "avatar:12:abc", expires: expires, now: now), .forged)
    }

    func testExpiryIsAboutAWeekAndStableWithinADay() {
        let expires = LinkSigner.expiry(now: now)
        let seconds = Int(now.timeIntervalSince1970)
        XCTAssertGreaterThan(expires - seconds, 7 * 86_400)
        XCTAssertLessThanOrEqual(expires - seconds, 8 * 86_400)
        XCTAssertEqual(expires % 86_400, 0)
        XCTAssertEqual(LinkSigner.expiry(now: now.addingTimeInterval(60)), expires, "the same link all day")
    }
}

final class PhotoNamingTests: XCTestCase {
    func testStoredNamesComeFromTheBytesNotTheSender() {
        XCTAssertEqual(Photo.originalFilename("C:\\Users\\ada\\me.png", format: .png), "me.png")
        XCTAssertEqual(Photo.originalFilename("../../etc/passwd", format: .jpeg), "passwd")
        XCTAssertEqual(Photo.originalFilename(nil, format: .webp), "photo.webp")
        XCTAssertEqual(Photo.originalFilename("  ", format: .gif), "photo.gif")
        XCTAssertEqual(
            Photo.digest(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(ImageFormat(mimeType: "image/webp"), .webp)
        XCTAssertNil(ImageFormat(mimeType: "image/svg+xml"))
    }
}
