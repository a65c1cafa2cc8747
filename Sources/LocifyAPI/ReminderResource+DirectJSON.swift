/// The reminder lists written straight to the output, as `ContactResource+DirectJSON` does for contacts:
/// a timeline or a month of ten thousand reminders would otherwise spend most of its time in a container
/// box per nested object. The bytes are the synthesised encoding's (`DirectJSONTests` compares them).
extension ReminderTimelineResource: DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws {
        writer.append(#"{"overdue":"#)
        // Each contact is written once and copied for its other reminders.
        var contacts = ContactBytes()
        overdue.writeJSON(to: writer, contacts: &contacts)
        writer.append(#","today":"#)
        today.writeJSON(to: writer, contacts: &contacts)
        writer.append(#","this_week":"#)
        thisWeek.writeJSON(to: writer, contacts: &contacts)
        writer.append(#","this_month":"#)
        thisMonth.writeJSON(to: writer, contacts: &contacts)
        writer.append(#","later":"#)
        later.writeJSON(to: writer, contacts: &contacts)
        writer.append("}")
    }

    /// Contacts already written, with their bytes, by id.
    struct ContactBytes {
        var written: [Int: (contact: ContactSummary, bytes: [UInt8])] = [:]

        mutating func write(_ contact: ContactSummary, to writer: JSONWriter) {
            if let known = written[contact.id], known.contact == contact {
                return writer.bytes.append(contentsOf: known.bytes)
            }
            let start = writer.bytes.count
            writer.append(#"{"id":"#)
            writer.writeInteger(contact.id)
            writer.append(#","name":"#)
            writer.writeString(contact.name)
            writer.append(#","avatar":"#)
            contact.avatar.writeJSON(to: writer)
            writer.append("}")
            written[contact.id] = (contact, Array(writer.bytes[start...]))
        }
    }
}

extension ReminderTimelineResource.Group {
    func writeJSON(to writer: JSONWriter, contacts: inout ReminderTimelineResource.ContactBytes) {
        writer.append(#"{"count":"#)
        writer.writeInteger(count)
        writer.append(#","items":["#)
        for (index, item) in items.enumerated() {
            if index > 0 { writer.append(",") }
            writer.append(#"{"reminder_id":"#)
            writer.writeInteger(item.reminderID)
            writer.append(#","title":"#)
            writer.writeString(item.title)
            writer.append(#","date":"#)
            writer.writeString(item.date)
            writer.append(#","frequency_type":"#)
            writer.writeString(item.frequencyType)
            writer.append(#","frequency_number":"#)
            writer.writeInteger(item.frequencyNumber)
            writer.append(#","contact":"#)
            contacts.write(item.contact, to: writer)
            writer.append("}")
        }
        writer.append(#"],"next_page":"#)
        if let nextPage { writer.writeString(nextPage) } else { writer.append("null") }
        writer.append("}")
    }
}

extension UpcomingReminderResource: DirectJSONWritable {
    /// A month of occurrences: each contact's JSON is written once and copied for its other reminders,
    /// since a contact is most of an occurrence's bytes and a busy month repeats the same few hundred.
    static func writeJSON(_ occurrences: [UpcomingReminderResource], to writer: JSONWriter) throws {
        var contactBytes: [Int: (contact: ContactShortResource, bytes: [UInt8])] = [:]
        writer.append("[")
        for (index, occurrence) in occurrences.enumerated() {
            if index > 0 { writer.append(",") }
            try occurrence.writeJSON(to: writer) { contact in
                if let known = contactBytes[contact.id], known.contact == contact {
                    writer.bytes.append(contentsOf: known.bytes)
                    return
                }
                let start = writer.bytes.count
                try contact.writeJSON(to: writer)
                contactBytes[contact.id] = (contact, Array(writer.bytes[start...]))
            }
        }
        writer.append("]")
    }

    func writeJSON(to writer: JSONWriter) throws {
        try writeJSON(to: writer) { try $0.writeJSON(to: writer) }
    }

    private func writeJSON(to writer: JSONWriter, contact writeContact: (ContactShortResource) throws -> Void)
        throws
    {
        writer.append(#"{"id":"#)
        writer.writeInteger(id)
        writer.append(#","reminder_id":"#)
        writer.writeInteger(reminderID)
        writer.append(#","object":"#)
        writer.writeString(object)
        writer.append(#","planned_date":"#)
        writer.writeString(plannedDate)
        writer.append(#","title":"#)
        writer.writeString(title)
        writer.append(#","description":"#)
        writer.writeOptional(description)
        writer.append(#","frequency_type":"#)
        writer.writeString(frequencyType)
        writer.append(#","frequency_number":"#)
        writer.writeInteger(frequencyNumber)
        writer.append(#","initial_date":"#)
        writer.writeString(initialDate)
        writer.append(#","delible":"#)
        writer.writeBool(delible)
        writer.append(#","account":{"id":"#)
        writer.writeInteger(account.id)
        writer.append(#"},"contact":"#)
        try writeContact(contact)
        writer.append(#","created_at":"#)
        writer.writeString(createdAt)
        writer.append(#","updated_at":"#)
        writer.writeString(updatedAt)
        writer.append("}")
    }
}
