import Foundation
import LocifyCore
import XCTest

@testable import LocifyServer

/// The parts of one read-only answer read each contact once, even when they ask side by side.
final class SharedContactReadsTests: XCTestCase {
    /// What the stand-in database was asked for, in order.
    private actor Asked {
        var reads: [[Int]] = []
        func record(_ ids: [Int]) { reads.append(ids) }
    }

    /// The stand-in for the contacts table: ids 1 to 10 are the account's. It waits a little, so that
    /// a second caller comes while the first read is under way.
    private static func contacts(_ ids: [Int], asked: Asked) async throws -> [Int: Contact] {
        await asked.record(ids)
        try await Task.sleep(for: .milliseconds(50))
        let known = ids.filter { (1...10).contains($0) }.map(Contact.placeholder)
        return Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) })
    }

    func testCallersSideBySideShareOneReadOfEachContact() async throws {
        let shared = SharedContactReads()
        let asked = Asked()
        async let first = shared.contacts([1, 2, 3, 4]) { try await Self.contacts($0, asked: asked) }
        try await Task.sleep(for: .milliseconds(10))
        async let second = shared.contacts([3, 4, 5, 99]) { try await Self.contacts($0, asked: asked) }
        let (early, late) = try await (first, second)

        XCTAssertEqual(early.keys.sorted(), [1, 2, 3, 4])
        XCTAssertEqual(late.keys.sorted(), [3, 4, 5], "an id the account has no contact for is left out")
        XCTAssertEqual(early[3], late[3], "both have the same read of contact 3")
        let reads = await asked.reads
        XCTAssertEqual(reads, [[1, 2, 3, 4], [5, 99]], "the second asks only for what the first is not reading")

        let again = try await shared.contacts([2, 5]) { try await Self.contacts($0, asked: asked) }
        XCTAssertEqual(again.keys.sorted(), [2, 5])
        let readsAfter = await asked.reads
        XCTAssertEqual(readsAfter.count, 2, "what was read is not read again")
    }

    func testAnAnswersPartsFindTheSameSharedReads() {
        let answer = SharedReads()
        let first = answer.value(SharedContactReads.init)
        XCTAssertTrue(first === answer.value(SharedContactReads.init), "made once, then found")
        XCTAssertFalse(first === SharedReads().value(SharedContactReads.init), "another answer has its own")
    }

    func testAFailedReadFailsEveryoneWaitingForIt() async throws {
        struct Unreachable: Error {}
        let shared = SharedContactReads()
        do {
            _ = try await shared.contacts([1]) { _ in throw Unreachable() }
            XCTFail("the read failed")
        } catch is Unreachable {}
        do {
            _ = try await shared.contacts([1, 2]) { ids in
                Dictionary(uniqueKeysWithValues: ids.map { ($0, Contact.placeholder($0)) })
            }
            XCTFail("contact 1's read failed, and the answer that shares it fails with it")
        } catch is Unreachable {}
    }
}

extension Contact {
    fileprivate static func placeholder(_ id: Int) -> Contact {
        Contact(
            id: id, uuid: UUID(), ownerID: 1, fields: ContactFields(firstName: "Person \(id)"),
            defaultAvatarColor: "#b3d5fe", createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0))
    }
}
