import ArgumentParser
import Foundation
import LocifyAPI
import LocifyCore
import LocifyKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `locify client …`: a Locify app for the terminal, built only on LocifyKit, keeping the account in a
/// store file and working offline between syncs.
extension Locify {
    struct Client: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "client",
            abstract:
                "Use a Locify server as an app does: log in, sync, and read and change a copy kept on this machine.",
            discussion: """
                The copy lives in one file (--store, env LOCIFY_CLIENT_STORE; default ./locify-client.sqlite). \
                Changes made with add-contact, add-place, edit-contact and delete are kept there at once and sent by \
                the next sync, so they work with the server away.
                """,
            subcommands: [
                Login.self, Logout.self, SyncNow.self, Status.self, Contacts.self, Contact.self, Places.self,
                AddContact.self, EditContact.self, AddPlace.self, Delete.self, Refusals.self, Bench.self,
            ])
    }
}

struct StoreOptions: ParsableArguments {
    @Option(help: "The store file (env: LOCIFY_CLIENT_STORE; default ./locify-client.sqlite).")
    var store: String?

    var path: String {
        store ?? ProcessInfo.processInfo.environment["LOCIFY_CLIENT_STORE"] ?? "locify-client.sqlite"
    }

    func open() throws -> LocifyStore {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try LocifyStore(path: path)
    }

    /// The store and a sync engine for its session; fails with a hint when nobody logged in.
    func session() throws -> (LocifyStore, LocifySync) {
        let store = try open()
        guard let sync = try LocifySync(resuming: store) else {
            throw ClientFailure("Nobody is logged in with \(path): run `locify client login` first.")
        }
        return (store, sync)
    }
}

struct ClientFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Runs a client command: an SDK error becomes its message on standard error and exit code 1.
private func runClient(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as LocifyError {
        FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
        throw ExitCode.failure
    } catch let failure as ClientFailure {
        FileHandle.standardError.write(Data("error: \(failure.description)\n".utf8))
        throw ExitCode.failure
    }
}

private func fields(_ pairs: [(String, String?)]) -> [String: JSONValue] {
    var fields: [String: JSONValue] = [:]
    for (name, value) in pairs {
        if let value { fields[name] = .string(value) }
    }
    return fields
}

