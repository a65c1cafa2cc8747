import ArgumentParser
import Foundation
import LocifyServer

extension Locify {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Bring data into an account.", subcommands: [Contacts.self, Places.self, Account.self])

        struct Contacts: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "contacts",
                abstract: "Import contacts from a vCard file (3.0 or 4.0), with their addresses and birthdays.",
                discussion: """
                    Contacts whose e-mail the account already has are left out, so importing a file twice adds \
                    nobody twice. Prints what was imported and each card left out, with the reason. Addresses \
                    without coordinates are geocoded by the server's background workers when it runs.
                    """)

            @Argument(help: "The vCard file.", completion: .file(extensions: ["vcf"]))
            var file: String

            @Option(help: "Email of the account to import into.")
            var email: String

            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let url = URL(fileURLWithPath: file)
                guard let data = try? Data(contentsOf: url) else {
                    throw ValidationError("Cannot read \(file).")
                }
                let text = String(decoding: data, as: UTF8.self)
                let lines = try await storage.withApplication { app in
                    try await LocifyApp.importContacts(in: app, email: email, vCardText: text)
                }
                print(lines.joined(separator: "\n"))
            }
        }

        struct Places: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "places",
                abstract: "Import places from GPX, KML, KMZ, GeoJSON, CSV or a Google Takeout file.",
                discussion: """
                    The format is recognised from the content. A place already saved (the same id from the same \
                    app, or the same name within 25 m) is merged rather than added twice; records without a \
                    position are placed through the geocoder by their address. Each place goes into the category \
                    the file names (made when missing), or into --category for all. Prints what was created, \
                    merged and left out, with the reason for each; on a terminal a progress bar shows the way.
                    """)

            @Argument(help: "The file to import.", completion: .file(extensions: ["gpx", "kml", "kmz", "json", "csv"]))
            var file: String

            @Option(help: "Email of the account to import into.")
            var email: String

            @Option(help: "Put every place in this category (made when the account lacks it).")
            var category: String?

            @Flag(name: .customLong("dry-run"), help: "Report what would happen without saving anything.")
            var dryRun = false

            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let url = URL(fileURLWithPath: file)
                guard let data = try? Data(contentsOf: url) else {
                    throw ValidationError("Cannot read \(file).")
                }
                let bar = ProgressBar()
                let lines = try await storage.withApplication { [category, email, dryRun] app in
                    try await LocifyApp.importPlaces(
                        in: app, email: email, file: data, fileName: url.lastPathComponent, categoryName: category,
                        dryRun: dryRun
                    ) { progress in
                        bar.show(
                            progress.stage == "checking" ? "Checking" : "Saving", progress.done, of: progress.total)
                    }
                }
                bar.finish()
                print(lines.joined(separator: "\n"))
            }
        }

        struct Account: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "account",
                abstract: "Import a whole account's export (locify export account, or Settings → Export everything).",
                discussion: """
                    Every contact, place, reminder, note, photo, document and the rest come in through the same \
                    checks as the API's; what the account already has stays. A record this server refuses is left \
                    out and named, with what belongs to it. Records imported before (the same uuid) are not added \
                    again, so an import that stopped can simply be run again. Prints a line a kind of record; on a \
                    terminal a progress bar shows the way.
                    """)

            @Argument(help: "The export (locify-account-….json).", completion: .file(extensions: ["json"]))
            var file: String

            @Option(help: "Email of the account to import into.")
            var email: String

            @OptionGroup var storage: StorageOptions

            func run() async throws {
                guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
                    throw ValidationError("Cannot read \(file).")
                }
                let bar = ProgressBar()
                let lines = try await storage.withApplication { [email] app in
                    try await LocifyApp.importAccount(in: app, email: email, file: data) { done, total in
                        bar.show("Importing", done, of: total)
                    }
                }
                bar.finish()
                print(lines.joined(separator: "\n"))
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Take data out of an account.", subcommands: [Contacts.self, Places.self, Account.self])

        struct Contacts: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "contacts",
                abstract: "Write every contact, with its addresses, as one vCard 4.0 file.")

            @Option(help: "Email of the account to export.")
            var email: String

            @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
            var output: String?

            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let text = try await storage.withApplication { app in
                    try await LocifyApp.exportContacts(in: app, email: email)
                }
                if let output {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } else {
                    print(text, terminator: "")
                }
            }
        }

        struct Places: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "places",
                abstract: "Write the account's places as GPX, KML, KMZ, GeoJSON or CSV.",
                discussion: """
                    Names, positions, addresses, notes, categories and favourites are kept, so importing the file \
                    again (here or in another app) brings the same places back. Without --output the file goes \
                    to standard output.
                    """)

            @Option(help: "Email of the account to export.")
            var email: String

            @Option(help: "gpx, kml, kmz, geojson or csv.")
            var format: String

            @Option(help: "Only the places of this category.")
            var category: String?

            @Flag(help: "Only the favourite places.")
            var favorites = false

            @Option(
                name: .shortAndLong,
                help: "Write to this file, or into this directory under a dated name (locify-places-YYYY-MM-DD.gpx).")
            var output: String?

            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let exported = try await storage.withApplication { [email, format, category, favorites] app in
                    try await LocifyApp.exportPlaces(
                        in: app, email: email, format: format, categoryName: category, favoritesOnly: favorites)
                }
                guard let output else {
                    FileHandle.standardOutput.write(exported.file)
                    return
                }
                var target = URL(fileURLWithPath: output)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
                    target.appendPathComponent(exported.fileName)
                }
                try exported.file.write(to: target, options: .atomic)
                FileHandle.standardError.write(
                    Data("Wrote \(exported.count) place\(exported.count == 1 ? "" : "s") to \(target.path).\n".utf8))
            }
        }

        struct Account: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "account",
                abstract: "Write everything the account holds as one JSON file, to import into another Locify server.",
                discussion: """
                    The file holds each record as the API shows it, photos' and documents' bytes included; \
                    `locify import account` or Settings → Import and export on any Locify server brings it back. \
                    Without --output the file goes to standard output.
                    """)

            @Option(help: "Email of the account to export.")
            var email: String

            @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
            var output: String?

            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let archive = try await storage.withApplication { [email] app in
                    try await LocifyApp.exportAccount(in: app, email: email)
                }
                guard let output else {
                    FileHandle.standardOutput.write(archive)
                    return
                }
                try archive.write(to: URL(fileURLWithPath: output), options: .atomic)
                FileHandle.standardError.write(
                    Data("Wrote \(archive.count.formatted()) bytes to \(output).\n".utf8))
            }
        }
    }
}

/// A one-line progress bar on standard error, drawn only when standard error is a terminal (a script
/// reading the output gets the report alone).
final class ProgressBar: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let width = 30

    func show(_ label: String, _ done: Int, of total: Int) {
        guard isTerminal, total > 0 else { return }
        let filled = min(width, width * done / total)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = 100 * done / total
        FileHandle.standardError.write(
            Data(
                "\r\(label.padding(toLength: 9, withPad: " ", startingAt: 0)) [\(bar)] \(done)/\(total) \(percent)%"
                    .utf8))
    }

    func finish() {
        guard isTerminal else { return }
        // Clears the bar's line, so the report starts on a clean one.
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
