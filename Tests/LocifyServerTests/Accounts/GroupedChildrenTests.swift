import Fluent
import LocifyCore
import XCTVapor

@testable import LocifyServer

final class GroupedChildrenTests: XCTestCase {
    func testChildrenOfManyParentsLoadInOneQueryGroupedByParent() async throws {
        try await forEachDatabase { app, _, database in
            let ada = try await app.makeAccount()
            let eve = try await app.makeAccount(email: "eve@example.com", name: "Eve")
            let nobody = try await app.makeAccount(email: "nobody@example.com", name: "Nobody")
            _ = try await app.accounts.createToken(for: ada.id, label: "second")
            let grouped = try await APITokenModel.grouped(
                by: \.$user, in: [ada.id, eve.id, 999], on: app.db,
                sortedBy: .sort(.path(["label"], schema: APITokenModel.schema), .ascending))
            XCTAssertEqual(grouped[ada.id]?.map(\.label), ["second", "tests"], "\(database)")
            XCTAssertEqual(grouped[eve.id]?.map(\.label), ["tests"])
            XCTAssertNil(grouped[nobody.id], "parents not asked for are not loaded")
            XCTAssertNil(grouped[999])
            let none = try await APITokenModel.grouped(by: \.$user, in: [], on: app.db)
            XCTAssertTrue(none.isEmpty)
        }
    }
}
