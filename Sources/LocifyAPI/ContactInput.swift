import Foundation
import LocifyCore

/// The body of `POST /api/contacts` and `PUT /api/contacts/{id}`.
///
/// Decoding is lenient the way Monica clients need: booleans may come as `true`, `1` or `"1"`, numbers
/// as strings, and unknown keys are ignored; the names and description must be strings, as Monica's rules say. A value of the wrong type is recorded as a field problem
/// instead of failing the whole body, so the client hears about every mistake at once.
public struct ContactInput: Decodable, Sendable {
    public private(set) var draft = ContactDraft()
    /// The keys the client sent; on update the others keep their stored value.
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []
    /// `birthdate_add_reminder` when sent: a yearly reminder of the birthday, on (true) or off (false).
    public private(set) var addBirthdayReminder: Bool?

    static let birthdateKeys: Set<String> = [
        "is_birthdate_known", "birthdate_day", "birthdate_month", "birthdate_year",
        "birthdate_is_age_based", "birthdate_age",
    ]

    public init(draft: ContactDraft, presentKeys: Set<String>) {
        self.draft = draft
        self.presentKeys = presentKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ContactDraft.fieldLabels)
        draft.firstName = reader.text("first_name")
        draft.lastName = reader.text("last_name")
        draft.nickname = reader.text("nickname")
        draft.description = reader.text("description")
        draft.email = reader.string("email")
        draft.genderID = reader.integer("gender_id")
        draft.genderName = reader.string("gender")
        draft.isBirthdateKnown = reader.boolean("is_birthdate_known")
        draft.birthdateDay = reader.integer("birthdate_day")
        draft.birthdateMonth = reader.integer("birthdate_month")
        draft.birthdateYear = reader.integer("birthdate_year")
        draft.birthdateIsAgeBased = reader.boolean("birthdate_is_age_based") ?? false
        draft.birthdateAge = reader.integer("birthdate_age")
        draft.isStarred = reader.boolean("is_starred") ?? false
        draft.isArchived = reader.boolean("is_archived") ?? false
        addBirthdayReminder = reader.boolean("birthdate_add_reminder")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied: what an update stores.
    public func merged(into existing: ContactDraft) -> ContactDraft {
        var result = existing
        func take<Value>(_ key: String, _ path: WritableKeyPath<ContactDraft, Value>) {
            if presentKeys.contains(key) { result[keyPath: path] = draft[keyPath: path] }
        }
        take("first_name", \.firstName)
        take("last_name", \.lastName)
        take("nickname", \.nickname)
        take("description", \.description)
        take("email", \.email)
        take("gender_id", \.genderID)
        // A gender sent by name (`gender`) replaces the stored one unless an id comes with it.
        if presentKeys.contains("gender"), !presentKeys.contains("gender_id") {
            result.genderID = nil
            result.genderName = draft.genderName
        }
        take("is_starred", \.isStarred)
        take("is_archived", \.isArchived)
        // The birthday fields describe one value: sending any of them replaces the whole birthday.
        if !presentKeys.isDisjoint(with: Self.birthdateKeys) { result.replaceBirthdate(with: draft) }
        return result
    }
}

/// The body of `PUT /api/contacts/{id}/work`: `job` and `company`, each kept when left out.
public struct WorkInput: Decodable, Sendable {
    public private(set) var job: String?
    public private(set) var company: String?
    public private(set) var presentKeys: Set<String> = []
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ContactDraft.fieldLabels)
        job = reader.string("job")
        company = reader.string("company")
        presentKeys = Set(container.allKeys.map(\.stringValue))
        typeErrors = reader.errors
    }

    /// `existing` with the sent keys applied.
    public func merged(into existing: ContactDraft) -> ContactDraft {
        var result = existing
        if presentKeys.contains("job") { result.job = job }
        if presentKeys.contains("company") { result.company = company }
        return result
    }
}

/// The body of `POST /api/me/contact`.
public struct MeContactInput: Decodable, Sendable {
    public private(set) var contactID: Int?
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ["contact_id": "Contact"])
        contactID = reader.integer("contact_id")
        typeErrors = reader.errors
    }
}

/// The body of `PUT /api/contacts/{id}/food`: Monica's `food_preferences`, text only.
public struct FoodPreferencesInput: Decodable, Sendable {
    public private(set) var foodPreferences: String?
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ["food_preferences": "Food preferences"])
        foodPreferences = reader.text("food_preferences")
        typeErrors = reader.errors
    }
}

