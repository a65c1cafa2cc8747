import ArgumentParser
import Foundation
import LocifyServer

extension Locify {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring data into an account.", subcommands: [Contacts.self])

        struct Contacts: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
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
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take data out of an account.", subcommands: [Contacts.self])

        struct Contacts: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
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
    }
}