extension Locify.Client {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Trade an email and password for a token and keep it with the store.",
            discussion: """
                The password comes from --password, the LOCIFY_PASSWORD environment variable, or is asked for. \
                Logging in as another account empties the store first (refused while its changes wait).
                """)

        @Option(help: "The server's address, e.g. https://locify.example.com.") var server: String
        @Option(help: "The account's email.") var email: String
        @Option(help: "The password (prefer LOCIFY_PASSWORD or the prompt: options show in the process list).")
        var password: String?
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                _ = try LocifyClient.serverURL(server)
                let password =
                    password ?? ProcessInfo.processInfo.environment["LOCIFY_PASSWORD"] ?? Self.askPassword()
                guard let password, !password.isEmpty else { throw ClientFailure("A password is needed.") }
                let store = try storeOptions.open()
                let sync = try await LocifySync.logIn(server: server, email: email, password: password, store: store)
                // The account's email as the server has it (logIn asked /api/me once), kept with the session.
                let account = try store.session()?.email ?? email
                print("Logged in to \(sync.client.serverURL.absoluteString) as \(account).")
                print("Run `locify client sync` to download the account.")
            }
        }

        static func askPassword() -> String? {
            if isatty(0) != 0, let typed = getpass("Password: ") { return String(cString: typed) }
            return readLine(strippingNewline: true)
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout", abstract: "Forget the token; the copy stays readable.")
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                let waiting = try store.waitingChanges().count
                try store.forgetToken()
                print("Logged out.\(waiting > 0 ? " \(waiting) changes wait to be sent: log in again and sync." : "")")
            }
        }
    }

    struct SyncNow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync", abstract: "Send the changes made here, then bring the server's changes.")
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let (_, sync) = try storeOptions.session()
                let interactive = isatty(2) != 0
                let clock = ContinuousClock()
                let started = clock.now
                let report = try await sync.sync { report in
                    guard interactive else { return }
                    FileHandle.standardError.write(Data("\r\(report.pulledChanges) records received…".utf8))
                }
                if interactive { FileHandle.standardError.write(Data("\r".utf8)) }
                var lines = [
                    "Sent \(report.pushed) change\(report.pushed == 1 ? "" : "s")"
                        + (report.refused > 0 ? " (\(report.refused) refused: see `locify client refusals`)" : "")
                        + "; received \(report.pulledChanges) record\(report.pulledChanges == 1 ? "" : "s") and "
                        + "\(report.pulledDeletions) deletion\(report.pulledDeletions == 1 ? "" : "s") in "
                        + String(format: "%.3f s.", (clock.now - started).seconds)
                ]
                if report.downloadedEverything {
                    lines.append("The server had forgotten this copy's place: everything was downloaded again.")
                }
                if report.unreadable > 0 {
                    lines.append("\(report.unreadable) entries of the feed could not be read and were left out.")
                }
                for line in lines { print(line) }
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Print the store's account, last sync, records and waiting changes.")
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                if let session = try store.session() {
                    print("Server: \(session.serverURL.absoluteString)")
                    print("Account: \(session.email ?? "unknown")")
                } else {
                    print("Not logged in.")
                }
                print("Store: \(storeOptions.path)")
                print("Last sync: \(try store.lastSyncedAt().map(Timestamp.string) ?? "never")")
                for (type, count) in try store.counts().sorted(by: { $0.key < $1.key }) {
                    print("  \(type): \(count)")
                }
                print("Waiting to be sent: \(try store.waitingChanges().count)")
                print("Refused, not yet seen: \(try store.refusals().count)")
            }
        }
    }

    struct Contacts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "contacts", abstract: "List the contacts kept here, or those matching a search.")
        @Option(name: .customLong("search"), help: "Words to find (accents and case ignored).") var query: String?
        @Option(help: "At most this many.") var limit = 100
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                for contact in try store.contacts(matching: query, limit: limit) {
                    print(
                        "\(contact.completeName)\t\(contact.state.uuid)\(contact.state.isWaiting ? "\t(not sent yet)" : "")"
                    )
                }
            }
        }
    }

    struct Contact: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "contact", abstract: "Show one contact with its addresses and reminders.")
        @Argument(help: "The contact's uuid.") var uuid: String
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                guard let contact = try store.contact(uuid: uuid) else {
                    throw ClientFailure("No contact \(uuid) on this device.")
                }
                print(contact.completeName + (contact.isStarred ? " ★" : ""))
                if let nickname = contact.nickname { print("Nickname: \(nickname)") }
                if let birthdate = contact.birthdate { print("Birthday: \(birthdate)") }
                if let job = contact.job { print("Job: \(job)\(contact.company.map { " at \($0)" } ?? "")") }
                for address in try store.addresses(ofContact: contact) {
                    print("Address: \(address.postalLines().joined(separator: ", "))")
                }
                for reminder in try store.reminders(ofContact: contact) {
                    print(
                        "Reminder: \(reminder.title) (next \(reminder.nextExpectedDate ?? reminder.initialDate ?? "?"))"
                    )
                }
            }
        }
    }

    struct Places: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "places", abstract: "List the places kept here, those matching a search or near a point.")
        @Option(name: .customLong("search"), help: "Words to find in the name or address.") var query: String?
        @Option(help: "LATITUDE,LONGITUDE: the places around it, nearest first.") var near: String?
        @Option(help: "With --near: how far, in kilometres.") var radius = 50.0
        @Option(help: "At most this many.") var limit = 100
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                let places: [StoredPlace]
                if let near {
                    let parts = near.split(separator: ",").compactMap {
                        Double($0.trimmingCharacters(in: .whitespaces))
                    }
                    guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else {
                        throw ClientFailure("--near takes LATITUDE,LONGITUDE, e.g. 48.8566,2.3522.")
                    }
                    guard radius > 0 else { throw ClientFailure("--radius must be above 0.") }
                    places = try store.places(
                        near: Coordinate(latitude: parts[0], longitude: parts[1]), radius: radius * 1000, limit: limit)
                } else {
                    places = try store.places(matching: query, limit: limit)
                }
                for place in places {
                    let distance = place.distance.map { String(format: "\t%.1f km", $0 / 1000) } ?? ""
                    print("\(place.name)\(place.isFavorite ? " ♥" : "")\t\(place.state.uuid)\(distance)")
                }
            }
        }
    }

    struct AddContact: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-contact", abstract: "Add a contact here; the next sync sends it.")
        @Option(help: "First name.") var firstName: String
        @Option(help: "Last name.") var lastName: String?
        @Option(help: "Nickname.") var nickname: String?
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                let uuid = try store.createContact(
                    ContactDraft(firstName: firstName, lastName: lastName, nickname: nickname))
                print(uuid)
            }
        }
    }

    struct EditContact: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit-contact", abstract: "Change a contact's names here; the next sync sends the change.")
        @Argument(help: "The contact's uuid.") var uuid: String
        @Option(help: "First name.") var firstName: String?
        @Option(help: "Last name.") var lastName: String?
        @Option(help: "Nickname.") var nickname: String?
        @Flag(inversion: .prefixedNo, help: "Star or unstar it.") var starred: Bool?
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                var changed = fields([("first_name", firstName), ("last_name", lastName), ("nickname", nickname)])
                if let starred { changed["is_starred"] = .bool(starred) }
                guard !changed.isEmpty else {
                    throw ClientFailure("Name at least one change (--first-name, --nickname, --starred, …).")
                }
                try storeOptions.open().update("contact", uuid: uuid, fields: changed)
            }
        }
    }

    struct AddPlace: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-place", abstract: "Save a place here; the next sync sends it.")
        @Option(help: "Its name.") var name: String
        @Option(help: "Latitude, -90 to 90.") var latitude: Double
        @Option(help: "Longitude, -180 to 180.") var longitude: Double
        @Option(help: "The category's name (one kept here: Cafe, Restaurant, …).") var category: String
        @Option(help: "Notes.") var notes: String?
        @Flag(help: "Mark it a favorite.") var favorite = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                let folded = TextFolding.searchKey([category])
                let categories = try store.categories()
                guard let found = categories.first(where: { TextFolding.searchKey([$0.name]) == folded }) else {
                    let names = categories.map(\.name).joined(separator: ", ")
                    throw ClientFailure(
                        "No category “\(category)” on this device; there are: \(names.isEmpty ? "none yet (sync first)" : names)."
                    )
                }
                let draft = PlaceDraft(
                    name: name, latitude: latitude, longitude: longitude, notes: notes, isFavorite: favorite)
                print(try store.createPlace(draft, in: found))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a contact or a place here; the next sync sends it.")
        @Argument(help: "contact or place.") var type: String
        @Argument(help: "Its uuid.") var uuid: String
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            guard ["contact", "place"].contains(type) else { throw ValidationError("The type is contact or place.") }
        }

        func run() async throws {
            try await runClient { try storeOptions.open().delete(type, uuid: uuid) }
        }
    }

    struct Refusals: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refusals", abstract: "List the changes the server refused, and dismiss them.")
        @Flag(help: "Dismiss them once listed.") var dismiss = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                for refusal in try store.refusals() {
                    let reasons = refusal.errors.map(\.message).joined(separator: " ")
                    print(
                        "\(refusal.mutation.operation.rawValue) \(refusal.mutation.type) \(refusal.mutation.uuid): \(refusal.status.rawValue): \(reasons)"
                    )
                    if dismiss { try store.dismissRefusal(refusal) }
                }
            }
        }
    }
}

