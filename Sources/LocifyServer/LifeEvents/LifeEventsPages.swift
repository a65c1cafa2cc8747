import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let lifeEvent = FormName("life-event")
}

/// One life event as a contact page lists it.
struct LifeEventLine: Encodable {
    let id: Int
    let title: String
    let kind: String
    let when: String
    let note: String?
    let deleteURL: String

    init(_ event: LifeEvent) {
        id = event.id
        title = event.fields.title
        kind = event.fields.type.label
        when = event.fields.happenedOn.dayMonthYear
        note = event.fields.note
        deleteURL = LifeEventPaths.delete(event.id).path
    }
}

/// The contact page's life events, newest first, and the form for a new one.
struct ContactLifeEventsSection: Encodable {
    static let shownOnPage = 50

    let items: [LifeEventLine]
    let addURL: String
    let typeField: FormField
    let dateField: FormField
    let nameField: FormField
    let noteField: FormField
    let reminderField: FormField
    let isAdding: Bool

    init(contact: Contact, events: [LifeEvent], today: CalendarDate, problem: FormProblem?) {
        items = events.sorted { ($0.fields.happenedOn, $0.id) > ($1.fields.happenedOn, $1.id) }.map(LifeEventLine.init)
        addURL = LifeEventPaths.contactLifeEvents(contact.id).path
        let error = problem?.message(for: .lifeEvent)
        isAdding = error != nil
        let chosen = problem?.typed("life_event_type_id", in: .lifeEvent) ?? ""
        typeField = FormField(
            "life_event_type_id", label: "What happened", control: .select, error: error, isRequired: true,
            options: [SelectOption(value: "", label: "Choose", isSelected: chosen.isEmpty)]
                + LifeEventType.all.map {
                    SelectOption(
                        value: String($0.id), label: "\($0.label) (\($0.category.label.lowercased()))",
                        isSelected: String($0.id) == chosen)
                }
        ).identified(as: "new-life-event-type")
        dateField = FormField(
            "happened_at", label: "When", control: .date,
            value: problem?.typed("happened_at", in: .lifeEvent) ?? today.description, isRequired: true
        ).identified(as: "new-life-event-date")
        nameField = FormField(
            "name", label: "Title", value: problem?.typed("name", in: .lifeEvent), hint: "Optional.",
            maxLength: LifeEventDraft.maximumNameLength
        ).identified(as: "new-life-event-name")
        noteField = FormField(
            "note", label: "Note", control: .textarea, value: problem?.typed("note", in: .lifeEvent),
            maxLength: LifeEventDraft.maximumNoteLength, rows: 2
        ).identified(as: "new-life-event-note")
        reminderField = FormField(
            "has_reminder", label: "Remind me every year", control: .checkbox, value: "1",
            isChecked: problem?.typed("has_reminder", in: .lifeEvent) != nil
        ).identified(as: "new-life-event-reminder")
    }
}
