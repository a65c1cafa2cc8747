import LocifyCore
import Vapor

/// The reminder form as the browser sends it: text throughout, checked by `ReminderDraft`.
struct ReminderForm: Content {
    var contactID: String?
    var title: String?
    var description: String?
    var initialDate: String?
    var frequencyType: String?
    var frequencyNumber: String?
    /// Where to go after saving: the timeline or the contact's page.
    var returnTo: String?

    enum CodingKeys: String, CodingKey {
        case contactID = "contact_id"
        case title, description
        case initialDate = "initial_date"
        case frequencyType = "frequency_type"
        case frequencyNumber = "frequency_number"
        case returnTo = "return_to"
    }

    /// A new reminder: today, once.
    init(today: CalendarDate) {
        initialDate = today.description
        frequencyType = Recurrence.once.frequencyType
        frequencyNumber = "1"
    }

    init(_ reminder: Reminder) {
        contactID = String(reminder.contactID)
        title = reminder.fields.title
        description = reminder.fields.description
        initialDate = reminder.fields.schedule.initialDate.description
        frequencyType = reminder.fields.schedule.recurrence.frequencyType
        frequencyNumber = String(reminder.fields.schedule.recurrence.frequencyNumber)
    }

    var draft: ReminderDraft {
        var number: Int?
        if let text = frequencyNumber?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            // A number that is not one is reported by the draft's range check, with the other problems.
            number = Int(text) ?? 0
        }
        return ReminderDraft(
            title: title, description: description, initialDate: initialDate, frequencyType: frequencyType,
            frequencyNumber: number)
    }

    /// The chosen contact, or the problem with it.
    func contact() -> (Int?, [FieldError]) {
        guard let text = contactID?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return (nil, []) }
        guard let id = Int(text) else {
            return (nil, [FieldError(field: "contact_id", message: "Choose the contact this reminder is about.")])
        }
        return (id, [])
    }

    var destination: String {
        SitePath.localPath(returnTo) ?? SitePaths.reminders.path
    }
}

enum ReminderFormPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let actionURL: String
        let cancelURL: String
        let returnTo: FormField?
        let contactField: FormField?
        let contactName: String?
        /// The contact a new reminder from that contact's page is for, sent back unseen.
        let fixedContactField: FormField?
        let fields: [FormField]
        let repeatFields: [FormField]
        let descriptionField: FormField
        let submitLabel: String
        let offline: OfflineForm

        /// `fixedContact` is the contact a new reminder is for when it comes from that contact's page;
        /// otherwise `contacts` are offered to choose from.
        init(
            form: ReminderForm, errors: FieldMessages, fixedContact: Contact?, contacts: [Contact], editing: Reminder?,
            session: PageSession
        ) {
            heading = editing == nil ? "New reminder" : "Edit reminder"
            layout = LayoutContext(title: heading, section: .reminders, session: session)
            actionURL = editing.map { ReminderPaths.edit($0.id).path } ?? SitePaths.reminders.path
            let back = SitePath.localPath(form.returnTo)
            returnTo = back.map { FormField.hidden("return_to", value: $0) }
            cancelURL = back ?? SitePaths.reminders.path
            let chosen = form.contactID ?? ""
            contactName = fixedContact?.completeName
            fixedContactField = fixedContact.map { FormField.hidden("contact_id", value: String($0.id)) }
            contactField =
                fixedContact != nil
                ? nil
                : FormField(
                    "contact_id", label: "Contact", control: .select, errors: errors,
                    options: [SelectOption(value: "", label: "Choose a contact", isSelected: chosen.isEmpty)]
                        + contacts.map {
                            SelectOption(
                                value: String($0.id), label: $0.completeName, isSelected: String($0.id) == chosen)
                        }, filterPlaceholder: "Type to find a contact")
            fields = [
                FormField(
                    "title", label: "Title", value: form.title, errors: errors,
                    hint: "What to remember, e.g. “Call about the new job”.", isRequired: true,
                    maxLength: ReminderDraft.maximumTitleLength),
                FormField(
                    "initial_date", label: "Date", control: .date, value: form.initialDate, errors: errors,
                    hint: "The first time; a repeating reminder comes back from there.", isRequired: true),
            ]
            let type = form.frequencyType ?? Recurrence.once.frequencyType
            let labels = ["one_time": "One time", "week": "Weeks", "month": "Months", "year": "Years"]
            repeatFields = [
                FormField(
                    "frequency_type", label: "Repeat", control: .select, errors: errors,
                    options: ReminderDraft.frequencyTypes.map {
                        SelectOption(value: $0, label: labels[$0] ?? $0, isSelected: $0 == type)
                    }),
                FormField(
                    "frequency_number", label: "Every", control: .number, value: form.frequencyNumber, errors: errors,
                    hint: "Every 1, 2, 3… weeks, months or years; ignored for one time.", inputMode: "numeric",
                    size: 4,
                    // A one-time reminder has no "every": the page's script hides the field for it.
                    dataAttributes: [.init(name: "shown-unless", value: "frequency_type=one_time")]),
            ]
            descriptionField = FormField(
                "description", label: "Notes (optional)", control: .textarea, value: form.description,
                errors: errors, maxLength: ReminderDraft.maximumDescriptionLength)
            submitLabel = editing == nil ? "Add reminder" : "Save reminder"
            let summary = [heading, contactName].compactMap { $0 }.joined(separator: " for ")
            offline = OfflineForm(
                editing == nil ? .create : .update, of: .reminder, id: editing?.id, summary: summary, then: cancelURL)
        }
    }
}

