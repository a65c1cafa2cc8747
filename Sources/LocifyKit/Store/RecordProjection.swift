import Foundation
import LocifyAPI
import LocifyCore

/// The columns the store reads lists by, taken from a record's JSON: a list, a search or "near here" reads
/// them from indexes instead of decoding thousands of records.
struct RecordProjection: Equatable {
    var title: String?
    var searchKey: String?
    var sortKey: String?
    var parentID: Int?
    var parentUUID: String?
    var latitude: Double?
    var longitude: Double?
    var flag: Bool

    /// The type whose records own records of `type` (an address's contact, a place's category).
    static func parentType(of type: String) -> String? {
        switch type {
        case "contact", "gender", "contactfieldtype", "tag", "company", "activitytypecategory", "activitytype",
            "activity", "category", "entry":
            nil
        case "place": "category"
        default: "contact"
        }
    }

    init(type: String, json: JSONValue) {
        let parent = Self.parentType(of: type)
        let parentKey = parent.map { "\($0)_id" }
        parentID = parentKey.flatMap { json[$0]?.int } ?? (parent == "contact" ? json["contact"]?["id"]?.int : nil)
        parentUUID = parent.flatMap { json["\($0)_uuid"]?.string?.lowercased() }
        latitude = json["latitude"]?.double
        longitude = json["longitude"]?.double
        flag = false
        switch type {
        case "contact":
            title = StoredContact.name(in: json)
            searchKey = TextFolding.searchKey([
                json["first_name"]?.string, json["last_name"]?.string, json["nickname"]?.string,
            ])
            sortKey = TextFolding.searchKey([title])
            flag = json["is_starred"]?.bool ?? false
        case "place":
            title = json["name"]?.string
            searchKey = TextFolding.searchKey([title, json["address"]?.string])
            sortKey = TextFolding.searchKey([title])
            flag = json["is_favorite"]?.bool ?? false
        case "reminder":
            title = json["title"]?.string
            sortKey = json["next_expected_date"]?.string ?? json["initial_date"]?.string
        case "address":
            let lines =
                (json["formatted"].flatMap { value -> [String]? in
                    guard case .array(let lines) = value else { return nil }
                    return lines.compactMap(\.string)
                }) ?? [json["street"]?.string, json["city"]?.string].compactMap { $0 }
            title = lines.joined(separator: ", ")
            sortKey = title.map { TextFolding.searchKey([$0]) }
        default:
            title = json["name"]?.string ?? json["title"]?.string ?? json["complete_name"]?.string
            sortKey = title.map { TextFolding.searchKey([$0]) }
        }
    }
}
