import Vapor
import XCTest

@testable import LocifyServer

/// Every route is registered from a typed path of a feature's `…Paths` enum, which the links to it are
/// built from too: a route added by hand, with its path written out, fails here.
final class RoutePathTests: XCTestCase {
    func testEveryRegisteredRouteHasATypedPath() async throws {
        try await withApp(.sqlite) { app, _ in
            let routes = app.routes.all
            XCTAssertGreaterThan(routes.count, 150)
            let unmarked = routes.filter { $0.userInfo[RegisteredPathKey.userInfo] == nil }
            XCTAssertEqual(
                unmarked.map { "\($0.method) \($0.path.string)" }.sorted(), [],
                "registered without a typed path")
            for route in routes {
                guard let pattern = route.userInfo[RegisteredPathKey.userInfo] as? PathPattern else { continue }
                XCTAssertEqual("/" + route.path.string, pattern.description, "\(route.method) \(route.path)")
            }
        }
    }

    func testLinksFillTheSamePatternsTheRoutesAreRegisteredFrom() {
        XCTAssertEqual(SitePaths.home.path, "/")
        XCTAssertEqual(SitePaths.home.pattern.description, "/")
        XCTAssertEqual(ContactPaths.contact(7).path, "/contacts/7")
        XCTAssertEqual(ContactPaths.contact.pattern.description, "/contacts/:contactID")
        XCTAssertEqual(AddressPaths.edit(7, 12).path, "/contacts/7/addresses/12/edit")
        XCTAssertEqual(AddressPaths.edit.pattern.description, "/contacts/:contactID/addresses/:addressID/edit")
        XCTAssertEqual(ReminderPaths.feed("s3cret").path, "/feeds/s3cret/reminders.ics")
        XCTAssertEqual(MapPaths.tile.pattern.description, "/maps/tiles/:z/:x/:file")
        XCTAssertEqual(
            PlacePaths.new.path(query: [("category_id", "3"), ("q", nil), ("near", "")]), "/places/new?category_id=3")
        XCTAssertEqual(NotePaths.favorite(4).path, "/notes/4/favorite")
        XCTAssertEqual(SitePath.localPath("/contacts/1?x=2"), "/contacts/1?x=2")
        for outside in ["//evil.example/", "https://evil.example/", "/\\evil.example", "contacts"] {
            XCTAssertNil(SitePath.localPath(outside), outside)
        }
    }
}