/// What can be done to a reminder where it is listed (the timeline, a contact's page), each form coming
/// back to `returnTo`.
struct ReminderActions: Encodable {
    let editURL: String
    /// nil for a birthday's reminder, which goes with the birthday.
    let deleteURL: String?
    /// Only a one-time reminder not yet done can be marked done.
    let doneURL: String?
    let returnTo: FormField

    init(_ reminder: ReminderOutline, returnTo: String) {
        let query = [("return_to", Optional(returnTo))]
        // A birthday reminder is changed through the birthday.
        editURL =
            reminder.isDelible
            ? ReminderPaths.edit(reminder.id).path(query: query) : ContactPaths.edit(reminder.contactID).path
        deleteURL = reminder.isDelible ? ReminderPaths.delete(reminder.id).path(query: query) : nil
        let isOpenOnce = reminder.schedule.recurrence == .once && reminder.doneAt == nil
        doneURL = isOpenOnce ? ReminderPaths.done(reminder.id).path : nil
        self.returnTo = .hidden("return_to", value: returnTo)
    }
}

/// The Reminders page: the timeline, each group with its count.
enum RemindersPage {
    struct Item: Encodable {
        let title: String
        let avatar: AvatarView?
        let contactName: String
        let contactURL: String
        let when: String
        let repeats: String
        let actions: ReminderActions
    }

    struct Group: Encodable {
        let id: String
        let heading: String
        let items: [Item]
        let count: Int
        let isOverdue: Bool
        /// How many more there are than shown.
        let hidden: Int
    }

    /// Each group shows this many until "Show all" is asked for: a page of thousands is neither fast
    /// nor readable, and the nearest ones are what a person looks for.
    static let shownPerGroup = 100

    struct Context: Encodable {
        let layout: LayoutContext
        let groups: [Group]
        let total: Int
        let newURL: String
        let tasksURL = SitePaths.tasks.path
        let journalURL = SitePaths.journal.path
        let settingsURL: String
        let showAllURL: String?

        init(
            timeline: Timeline<Int>, reminders: [ReminderOutline], contacts: [Int: Contact], today: CalendarDate,
            showsAll: Bool, session: PageSession, pictureURL: (Contact) -> String? = { _ in nil }
        ) {
            layout = LayoutContext(title: "Reminders", section: .reminders, session: session)
            let back = SitePaths.reminders.path(query: [("all", showsAll ? "1" : nil)])
            func item(_ entry: Timeline<Int>.Entry) -> Item {
                let reminder = reminders[entry.item]
                let days = entry.date.dayNumber - today.dayNumber
                let relative =
                    switch days {
                    case 0: "today"
                    case 1: "tomorrow"
                    case -1: "yesterday"
                    case ..<0: "\(-days) days ago"
                    default: "in \(days) days"
                    }
                let contact = contacts[reminder.contactID]
                return Item(
                    title: reminder.title,
                    avatar: contact.map { AvatarView($0, imageURL: pictureURL($0), size: .line) },
                    contactName: contacts[reminder.contactID]?.completeName ?? "A contact",
                    contactURL: ContactPaths.contact(reminder.contactID).path,
                    when: "\(entry.date.longDescription) (\(relative))",
                    repeats: reminder.schedule.recurrence.words, actions: ReminderActions(reminder, returnTo: back))
            }
            let parts: [(String, String, [Timeline<Int>.Entry], Bool)] = [
                ("overdue", "Overdue", timeline.overdue, true), ("today", "Today", timeline.today, false),
                ("this-week", "This week", timeline.thisWeek, false),
                ("this-month", "Later this month", timeline.thisMonth, false),
                ("later", "Later", timeline.later, false),
            ]
            let limit = showsAll ? Int.max : RemindersPage.shownPerGroup
            groups = parts.filter { !$0.2.isEmpty }.map { id, heading, entries, overdue in
                // Overdue ones are listed most recent first: last week's matters more than last year's.
                let ordered = overdue ? entries.reversed() : entries
                return Group(
                    id: id, heading: heading, items: ordered.prefix(limit).map(item), count: entries.count,
                    isOverdue: overdue, hidden: max(0, entries.count - limit))
            }
            total = groups.reduce(0) { $0 + $1.count }
            newURL = ReminderPaths.new.path(query: [("return_to", back)])
            settingsURL = SitePaths.settingsNotifications.path
            showAllURL = groups.contains { $0.hidden > 0 } ? SitePaths.reminders.path(query: [("all", "1")]) : nil
        }
    }
}

enum DeleteReminderPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let title: String
        let contactName: String
        let deleteURL: String
        let cancelURL: String
        let returnTo: FormField?
        let offline: OfflineForm

        init(reminder: Reminder, contact: Contact, returnTo: String?, session: PageSession) {
            layout = LayoutContext(title: "Delete reminder", section: .reminders, session: session)
            title = reminder.fields.title
            contactName = contact.completeName
            deleteURL = ReminderPaths.delete(reminder.id).path
            self.returnTo = returnTo.map { FormField.hidden("return_to", value: $0) }
            cancelURL = returnTo ?? SitePaths.reminders.path
            offline = OfflineForm(
                .delete, of: .reminder, id: reminder.id,
                summary: "Deleting the reminder “\(reminder.fields.title)” of \(contact.completeName)", then: cancelURL)
        }
    }
}
