import LocifyAPI

/// What the store keeps of a record the server sent: all of it, fields this version does not know
/// included, less its nulls, the copies of other records it carries and what Core makes on the device. Those are
/// most of a record's size (an address carries its whole contact, a contact its addresses, each
/// address six maps links), and keeping them would put each contact in the store three times.
enum StoredJSON {
    /// Members that are other records, kept as records of their own: a contact's `addresses` and
    /// `tags` (the feed brings each), and the `contact` a child record carries (named by its `contact_id`).
    /// Maps links and share text are made by Core (`mapLink(in:)`, `shareText`).
    static func kept(_ record: JSONValue, type: String) -> JSONValue {
        guard var members = withoutNulls(record).object else { return record }
        members["map_links"] = nil
        members["share_text"] = nil
        if type == "contact" {
            members["addresses"] = nil
            members["tags"] = nil
        } else if let contact = members["contact"], contact["object"]?.string == "contact",
            let contactID = contact["id"]
        {
            if members["contact_id"] == nil { members["contact_id"] = contactID }
            members["contact"] = nil
        }
        return .object(members)
    }

    /// A null and a member left out read the same (`json["nickname"]?.string` is nil either way), and a
    /// contact's unset dates, career and the like are a third of it.
    private static func withoutNulls(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var kept: [String: JSONValue] = [:]
            for (key, member) in members where member != .null { kept[key] = withoutNulls(member) }
            return .object(kept)
        case .array(let values): return .array(values.map(withoutNulls))
        default: return value
        }
    }
}
