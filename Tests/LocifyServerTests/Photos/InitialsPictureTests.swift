import Foundation
import LocifyAPI
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// Initials avatars for clients that cannot draw SVG: a PNG unless the request names `image/svg+xml`,
/// drawn by the configured rasteriser (a stand-in here, the real `rsvg-convert` in the last test).
final class InitialsPictureTests: XCTestCase {
    /// What browsers send for an `<img>`: SVG named, so they get the scalable drawing.
    private static let browserAccept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"

    private func headers(_ account: TestAccount, accept: String? = nil, ifNoneMatch: String? = nil) -> HTTPHeaders {
        var headers = account.bearer
        if let accept { headers.replaceOrAdd(name: .accept, value: accept) }
        if let ifNoneMatch { headers.replaceOrAdd(name: .ifNoneMatch, value: ifNoneMatch) }
        return headers
    }

    func testAppsThatCannotDrawSVGGetTheInitialsAsAPNG() async throws {
        try await forEachDatabase { app, _, database in
            let drawn = NIOLockedValueBox<[String]>([])
            let marker = try Avatar.discPNG(background: "#102030", size: 8)
            app.dependencies.rasterizer = FakeRasterizer { svg in
                drawn.withLockedValue { $0.append(svg) }
                return marker
            }
            let account = try await app.makeAccount()
            let contact = try await app.makeContact(
                for: account, ContactDraft(firstName: "Дмитрий", lastName: "Иванов"))
            let path = "/store/avatars/\(contact.id)?size=64"
            // Monica's iOS app asks with URLSession's default Accept, or none.
            let png = try await app.send(.GET, path, headers: headers(account))
            XCTAssertEqual(png.status, .ok, "\(database)")
            XCTAssertEqual(png.headers.contentType?.description, "image/png")
            XCTAssertEqual(Array(png.body.readableBytesView), marker, "the rasteriser's PNG, as it drew it")
            XCTAssertEqual(png.headers.first(name: .vary), "Accept")
            XCTAssertEqual(png.headers.first(name: "X-Content-Type-Options"), "nosniff")
            let svgAsked = try XCTUnwrap(drawn.withLockedValue { $0.first })
            XCTAssertEqual(
                svgAsked, Avatar.initialsSVG(name: "Дмитрий Иванов", background: contact.defaultAvatarColor, size: 64))
            let pngTag = try XCTUnwrap(png.headers.first(name: .eTag))

            // Kept like the SVG: the rasteriser draws a picture once.
            let again = try await app.send(.GET, path, headers: headers(account, accept: "*/*"))
            XCTAssertEqual(Array(again.body.readableBytesView), marker)
            XCTAssertEqual(drawn.withLockedValue { $0.count }, 1)
            let unchanged = try await app.send(.GET, path, headers: headers(account, ifNoneMatch: pngTag))
            XCTAssertEqual(unchanged.status, .notModified)
            XCTAssertEqual(unchanged.headers.first(name: .vary), "Accept")

            // Browsers name SVG and get it, under another ETag (a cache holding the PNG must not answer 304).
            let svg = try await app.send(.GET, path, headers: headers(account, accept: Self.browserAccept))
            XCTAssertEqual(svg.headers.contentType?.description, "image/svg+xml")
            XCTAssertTrue(svg.text.contains(">ДИ</text>"), svg.text)
            XCTAssertEqual(svg.headers.first(name: .vary), "Accept")
            XCTAssertNotEqual(svg.headers.first(name: .eTag), pngTag)
            let svgAfterPNG = try await app.send(
                .GET, path, headers: headers(account, accept: Self.browserAccept, ifNoneMatch: pngTag))
            XCTAssertEqual(svgAfterPNG.status, .ok)

            for (accept, expected) in [
                ("image/svg+xml", "image/svg+xml"), ("image/png, image/svg+xml;q=0.5", "image/png"),
                ("image/svg+xml;q=0", "image/png"), ("image/*", "image/png"), ("image/*,*/*;q=0.8", "image/png"),
                ("image/png", "image/png"), ("text/html, image/svg+xml;q=0.9, */*;q=0.8", "image/svg+xml"),
            ] {
                let answer = try await app.send(.GET, path, headers: headers(account, accept: accept))
                XCTAssertEqual(answer.headers.contentType?.description, expected, "Accept: \(accept)")
            }

            // The URL the API gives (a signed link, no credentials) is what the app opens.
            let resource = try await app.send(.GET, "/api/contacts/\(contact.id)", headers: account.bearer)
                .decoded(DataEnvelope<ContactResource>.self).data
            let link = try XCTUnwrap(resource.information.avatar.url).replacingOccurrences(
                of: "http://127.0.0.1:8080", with: "")
            let signed = try await app.send(.GET, link)
            XCTAssertEqual(signed.status, .ok)
            XCTAssertEqual(signed.headers.contentType?.description, "image/png")
            XCTAssertEqual(try PNGPixels(Array(signed.body.readableBytesView)).width, 8)
        }
    }

