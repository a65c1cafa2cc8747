import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let call = FormName("call")
}

/// One call as a contact page lists it.
struct CallLine: Encodable {
    let id: Int
    let when: String
    let whoCalled: String
    let content: String?
    let emotions: String?
    let deleteURL: String

    init(_ call: Call, contactName: String) {
        id = call.id
        when = MomentText.dayAndTime(call.fields.calledAt)
        whoCalled = call.fields.contactCalled ? "\(contactName) called" : "You called"
        content = call.fields.content
        emotions = call.fields.emotions.isEmpty ? nil : call.fields.emotions.map(\.name).joined(separator: ", ")
        deleteURL = CallPaths.delete(call.id).path
    }
}

/// The contact page's calls, newest first, and the form for a new one.
struct ContactCallsSection: Encodable {
    /// The newest this many calls show on the contact page.
    static let shownOnPage = 50

    let items: [CallLine]
    let addURL: String
    let dateField: FormField
    let timeField: FormField
    let contentField: FormField
    let contactCalledField: FormField
    let isAdding: Bool

    init(contact: Contact, calls: [Call], today: CalendarDate, problem: FormProblem?) {
        items = calls.map { CallLine($0, contactName: contact.fields.firstName) }
        addURL = CallPaths.contactCalls(contact.id).path
        let error = problem?.message(for: .call)
        isAdding = error != nil
        dateField = FormField(
            "called_on", label: "Day of the call", control: .date,
            value: problem?.typed("called_on", in: .call) ?? today.description, error: error, isRequired: true
        ).identified(as: "new-call-day")
        timeField = FormField(
            "called_at_time", label: "Time", control: .time, value: problem?.typed("called_at_time", in: .call),
            hint: "Optional."
        ).identified(as: "new-call-time")
        contentField = FormField(
            "content", label: "What you talked about", control: .textarea, value: problem?.typed("content", in: .call),
            maxLength: CallDraft.maximumContentLength, rows: 3
        ).identified(as: "new-call-content")
        contactCalledField = FormField(
            "contact_called", label: "\(contact.fields.firstName) called me", control: .checkbox, value: "1",
            isChecked: problem?.typed("contact_called", in: .call) != nil
        ).identified(as: "new-call-contact-called")
    }
}
