import Foundation
import LocifyCore

/// What an import did: who came in, and each card or address left out with the reason.
struct ImportReport: Sendable, Equatable {
    struct Skipped: Sendable, Equatable {
        /// The card's 1-based position in the file.
        let record: Int
        let name: String?
        let reason: String

        var sentence: String {
            "Card \(record)\(name.map { " (\($0))" } ?? ""): \(reason)"
        }
    }

    var importedNames: [String] = []
    var importedAddresses = 0
    var skipped: [Skipped] = []

    var summary: String {
        let contacts = importedNames.count == 1 ? "1 contact" : "\(importedNames.count) contacts"
        let addresses = importedAddresses == 1 ? "1 address" : "\(importedAddresses) addresses"
        let left = skipped.isEmpty ? "" : "; \(skipped.count) left out"
        return "Imported \(contacts) with \(addresses)\(left)."
    }
}

/// Contacts in and out as vCards, through the same services the API and the web use, so an imported
/// contact is checked by the same rules and its addresses are geocoded like any other.
struct ContactInterchange {
    let contacts: ContactService
    let addresses: AddressService

    /// Creates a contact for each card. A card whose e-mail is already a contact's is left out, so
    /// importing the same file twice adds nobody twice; an address that breaks a rule is left out and
    /// its contact kept.
    func importVCards(_ text: String) async throws -> ImportReport {
        let (cards, issues) = VCardFormat.readNumbered(text)
        var report = ImportReport()
        report.skipped = issues.map { .init(record: $0.record, name: nil, reason: Self.describe($0.reason)) }
        var knownEmails = Set(try await contacts.emails().map { $0.lowercased() })
        for (record, card) in cards {
            let draft = card.contactDraft
            if let email = draft.email?.lowercased(), knownEmails.contains(email) {
                report.skipped.append(
                    .init(record: record, name: card.formattedName, reason: "already in your contacts (same e-mail)."))
                continue
            }
            let contact: Contact
            do {
                contact = try await contacts.create(draft)
            } catch let failure as ValidationFailure {
                report.skipped.append(
                    .init(record: record, name: card.formattedName, reason: failure.messages.joined(separator: " ")))
                continue
            }
            if let email = contact.fields.email { knownEmails.insert(email.lowercased()) }
            report.importedNames.append(contact.completeName)
            for (index, address) in card.addressDrafts.enumerated() {
                do {
                    _ = try await addresses.create(
                        contactID: contact.id, address,
                        coordinatesSent: address.latitude != nil && address.longitude != nil)
                    report.importedAddresses += 1
                } catch let failure as ValidationFailure {
                    report.skipped.append(
                        .init(
                            record: record, name: card.formattedName,
                            reason: "address \(index + 1) left out: \(failure.messages.joined(separator: " "))"))
                }
            }
        }
        report.skipped.sort { $0.record < $1.record }
        return report
    }

    /// Every contact, archived ones too, with its addresses, as one vCard 4.0 file.
    func exportVCards() async throws -> String {
        let all = try await contacts.all()
        return VCardFormat.write(try await contacts.aggregates(all).map { VCard($0) })
    }

    private static func describe(_ reason: String) -> String {
        reason == "no FN or N name" ? "the card has no name (FN or N), so there is nobody to add." : reason
    }
}