    func testWithoutARasteriserTheInitialsArePlainDiscsUntilOneDrawsThem() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let contact = try await app.makeContact(for: account, ContactDraft(firstName: "Ada", lastName: "Lovelace"))
            let path = "/store/avatars/\(contact.id)?size=48"
            app.dependencies.rasterizer = RasterizerOff()
            let disc = try await app.send(.GET, path, headers: headers(account))
            XCTAssertEqual(disc.status, .ok, "\(database): a failing rasteriser is no error for the client")
            XCTAssertEqual(disc.headers.contentType?.description, "image/png")
            let pixels = try PNGPixels(Array(disc.body.readableBytesView))
            XCTAssertEqual([pixels.width, pixels.height], [48, 48])
            XCTAssertEqual(pixels.pixel(x: 0, y: 0)[3], 0, "transparent outside the circle")
            let color = contact.defaultAvatarColor
            let hex = try XCTUnwrap(Int(color.dropFirst(), radix: 16))
            XCTAssertEqual(
                pixels.pixel(x: 24, y: 24), [UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF), 255],
                "the contact's colour, opaque, in the middle")
            let discTag = try XCTUnwrap(disc.headers.first(name: .eTag))
            XCTAssertTrue(discTag.hasSuffix("-disc\""), discTag)

            // A rasteriser that fails (a missing font, a crash) is logged and also gives the disc.
            app.dependencies.rasterizer = FakeRasterizer { _ in
                throw OutsideServiceError(service: CommandRasterizer.service, reason: .unreadable("exit status 1"))
            }
            let failed = try await app.send(.GET, path, headers: headers(account))
            XCTAssertEqual(failed.headers.first(name: .eTag), discTag)
            XCTAssertEqual(failed.body, disc.body)

            let letters = try Avatar.discPNG(background: "#ffffff", size: 48)
            app.dependencies.rasterizer = FakeRasterizer { _ in letters }
            let drawn = try await app.send(.GET, path, headers: headers(account, ifNoneMatch: discTag))
            XCTAssertEqual(drawn.status, .ok, "a client holding the disc gets the letters once they can be drawn")
            XCTAssertEqual(Array(drawn.body.readableBytesView), letters)
            XCTAssertNotEqual(drawn.headers.first(name: .eTag), discTag)
        }
    }

    /// librsvg's `rsvg-convert`, as `.ci/run` installs it with Noto's fonts: letters of every script drawn
    /// on the disc. Required in CI (`LOCIFY_TEST_RASTERIZER=required`); elsewhere it needs the tool.
    func testRSVGConvertDrawsInitialsInEveryScript() async throws {
        // Found as the server finds it.
        let tool = try LocifyConfig.resolve(environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""])
            .outside.avatarRasterizer
        guard let tool else {
            if ProcessInfo.processInfo.environment["LOCIFY_TEST_RASTERIZER"] == "required" {
                return XCTFail("rsvg-convert is required (apt-get install librsvg2-bin) but was not found")
            }
            throw XCTSkip("rsvg-convert is not installed (apt-get install librsvg2-bin fonts-noto-core fonts-noto-cjk)")
        }
        try await forEachDatabase { app, _, _ in
            app.dependencies.rasterizer = CommandRasterizer(command: tool)
            let account = try await app.makeAccount()
            let names = [
                ContactDraft(firstName: "Ada", lastName: "Lovelace"),
                ContactDraft(firstName: "Дмитрий", lastName: "Иванов"),
                ContactDraft(firstName: "王", lastName: "芳"), ContactDraft(firstName: "محمد", lastName: "علي"),
                ContactDraft(firstName: "Ελένη", lastName: "Παππά"), ContactDraft(firstName: "अमित", lastName: "शर्मा"),
                ContactDraft(firstName: "שרה", lastName: "כהן"),
            ]
            var pictures: Set<[UInt8]> = []
            for draft in names {
                let contact = try await app.makeContact(for: account, draft)
                let answer = try await app.send(.GET, "/store/avatars/\(contact.id)?size=96", headers: headers(account))
                XCTAssertEqual(answer.headers.contentType?.description, "image/png", contact.completeName)
                XCTAssertFalse(
                    answer.headers.first(name: .eTag)?.hasSuffix("-disc\"") ?? true, "\(contact.completeName) drawn")
                let pixels = try PNGPixels(Array(answer.body.readableBytesView))
                XCTAssertEqual([pixels.width, pixels.height], [96, 96])
                XCTAssertEqual(pixels.pixel(x: 1, y: 1)[3], 0, "transparent outside the circle")
                let background = contact.defaultAvatarColor
                let letters = pixels.pixelsNearer(to: Avatar.textColor(on: background), than: background)
                XCTAssertGreaterThan(letters, 150, "\(contact.completeName): letters on the disc")
                pictures.insert(pixels.rgba)
            }
            XCTAssertEqual(pictures.count, names.count, "each name its own letters")
        }
    }
}
