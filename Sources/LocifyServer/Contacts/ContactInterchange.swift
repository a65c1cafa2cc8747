import Foundation
import LocifyCore
import NIOPosix

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
    /// E-mails, phone numbers and accounts.
    var importedFields = 0

    var skipped: [Skipped] = []

    var summary: String {
        let contacts = importedNames.count == 1 ? "1 contact" : "\(importedNames.count) contacts"
        let addresses = importedAddresses == 1 ? "1 address" : "\(importedAddresses) addresses"
        let fields =
            switch importedFields {
            case 0: ""
            case 1: " and 1 e-mail, phone number or account"
            default: " and \(importedFields) e-mails, phone numbers or accounts"
            }
        let left = skipped.isEmpty ? "" : "; \(skipped.count) left out"
        return "Imported \(contacts) with \(addresses)\(fields)\(left)."
    }
}

/// Contacts in and out as vCards, through the same services the API and the web use, so an imported
/// contact is checked by the same rules and its addresses are geocoded like any other.
struct ContactInterchange {
    let contacts: ContactService
    let contactFields: ContactFieldService
    let addresses: AddressService
    /// Where the file is read: a large vCard file is too long a parse for an event loop.
    let cpuWork: NIOThreadPool

    /// Creates a contact for each card, with its e-mails, phone numbers and the accounts a field kind
    /// recognises. A card with an e-mail that is already a contact's is left out, so importing the same
    /// file twice adds nobody twice; an address or a field that breaks a rule is left out and its
    /// contact kept.
    func importVCards(_ text: String) async throws -> ImportReport {
        let (cards, issues) = try await cpuWork.offloaded { VCardFormat.readNumbered(text) }
        var report = ImportReport()
        report.skipped = issues.map { .init(record: $0.record, name: nil, reason: Self.describe($0.reason)) }
        var knownEmails = try await contactFields.allEmails()
        let kinds = try await contactFields.types()
        for (record, card) in cards {
            func leaveOut(_ reason: String) {
                report.skipped.append(.init(record: record, name: card.formattedName, reason: reason))
            }
            let draft = card.contactDraft
            let emails = card.emails.map { EmailAddress.normalized($0.value) }
            if emails.contains(where: knownEmails.contains) {
                leaveOut("already in your contacts (same e-mail).")
                continue
            }
            let contact: Contact
            do {
                contact = try await contacts.create(draft)
            } catch let failure as ValidationFailure {
                leaveOut(failure.messages.joined(separator: " "))
                continue
            }
            knownEmails.formUnion(emails)
            report.importedNames.append(contact.completeName)
            let (fieldDrafts, leftOut) = card.contactFieldDrafts(kinds: kinds)
            for value in leftOut {
                leaveOut("“\(value)” left out: no kind of contact field has its protocol.")
            }
            let refused = try await contactFields.create(fieldDrafts, forContact: contact.id, kinds: kinds)
            report.importedFields += fieldDrafts.count - refused.count
            for (field, failure) in refused {
                leaveOut("“\(field.data.prefix(40))” left out: \(failure.messages.joined(separator: " "))")
            }

            for (index, address) in card.addressDrafts.enumerated() {
                do {
                    _ = try await addresses.create(
                        contactID: contact.id, address,
                        coordinatesSent: address.latitude != nil && address.longitude != nil)
                    report.importedAddresses += 1
                } catch let failure as ValidationFailure {
                    leaveOut("address \(index + 1) left out: \(failure.messages.joined(separator: " "))")
                }
            }
        }
        report.skipped.sort { $0.record < $1.record }
        if !report.importedNames.isEmpty {
            try await contacts.database.refreshPlannerStatistics(
                of: [ContactsTable.name, AddressesTable.name, ContactFieldsTable.name, RemindersTable.name])
        }
        return report
    }

    /// Every contact, archived ones too, with its addresses and fields, as one vCard 4.0 file.
    func exportVCards() async throws -> String {
        VCardFormat.write(
            try await vCards(of: try await contacts.all(), kinds: try await contactFields.types()).map(\.card))
    }

    /// Each contact as its vCard: names, work, birthday, addresses, fields and tags; three queries for
    /// any number of contacts. The file export and CardDAV's address book show the same cards; `kinds`
    /// are the account's kinds of field, which the caller has read.
    func vCards(of chosen: [Contact], kinds: [ContactFieldType]) async throws -> [(contact: Contact, card: VCard)] {
        guard !chosen.isEmpty else { return [] }
        let fields = Dictionary(
            grouping: try await contactFields.fields(ofContacts: chosen.map(\.id)), by: \.contactID)
        return try await contacts.aggregates(chosen).map {
            ($0.contact, VCard($0, contactFields: fields[$0.contact.id] ?? [], kinds: kinds))
        }
    }

    private static func describe(_ reason: String) -> String {
        reason == "no FN or N name" ? "the card has no name (FN or N), so there is nobody to add." : reason
    }
}
