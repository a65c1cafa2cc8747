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
    let editURL: String
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
        editURL = ActivityPaths.edit(activity.id).path
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

/// `/activities/new` and `/activities/{id}/edit`: pages of their own, so the journal does not carry a list
/// of every contact.
enum ActivityFormPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let formURL: String
        let cancelURL: String
        let submitLabel: String
        let summaryField: FormField
        let dateField: FormField
        let contactsField: FormField
        let typeField: FormField
        let descriptionField: FormField
    }

    struct Typed {
        var summary: String?
        var happenedAt: String?
        var contactIDs: [String]?
        var typeID: String?
        var description: String?

        init(
            summary: String? = nil, happenedAt: String? = nil, contactIDs: [String]? = nil, typeID: String? = nil,
            description: String? = nil
        ) {
            self.summary = summary
            self.happenedAt = happenedAt
            self.contactIDs = contactIDs
            self.typeID = typeID
            self.description = description
        }

        /// The stored activity, as its form shows it.
        init(_ fields: ActivityFields) {
            self.init(
                summary: fields.summary, happenedAt: fields.happenedOn.description,
                contactIDs: fields.attendeeIDs.map(String.init), typeID: fields.typeID.map(String.init),
                description: fields.description)
        }
    }

    /// The form for a new activity (`editing` nil; `?contact=` chooses who it was with) or for changing
    /// activity `editing`, filled with `typed`.
    static func context(
        _ request: Request, editing: Int? = nil, typed: Typed = Typed(), errors: FieldMessages = [:]
    ) async throws -> Context {
        let chosenContacts = Set(typed.contactIDs ?? request.queryParameters["contact"].map { [$0] } ?? [])
        // Archived contacts are offered only where the activity already has them.
        let contacts = try await request.contacts().allByName().filter {
            !$0.fields.isArchived || chosenContacts.contains(String($0.id))
        }
        let (types, kinds) = try await request.activityTypes().catalogue()
        let categories = Dictionary(uniqueKeysWithValues: kinds.map { ($0.id, $0.name) })
        let chosenType = typed.typeID ?? ""
        return Context(
            layout: LayoutContext(
                title: editing == nil ? "Add an activity" : "Change the activity", section: .reminders,
                session: request.pageSession),
            heading: editing == nil ? "Add an activity" : "Change the activity",
            formURL: editing.map { ActivityPaths.activity($0).path } ?? ActivityPaths.list.path,
            cancelURL: SitePaths.journal.path + (editing.map { "#activity-\($0)" } ?? "#activities"),
            submitLabel: editing == nil ? "Save activity" : "Save changes",
            summaryField: FormField(
                "summary", label: "What you did", value: typed.summary, errors: errors, isRequired: true,
                maxLength: ActivityDraft.maximumSummaryLength),
            dateField: FormField(
                "happened_at", label: "When", control: .date, value: typed.happenedAt ?? request.today.description,
                errors: errors, isRequired: true),
            contactsField: FormField(
                "contacts", label: "With", control: .select, errors: errors,
                hint: "One or more: hold Ctrl (⌘ on a Mac) to choose several.", isRequired: true,
                options: contacts.map {
                    SelectOption(
                        value: String($0.id), label: $0.completeName,
                        isSelected: chosenContacts.contains(String($0.id)))
                },
                isMultiple: true),
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
