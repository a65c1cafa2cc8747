import Fluent
import Foundation
import LocifyAPI
import LocifyCore
import SQLKit
import Vapor

/// Measures the read path in-process for `locify bench`: encoding full Monica contacts and decoding
/// contact rows, on an in-memory SQLite database filled with `count` contacts.
public enum ReadPathBenchmarks {
    public struct Measurement: Sendable {
        public let name: String
        public let value: Double
        public let unit: String
    }

    public static func run(count: Int = 100, repetitions: Int = 200) async throws -> [Measurement] {
        let clock = { Double(DispatchTime.now().uptimeNanoseconds) / 1e3 }
        let app = try await Application.make(.testing)
        do {
            let results = try await measure(app: app, count: count, repetitions: repetitions, clock: clock)
            try await app.asyncShutdown()
            return results
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    private static func measure(
        app: Application, count: Int, repetitions: Int, clock: () -> Double
    ) async throws -> [Measurement] {
        let config = LocifyConfig(
            dataDirectory: FileManager.default.temporaryDirectory, storage: .sqlite(path: nil), preloadsGazetteer: false
        )
        var dependencies = LocifyDependencies.live(config)
        dependencies.passwords = .bcrypt(cost: 4)
        try await configure(app, config: config, dependencies: dependencies)
        try await app.autoMigrate()
        let user = try await app.accounts.register(
            AccountDraft(name: "Bench Mark", email: "bench@example.com"), password: "benchmark", policy: .open)
        let owner = user
        let service = ContactService(database: app.db, owner: owner, dependencies: dependencies)
        for number in 0..<count {
            _ = try await service.create(
                ContactDraft(
                    firstName: "Person \(number)", lastName: "Ó'Brien-Łukasiewicz", nickname: "P\(number)",
                    description: "Met at the \"Lyon\" climbing gym.\nLoves bouldering.",
                    email: "p\(number)@example.com",
                    birthdateDay: 1 + number % 28, birthdateMonth: 1 + number % 12, birthdateYear: 1950 + number % 60,
                    genderName: ["M", "F", "O"][number % 3], isStarred: number % 7 == 0))
        }
        var results: [Measurement] = []
        func perItem(_ name: String, _ body: () async throws -> Int) async rethrows {
            _ = try await body()  // warm-up
            let start = clock()
            var items = 0
            for _ in 0..<repetitions { items += try await body() }
            results.append(Measurement(name: name, value: (clock() - start) / Double(max(items, 1)), unit: "µs each"))
        }
        let query: SQLQueryString = "SELECT \(ContactRows.columnList) FROM contacts WHERE user_id = \(bind: owner.id)"
        try await perItem("query and decode rows (plain rows)") {
            try await app.db.plainRows(query, columns: ContactRows.columns).map(ContactRows.contact(from:)).count
        }
        let rows = try await app.db.plainRows(query, columns: ContactRows.columns)
        try await perItem("decode contact rows (plain rows)") {
            try rows.map(ContactRows.contact(from:)).count
        }
        let contacts = try rows.map(ContactRows.contact(from:))
        let encoder = OrderedJSONEncoder()
        let avatar = { (contact: Contact) in
            AvatarResource(
                url: "http://127.0.0.1/store/avatars/\(contact.id)?v=\(contact.avatarVersion)",
                source: contact.avatar.source.rawValue, defaultAvatarColor: contact.defaultAvatarColor)
        }
        func resources() -> [ContactResource] {
            contacts.map {
                ContactResource(
                    $0, url: "http://127.0.0.1/api/contacts/\($0.id)", avatar: avatar($0), currentYear: 2026)
            }
        }
        await perItem("build full Monica contacts (resources)") { resources().count }
        let built = resources()
        try await perItem("encode full Monica contacts (JSON)") {
            try encoder.encodedBytes(built).isEmpty ? 0 : built.count
        }
        return results
    }
}
