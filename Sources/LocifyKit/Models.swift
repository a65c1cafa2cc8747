import Foundation
import LocifyAPI
import LocifyCore

/// What every record read from the store carries besides its own fields.
public struct RecordState: Sendable, Equatable {
    /// The server's id; nil for a record made on this device and not sent yet.
    public var id: Int?
    public var uuid: String
    /// The revision of the server's copy this device has; nil before the server has it.
    public var revision: Int?
    /// A change made on this device is waiting to be sent (what is shown includes it).
    public var isWaiting: Bool
}

/// A record read from the store: its identity and state, and its JSON whole.
public protocol StoredRecord: Sendable, Equatable, Identifiable where ID == String {
    var state: RecordState { get }
    /// The record as the server sent it (with any waiting change laid over), fields this SDK does not
    /// name included.
    var json: JSONValue { get }
}

extension StoredRecord {
    public var id: String { state.uuid }
}

public struct StoredContact: StoredRecord {
    public var state: RecordState
    public var firstName: String
    public var lastName: String?
    public var nickname: String?
    public var completeName: String
    public var description: String?
    public var isStarred: Bool
    public var job: String?
    public var company: String?
    /// `YYYY-MM-DD` (a year-less birthday has the server's placeholder year); nil when unknown.
    public var birthdate: String?
    public var json: JSONValue

    /// A contact from its JSON as a route or the feed answers it (previews, a record read elsewhere).
    public init(json: JSONValue) {
        self.init(
            state: RecordState(
                id: json["id"]?.int, uuid: json["uuid"]?.string?.lowercased() ?? "", revision: nil, isWaiting: false),
            json: json)
    }

    init(state: RecordState, json: JSONValue) {
        self.state = state
        self.json = json
        firstName = json["first_name"]?.string ?? ""
        lastName = json["last_name"]?.string
        nickname = json["nickname"]?.string
        completeName = Self.name(in: json)
        description = json["description"]?.string
        isStarred = json["is_starred"]?.bool ?? false
        job = json.value(at: ["information", "career", "job"])?.string
        company = json.value(at: ["information", "career", "company"])?.string
        birthdate = json.value(at: ["information", "dates", "birthdate", "date"])?.string.map { String($0.prefix(10)) }
    }

    /// The name a contact's JSON shows: the server's `complete_name`, else its names joined as the server joins them.
    static func name(in json: JSONValue) -> String {
        json["complete_name"]?.string ?? composedName(in: json)
    }

    static func composedName(in json: JSONValue) -> String {
        [json["first_name"]?.string, json["last_name"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

public struct StoredAddress: StoredRecord {
    public var state: RecordState
    /// The address as Core knows it (its label is the address's `name`): `postalLines`, `mapLink` and the
    /// rest write and link it by Core's rules.
    public var postalAddress: PostalAddress
    public var json: JSONValue

    init(state: RecordState, json: JSONValue) {
        self.state = state
        self.json = json
        var coordinate: Coordinate?
        if let latitude = json["latitude"]?.double, let longitude = json["longitude"]?.double {
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        let country = json["country"]?.string ?? json["country"]?["iso"]?.string ?? json["country"]?["id"]?.string
        postalAddress = PostalAddress(
            label: json["name"]?.string, street: json["street"]?.string, city: json["city"]?.string,
            province: json["province"]?.string, postalCode: json["postal_code"]?.string,
            countryCode: country?.uppercased(), coordinate: coordinate)
    }
}

public struct StoredPlace: StoredRecord {
    public var state: RecordState
    public var name: String
    public var coordinate: Coordinate
    public var address: String?
    public var notes: String?
    public var categoryID: Int?
    public var isFavorite: Bool
    /// 1 to 5 stars; nil for none.
    public var rating: Int?
    /// Metres from the point a "near" read was asked around; nil for other reads.
    public var distance: Double?
    public var json: JSONValue

    init(state: RecordState, json: JSONValue) {
        self.state = state
        self.json = json
        name = json["name"]?.string ?? ""
        coordinate = Coordinate(latitude: json["latitude"]?.double ?? 0, longitude: json["longitude"]?.double ?? 0)
        address = json["address"]?.string
        notes = json["notes"]?.string
        categoryID = json["category_id"]?.int
        isFavorite = json["is_favorite"]?.bool ?? false
        rating = json["rating"]?.int
    }
}

public struct StoredCategory: StoredRecord {
    public var state: RecordState
    public var name: String
    public var json: JSONValue

    init(state: RecordState, json: JSONValue) {
        self.state = state
        self.json = json
        name = json["name"]?.string ?? ""
    }
}

public struct StoredReminder: StoredRecord {
    public var state: RecordState
    public var title: String
    public var description: String?
    /// `YYYY-MM-DD`.
    public var initialDate: String?
    /// `one_time`, `day`, `week`, `month` or `year`.
    public var frequencyType: String
    public var frequencyNumber: Int
    public var nextExpectedDate: String?
    public var contactID: Int?
    public var json: JSONValue

    init(state: RecordState, json: JSONValue) {
        self.state = state
        self.json = json
        title = json["title"]?.string ?? ""
        description = json["description"]?.string
        initialDate = json["initial_date"]?.string.map { String($0.prefix(10)) }
        frequencyType = json["frequency_type"]?.string ?? "one_time"
        frequencyNumber = json["frequency_number"]?.int ?? 1
        nextExpectedDate = json["next_expected_date"]?.string.map { String($0.prefix(10)) }
        contactID = json["contact_id"]?.int
    }
}

/// A change the server refused, or could not make because its record was deleted meanwhile: kept until the
/// person has seen it (`LocifyStore.dismissRefusal`).
public struct Refusal: Sendable, Equatable, Identifiable {
    public var mutation: Mutation
    /// `rejected` or `conflict`.
    public var status: SyncPushStatus
    public var errors: [SyncFieldErrorResource]
    public var refusedAt: Date

    public var id: Int { mutation.id }
}

/// What changed in the store: the record types a write touched, so a screen re-reads only when its own
/// data changed.
public struct StoreUpdate: Sendable, Equatable {
    public var types: Set<String>
}
