import Foundation
import LocifyAPI
import LocifyCore

/// Writes made here, checked by Core's rules before they are queued (the server's own rules, so what is
/// queued is what the server takes): a bad value is refused at once with every problem, each naming its
/// field, and nothing is kept.
extension LocifyStore {
    /// A new contact; answers its uuid.
    @discardableResult
    public func createContact(_ draft: ContactDraft, today: CalendarDate = CalendarDate(Date(), in: .current))
        throws -> String
    {
        var checked = draft
        // Genders are the account's: the server checks the one named.
        checked.genderID = nil
        try Self.check { () throws(ValidationFailure) in _ = try checked.validated(today: today, genders: []) }
        var fields: [String: JSONValue] = [:]
        func put(_ name: String, _ value: String?) {
            if let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
                fields[name] = .string(value)
            }
        }
        put("first_name", draft.firstName)
        put("last_name", draft.lastName)
        put("nickname", draft.nickname)
        put("description", draft.description)
        put("email", draft.email)
        put("job", draft.job)
        put("company", draft.company)
        if let day = draft.birthdateDay, let month = draft.birthdateMonth {
            fields["is_birthdate_known"] = true
            fields["birthdate_day"] = .integer(day)
            fields["birthdate_month"] = .integer(month)
            if let year = draft.birthdateYear { fields["birthdate_year"] = .integer(year) }
        }
        if let genderID = draft.genderID { fields["gender_id"] = .integer(genderID) }
        if draft.isStarred { fields["is_starred"] = true }
        return try create("contact", fields: fields)
    }

    /// A new address of `contact` (made here or not); answers its uuid.
    @discardableResult
    public func createAddress(_ draft: PostalAddressDraft, of contact: StoredContact) throws -> String {
        let address = try Self.check { () throws(ValidationFailure) in try draft.validated() }
        var fields: [String: JSONValue] = ["contact_uuid": .string(contact.state.uuid)]
        let texts: [(String, String?)] = [
            ("name", address.label), ("street", address.street), ("city", address.city),
            ("province", address.province), ("postal_code", address.postalCode), ("country", address.countryCode),
        ]
        for (name, value) in texts { if let value { fields[name] = .string(value) } }
        if let coordinate = address.coordinate {
            fields["latitude"] = .number(coordinate.latitude)
            fields["longitude"] = .number(coordinate.longitude)
        }
        return try create("address", fields: fields)
    }

    /// A new place in `category`; answers its uuid.
    @discardableResult
    public func createPlace(_ draft: PlaceDraft, in category: StoredCategory) throws -> String {
        var checked = draft
        // A category made here has no id yet: it is named by uuid, and any id passes the check.
        checked.categoryID = category.state.id ?? 0
        let (place, _) = try Self.check { () throws(ValidationFailure) in try checked.validated() }
        var fields: [String: JSONValue] = [
            "name": .string(place.name), "latitude": .number(place.coordinate.latitude),
            "longitude": .number(place.coordinate.longitude), "is_favorite": .bool(place.isFavorite),
        ]
        if let address = place.address { fields["address"] = .string(address) }
        if let notes = place.notes { fields["notes"] = .string(notes) }
        if let rating = place.rating { fields["rating"] = .integer(rating) }
        if let id = category.state.id {
            fields["category_id"] = .integer(id)
        } else {
            fields["category_uuid"] = .string(category.state.uuid)
        }
        return try create("place", fields: fields)
    }

    public func setFavorite(_ place: StoredPlace, _ isFavorite: Bool) throws {
        try update("place", uuid: place.state.uuid, fields: ["is_favorite": .bool(isFavorite)])
    }

    /// Gives the place 1 to 5 stars, or takes its rating away (nil).
    public func setRating(_ place: StoredPlace, _ rating: Int?) throws {
        if let rating, !PlaceDraft.ratings.contains(rating) {
            throw LocifyError.invalidInput([
                FieldError(field: "rating", message: PlaceDraft.ratingProblem)
            ])
        }
        try update("place", uuid: place.state.uuid, fields: ["rating": rating.map(JSONValue.integer) ?? .null])
    }

    /// A new reminder about `contact`; answers its uuid.
    @discardableResult
    public func createReminder(_ draft: ReminderDraft, about contact: StoredContact) throws -> String {
        let reminder = try Self.check { () throws(ValidationFailure) in try draft.validated() }
        var fields: [String: JSONValue] = [
            "contact_uuid": .string(contact.state.uuid), "title": .string(reminder.title),
            "initial_date": .string(reminder.schedule.initialDate.description),
            "frequency_type": .string(reminder.schedule.recurrence.frequencyType),
            "frequency_number": .integer(reminder.schedule.recurrence.frequencyNumber),
        ]
        if let description = reminder.description { fields["description"] = .string(description) }
        return try create("reminder", fields: fields)
    }

    private static func check<T>(_ body: () throws(ValidationFailure) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw LocifyError.invalidInput(error.errors)
        }
    }
}
