import Foundation
import LocifyAPI

/// A change waiting in the outbox, laid over the record as the server last sent it, so the device shows
/// what the person did at once. The server decides what the record finally is (the next pull replaces
/// this), so only what a screen shows needs to be right here.
enum LocalEdit {
    /// Push fields kept elsewhere than under their own name in the record's JSON.
    private static let paths: [String: [String: [String]]] = [
        "contact": ["job": ["information", "career", "job"], "company": ["information", "career", "company"]]
    ]

    static func applying(_ mutation: Mutation, to record: JSONValue?) -> JSONValue? {
        switch mutation.operation {
        case .delete:
            return nil
        case .update:
            guard let record else { return nil }
            return applying(mutation.fields, type: mutation.type, to: record)
        case .create:
            let start = record ?? .object(["uuid": .string(mutation.uuid), "object": .string(mutation.type)])
            return applying(mutation.fields, type: mutation.type, to: start)
        }
    }

    private static func applying(_ fields: [String: JSONValue], type: String, to record: JSONValue) -> JSONValue {
        var record = record
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            let path = paths[type]?[name] ?? [name]
            record = record.setting(value, at: path[...])
        }
        if type == "contact", fields["first_name"] != nil || fields["last_name"] != nil {
            record = record.setting(.string(StoredContact.composedName(in: record)), at: ["complete_name"])
        }
        return record
    }
}
