import Foundation
import LocifyCore
import Vapor

/// One activity as the journal page lists it: what, when, with whom (each linked).
struct ActivityLine: Encodable {
    struct Attendee: Encodable {
        let name: String
        let url: String
    }

    let id: Int
    let summary: String
    let when: String
    let kind: String?
    let description: String?
    let attendees: [Attendee]
    let deleteURL: String

    init(_ activity: Activity, types: [Int: ActivityType], contacts: [Int: Contact]) {
        id = activity.id
        summary = activity.fields.summary
        when = activity.fields.happenedOn.dayMonthYear
        kind = activity.fields.typeID.flatMap { types[$0] }?.name
        description = activity.fields.description
        attendees = activity.fields.attendeeIDs.compactMap { contacts[$0] }.map {
            Attendee(name: $0.completeName, url: ContactPaths.contact($0.id).path)
        }
        deleteURL = ActivityPaths.delete(activity.id).path
    }

    /// The newest activities with what they need to show, for a page that lists them.
    static func newest(_ request: Request, limit: Int) async throws -> (lines: [ActivityLine], total: Int) {
        let (activities, window) = try await request.activities().page(
            contactID: nil, sort: ListSort(TimestampSortField.createdAt, descending: true),
            page: PageSelection(page: 1, limit: limit))
        let types = Dictionary(uniqueKeysWithValues: try await request.activityTypes().types().map { ($0.id, $0) })
        let contacts = try await request.contacts().contacts(activities.flatMap(\.fields.attendeeIDs))
        return (activities.map { ActivityLine($0, types: types, contacts: contacts) }, window.total)
    }
}

/// `/activities/new`: a page of its own, so the journal does not carry a list of every contact.
enum NewActivityPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let formURL: String
        let cancelURL: String
        let summaryField: FormField
        let dateField: FormField
        let contactField: FormField
        let typeField: FormField
        let descriptionField: FormField
    }

    struct Typed {
        var summary: String?
        var happenedAt: String?
        var contactID: String?
        var typeID: String?
        var description: String?
    }

    static func context(_ request: Request, typed: Typed = Typed(), errors: FieldMessages = [:]) async throws
        -> Context
    {
        let contacts = try await request.contacts().allByName().filter { !$0.fields.isArchived }
        let (types, kinds) = try await request.activityTypes().catalogue()
        let categories = Dictionary(uniqueKeysWithValues: kinds.map { ($0.id, $0.name) })
        let chosenContact = typed.contactID ?? request.queryParameters["contact"] ?? ""
        let chosenType = typed.typeID ?? ""
        return Context(
            layout: LayoutContext(title: "Add an activity", section: .reminders, session: request.pageSession),
            formURL: ActivityPaths.list.path, cancelURL: SitePaths.journal.path + "#activities",
            summaryField: FormField(
                "summary", label: "What you did", value: typed.summary, errors: errors, isRequired: true,
                maxLength: ActivityDraft.maximumSummaryLength),
            dateField: FormField(
                "happened_at", label: "When", control: .date, value: typed.happenedAt ?? request.today.description,
                errors: errors, isRequired: true),
            contactField: FormField(
                "contacts", label: "With", control: .select, errors: errors, isRequired: true,
                options: [SelectOption(value: "", label: "Choose a contact", isSelected: chosenContact.isEmpty)]
                    + contacts.map {
                        SelectOption(
                            value: String($0.id), label: $0.completeName, isSelected: String($0.id) == chosenContact)
                    },
                filterPlaceholder: "Type to find a contact"),
            typeField: FormField(
                "activity_type_id", label: "Kind", control: .select, errors: errors,
                options: [SelectOption(value: "", label: "None", isSelected: chosenType.isEmpty)]
                    + types.map {
                        SelectOption(
                            value: String($0.id), label: "\($0.name) (\(categories[$0.categoryID] ?? ""))",
                            isSelected: String($0.id) == chosenType)
                    }),
            descriptionField: FormField(
                "description", label: "Notes", control: .textarea, value: typed.description, errors: errors,
                maxLength: ActivityDraft.maximumDescriptionLength, rows: 3))
    }
}