extension Locify.Client {
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Measure reads of the copy kept here: contact searches and places near a point (p50, p99).",
            discussion: "Reads the store only; run it after a sync of a large account (Benchmarks/sdk.sh does).")
        @Option(help: "How many of each read.") var rounds = 1000
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await runClient {
                let store = try storeOptions.open()
                let names = try store.contacts(limit: 1000).map(\.completeName)
                let points = try store.places(limit: 1000).map(\.coordinate)
                guard !names.isEmpty, !points.isEmpty else {
                    throw ClientFailure("The store has no contacts or no places to measure: sync an account first.")
                }
                var generator = SystemRandomNumberGenerator()
                let searches = try Self.measure(rounds) {
                    // Two words of a name, as a person types them: the first, and the start of the last.
                    let words = (names.randomElement(using: &generator) ?? "").split(separator: " ")
                    let query = [words.first, words.last.map { $0.prefix(3) }].compactMap { $0 }.joined(separator: " ")
                    _ = try store.contacts(matching: query, limit: 50)
                }
                let nearby = try Self.measure(rounds) {
                    let point = points.randomElement(using: &generator) ?? Coordinate(latitude: 0, longitude: 0)
                    let jittered = Coordinate(
                        latitude: max(-90, min(90, point.latitude + Double.random(in: -0.2...0.2, using: &generator))),
                        longitude: max(
                            -180, min(180, point.longitude + Double.random(in: -0.2...0.2, using: &generator))))
                    _ = try store.places(near: jittered, radius: 50_000, limit: 20)
                }
                let pictures = try await Self.measurePictures(rounds)
                let counts = try store.counts()
                print("store: \(counts["contact"] ?? 0) contacts, \(counts["place"] ?? 0) places")
                print(
                    String(format: "contact search (50 at most): p50 %.2f ms, p99 %.2f ms", searches.p50, searches.p99))
                print(
                    String(
                        format: "places near a point (50 km, 20 at most): p50 %.2f ms, p99 %.2f ms", nearby.p50,
                        nearby.p99))
                print(
                    String(
                        format:
                            "a photo kept on disk (%d KB), by a picture cache started anew: p50 %.2f ms, p99 %.2f ms",
                        pictures.kilobytes, pictures.fromDisk.p50, pictures.fromDisk.p99))
            }
        }

        /// A photo the size of a phone's picture, downloaded once, then read by picture caches started anew
        /// (nothing in memory): what a contact list shows after the app restarts.
        static func measurePictures(_ rounds: Int) async throws -> (
            kilobytes: Int, fromDisk: (p50: Double, p99: Double)
        ) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "locify-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            var noise = SystemRandomNumberGenerator()
            // Random bytes behind a PNG header: a photo that does not compress, ~300 KB like a phone's.
            let photo =
                Data(try Avatar.discPNG(background: "#1f5fbf", size: 64))
                + Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &noise) })
            let server = PhotoServer(photo: photo)
            let contact = StoredContact(
                json: [
                    "first_name": "Ada", "complete_name": "Ada Lovelace",
                    "information": [
                        "avatar": [
                            "source": "photo", "url": "https://locify.invalid/store/photos/1?v=1&expires=1&signature=s",
                        ]
                    ],
                ])
            _ = await AvatarCache(directory: directory, transport: server).picture(for: contact)
            let clock = ContinuousClock()
            var times: [Double] = []
            for _ in 0..<max(1, min(rounds, 200)) {
                let cache = AvatarCache(directory: directory, transport: server)
                let started = clock.now
                guard case .image = await cache.picture(for: contact) else {
                    throw ClientFailure("the kept photo was not read back")
                }
                times.append((clock.now - started).seconds * 1000)
            }
            times.sort()
            return (photo.count / 1024, (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)]))
        }

        /// Milliseconds of `rounds` runs of `body`: the median and the 99th percentile.
        static func measure(_ rounds: Int, _ body: () throws -> Void) throws -> (p50: Double, p99: Double) {
            let clock = ContinuousClock()
            var times: [Double] = []
            for _ in 0..<max(1, rounds) {
                let started = clock.now
                try body()
                times.append((clock.now - started).seconds * 1000)
            }
            times.sort()
            return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
        }
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Serves one photo, for the benchmark's picture cache.
private struct PhotoServer: HTTPTransport {
    let photo: Data

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "image/png"], body: photo)
    }
}
