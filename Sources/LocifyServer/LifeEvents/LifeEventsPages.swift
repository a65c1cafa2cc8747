import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let lifeEvent = FormName("life-event")
}

/// The fields of a life event's form: the one adding an event (`item` nil, with its yearly reminder) or the
/// one editing event `item`, filled with what was typed when that form was refused, else with `stored`.
struct LifeEventFormFields: Encodable {
    let type: FormField
    let date: FormField
    let name: FormField
    let note: FormField
    /// Only when adding: a change of the event leaves its reminder as it is.
    let reminder: FormField?

    init(stored: LifeEventFields?, item: Int?, today: CalendarDate, problem: FormProblem?) {
        let prefix = item.map { "life-event-\($0)" } ?? "new-life-event"
        func value(_ field: String, _ kept: String?) -> String? {
            problem?.typed(field, in: .lifeEvent, item: item) ?? kept
        }
        let chosen = value("life_event_type_id", stored.map { String($0.type.id) }) ?? ""
        type = FormField(
            "life_event_type_id", label: "What happened", control: .select,
            error: problem?.message(for: .lifeEvent, item: item), isRequired: true,
            options: [SelectOption(value: "", label: "Choose", isSelected: chosen.isEmpty)]
                + LifeEventType.all.map {
                    SelectOption(
                        value: String($0.id), label: "\($0.label) (\($0.category.label.lowercased()))",
                        isSelected: String($0.id) == chosen)
                }
        ).identified(as: "\(prefix)-type")
        date = FormField(
            "happened_at", label: "When", control: .date,
            value: value("happened_at", stored?.happenedOn.description) ?? today.description, isRequired: true
        ).identified(as: "\(prefix)-date")
        name = FormField(
            "name", label: "Title", value: value("name", stored?.name), hint: "Optional.",
            maxLength: LifeEventDraft.maximumNameLength
        ).identified(as: "\(prefix)-name")
        note = FormField(
            "note", label: "Note", control: .textarea, value: value("note", stored?.note),
            maxLength: LifeEventDraft.maximumNoteLength, rows: 2
        ).identified(as: "\(prefix)-note")
        reminder =
            item == nil
            ? FormField(
                "has_reminder", label: "Remind me every year", control: .checkbox, value: "1",
                isChecked: problem?.typed("has_reminder", in: .lifeEvent) != nil
            ).identified(as: "\(prefix)-reminder") : nil
    }
}

/// One life event as a contact page lists it, with its form for changes.
struct LifeEventLine: Encodable {
    let id: Int
    let title: String
    let kind: String
    let when: String
    let note: String?
    let editURL: String
    let fields: LifeEventFormFields
    let isEditing: Bool
    let deleteURL: String

    init(_ event: LifeEvent, today: CalendarDate, problem: FormProblem?) {
        id = event.id
        title = event.fields.title
        kind = event.fields.type.label
        when = event.fields.happenedOn.dayMonthYear
        note = event.fields.note
        editURL = LifeEventPaths.lifeEvent(event.id).path
        fields = LifeEventFormFields(stored: event.fields, item: event.id, today: today, problem: problem)
        isEditing = problem?.message(for: .lifeEvent, item: event.id) != nil
        deleteURL = LifeEventPaths.delete(event.id).path
    }
}

/// The contact page's life events, newest first, and the form for a new one.
struct ContactLifeEventsSection: Encodable {
    static let shownOnPage = 50

    let items: [LifeEventLine]
    let addURL: String
    let fields: LifeEventFormFields
    let isAdding: Bool

    init(contact: Contact, events: [LifeEvent], today: CalendarDate, problem: FormProblem?) {
        items = events.sorted { ($0.fields.happenedOn, $0.id) > ($1.fields.happenedOn, $1.id) }.map {
            LifeEventLine($0, today: today, problem: problem)
        }
        addURL = LifeEventPaths.contactLifeEvents(contact.id).path
        fields = LifeEventFormFields(stored: nil, item: nil, today: today, problem: problem)
        isAdding = problem?.message(for: .lifeEvent) != nil
    }
}