/// The body of `PUT /api/contacts/{id}/introduction`, which replaces how the owner met the contact.
public struct IntroductionInput: Decodable, Sendable {
    public private(set) var draft = ContactIntroductionDraft()
    /// Monica's `add_reminder`: nil keeps the reminder in step with the day.
    public private(set) var addReminder: Bool?
    public private(set) var typeErrors: [FieldError] = []

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LenientKey.self)
        var reader = LenientReader(container: container, labels: ContactIntroductionDraft.fieldLabels)
        draft.throughContactID = reader.integer("met_through_contact_id")
        draft.story = reader.text("general_information")
        draft.place = reader.text("where")
        draft.isDateKnown = reader.boolean("is_date_known")
        draft.isAgeBased = reader.boolean("is_age_based")
        draft.day = reader.integer("day")
        draft.month = reader.integer("month")
        draft.year = reader.integer("year")
        draft.age = reader.integer("age")
        addReminder = reader.boolean("add_reminder")
        typeErrors = reader.errors
    }
}

struct LenientKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}

/// Reads JSON values of the loose types PHP-era clients send, noting values it cannot use.
struct LenientReader {
    let container: KeyedDecodingContainer<LenientKey>
    /// People's names for the keys, so a problem reads as it does beside a web form's field.
    let labels: [String: String]
    private(set) var errors: [FieldError] = []

    init(container: KeyedDecodingContainer<LenientKey>, labels: [String: String]) {
        self.container = container
        self.labels = labels
    }

    private func label(_ name: String) -> String { labels[name] ?? name }

    /// A problem with a value this reader does not read itself (a list, say).
    mutating func fail(_ field: String, _ message: String) {
        errors.append(FieldError(field: field, message: message))
    }

    private func isAbsentOrNull(_ key: LenientKey) -> Bool {
        !container.contains(key) || ((try? container.decodeNil(forKey: key)) ?? false)
    }

    /// A value under Monica's `string` rule (a contact's names and description): a JSON string only; a number
    /// is refused rather than stored as its digits, as Monica refuses it.
    mutating func text(_ name: String) -> String? {
        let key = LenientKey(stringValue: name)
        if isAbsentOrNull(key) { return nil }
        if let text = try? container.decode(String.self, forKey: key) { return text }
        errors.append(LooseValue.notText(field: name, label: label(name)))
        return nil
    }

    mutating func string(_ name: String) -> String? {
        let key = LenientKey(stringValue: name)
        if isAbsentOrNull(key) { return nil }
        if let text = try? container.decode(String.self, forKey: key) { return text }
        if let number = wholeNumber(key) { return String(number) }
        errors.append(LooseValue.notText(field: name, label: label(name)))
        return nil
    }

    /// A JSON number with no fraction (`12` or `12.0`) within `LooseValue.maximumMagnitude`.
    private func wholeNumber(_ key: LenientKey) -> Int? {
        if let number = try? container.decode(Int.self, forKey: key) { return LooseValue.bounded(number) }
        guard let number = try? container.decode(Double.self, forKey: key), number.rounded() == number,
            abs(number) <= Double(LooseValue.maximumMagnitude)
        else { return nil }
        return Int(number)
    }

    mutating func integer(_ name: String) -> Int? {
        let key = LenientKey(stringValue: name)
        if isAbsentOrNull(key) { return nil }
        if container.contains(key), (try? container.decode(Double.self, forKey: key)) != nil {
            if let number = wholeNumber(key) { return number }
        } else if let text = try? container.decode(String.self, forKey: key) {
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            if let number = LooseValue.integer(text) { return number }
        }
        errors.append(LooseValue.notAnInteger(field: name, label: label(name)))
        return nil
    }

    /// A JSON number, or text holding one (`"52.52"`).
    mutating func number(_ name: String) -> Double? {
        let key = LenientKey(stringValue: name)
        if isAbsentOrNull(key) { return nil }
        if let number = try? container.decode(Double.self, forKey: key), number.isFinite { return number }
        if let text = try? container.decode(String.self, forKey: key) {
            if text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            if let number = LooseValue.decimal(text) { return number }
        }
        errors.append(LooseValue.notANumber(field: name, label: label(name)))
        return nil
    }

    /// A JSON array of whole numbers: ids, as Monica's `array` rule takes them.
    mutating func integerList(_ name: String) -> [Int]? {
        let key = LenientKey(stringValue: name)
        if isAbsentOrNull(key) { return nil }
        if let numbers = try? container.decode([Int].self, forKey: key) { return numbers }
        errors.append(FieldError(field: name, message: "\(label(name)) must be a list of ids."))
        return nil
    }

    mutating func boolean(_ name: String) -> Bool? {
        let key = LenientKey(stringValue: name)
        if isAbsentOrNull(key) { return nil }
        if let flag = try? container.decode(Bool.self, forKey: key) { return flag }
        if let number = try? container.decode(Int.self, forKey: key), number == 0 || number == 1 { return number == 1 }
        if let text = try? container.decode(String.self, forKey: key), let flag = LooseValue.boolean(text) {
            return flag
        }
        errors.append(LooseValue.notABoolean(field: name, label: label(name)))
        return nil
    }
}
