import Foundation

/// A person in someone's life, as the domain sees it.
public struct Contact: Hashable, Sendable {
    public var id: Int
    public var uuid: UUID
    public var ownerID: Int
    public var fields: ContactFields
    public var defaultAvatarColor: String
    public var avatar: ContactAvatar
    /// How the owner met the contact; set only by its own route, never by the contact's fields.
    public var introduction: ContactIntroduction
    /// What the contact eats or does not (Monica's `food_preferences`); set only by its own route.
    public var foodPreferences: String?
    /// The contact is the account's owner themselves (Monica's `is_me`); set by the owner's "me" route.
    public var isMe: Bool
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int, uuid: UUID, ownerID: Int, fields: ContactFields, defaultAvatarColor: String,
        avatar: ContactAvatar = .automatic, introduction: ContactIntroduction = .unknown,
        foodPreferences: String? = nil, isMe: Bool = false, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.uuid = uuid
        self.ownerID = ownerID
        self.fields = fields
        self.defaultAvatarColor = defaultAvatarColor
        self.avatar = avatar
        self.introduction = introduction
        self.foodPreferences = foodPreferences
        self.isMe = isMe
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Monica's `max:65535` for a contact's food preferences.
    public static let maximumFoodPreferencesLength = 65_535

    /// Checks food preferences as typed: trimmed, blank for none.
    public static func validatedFoodPreferences(_ text: String?) throws(ValidationFailure) -> String? {
        var check = FieldChecker()
        let preferences = check.text(
            text, field: "food_preferences", label: "Food preferences", limit: maximumFoodPreferencesLength)
        return try check.finish(preferences)
    }

    /// First and last name, as Monica's `complete_name`.
    public var completeName: String { fields.completeName }
    public var initials: String { Avatar.monicaInitials(of: completeName) }
    public var displayInitials: String { Avatar.displayInitials(of: completeName) }

    /// Names the picture the contact shows now; see `ContactAvatar.version`.
    public var avatarVersion: String { avatar.version(name: completeName, color: defaultAvatarColor) }
}

extension ValidationFailure {
    /// What a change to an archived contact's tags, fields (and Monica's other children) answers.
    public static let archivedContact = ValidationFailure([
        FieldError(
            field: "contact_id", message: "Archived contact can’t be edited, please unarchive it first.",
            reason: .conflict)
    ])
}

/// The fields a person edits, already validated and trimmed.
public struct ContactFields: Hashable, Sendable {
    public var firstName: String
    public var lastName: String?
    public var nickname: String?
    public var description: String?
    public var birthdate: Birthdate?
    public var gender: Gender?
    /// Work, as Monica's `career`.
    public var job: String?
    public var company: String?
    public var isStarred: Bool
    public var isArchived: Bool

    public init(
        firstName: String, lastName: String? = nil, nickname: String? = nil, description: String? = nil,
        birthdate: Birthdate? = nil, gender: Gender? = nil, job: String? = nil, company: String? = nil,
        isStarred: Bool = false, isArchived: Bool = false
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.description = description
        self.job = job
        self.company = company
        self.birthdate = birthdate
        self.gender = gender
        self.isStarred = isStarred
        self.isArchived = isArchived
    }

    public var completeName: String {
        lastName.map { firstName + " " + $0 } ?? firstName
    }

    /// What a contact search matches: the names and nickname, then the data of the contact's fields
    /// (e-mails, phone numbers, accounts), folded (see `TextFolding.searchKey`); a phone number also as
    /// its bare digits, so it is found however it was spaced (see `ContactSearch`).
    public func searchKey(fieldData: [String] = []) -> String {
        TextFolding.searchKey(
            [firstName, lastName, nickname] + fieldData + fieldData.compactMap(ContactSearch.phoneDigits))
    }
}

/// A contact as typed: every value optional and unchecked. `validated(today:)` turns it into
/// `ContactFields` or reports every problem at once.
public struct ContactDraft: Sendable, Equatable {
    public var firstName: String?
    public var lastName: String?
    public var nickname: String?
    public var description: String?
    /// An e-mail to add as one of the contact's Email fields (contacts keep e-mails only there).
    public var email: String?
    /// nil: decide from the other birthdate fields (known when a day and month are given).
    public var isBirthdateKnown: Bool?
    public var birthdateDay: Int?
    public var birthdateMonth: Int?
    public var birthdateYear: Int?
    public var birthdateIsAgeBased: Bool
    public var birthdateAge: Int?
    /// One of the account's genders, by id.
    public var genderID: Int?
    /// A gender by name or type letter, where clients (and vCards) send `gender`; `genderID` wins.
    public var genderName: String?
    public var job: String?
    public var company: String?
    public var isStarred: Bool
    public var isArchived: Bool

    public init(
        firstName: String? = nil, lastName: String? = nil, nickname: String? = nil,
        description: String? = nil, email: String? = nil, isBirthdateKnown: Bool? = nil,
        birthdateDay: Int? = nil, birthdateMonth: Int? = nil, birthdateYear: Int? = nil,
        birthdateIsAgeBased: Bool = false, birthdateAge: Int? = nil, genderID: Int? = nil,
        genderName: String? = nil, job: String? = nil, company: String? = nil, isStarred: Bool = false,
        isArchived: Bool = false
    ) {
        self.job = job
        self.company = company
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.description = description
        self.email = email
        self.isBirthdateKnown = isBirthdateKnown
        self.birthdateDay = birthdateDay
        self.birthdateMonth = birthdateMonth
        self.birthdateYear = birthdateYear
        self.birthdateIsAgeBased = birthdateIsAgeBased
        self.birthdateAge = birthdateAge
        self.genderID = genderID
        self.genderName = genderName
        self.isStarred = isStarred
        self.isArchived = isArchived
    }

    public static let descriptionLimit = 10_000

    /// The birthday fields of `other`: they describe one value, so they are replaced together.
    public mutating func replaceBirthdate(with other: ContactDraft) {
        isBirthdateKnown = other.isBirthdateKnown
        birthdateDay = other.birthdateDay
        birthdateMonth = other.birthdateMonth
        birthdateYear = other.birthdateYear
        birthdateIsAgeBased = other.birthdateIsAgeBased
        birthdateAge = other.birthdateAge
    }

    /// Whether the draft names a gender (by id or by name): only then are the account's genders needed
    /// to check it.
    public var namesGender: Bool {
        genderID != nil || !(genderName?.trimmingCharacters(in: .whitespaces).isEmpty ?? true)
    }

    /// `email` trimmed and normalized, nil when blank: what an accepted draft adds as an Email field.
    public var normalizedEmail: String? {
        email.map(EmailAddress.normalized).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Each input's name for people, by wire name: forms and API messages word a problem the same way.
    public static let fieldLabels: [String: String] = [
        "first_name": "First name", "last_name": "Last name", "nickname": "Nickname", "description": "Description",
        "email": "Email", "gender_id": "Gender", "gender": "Gender", "is_birthdate_known": "Birthday known",
        "birthdate_day": "Birthday day", "birthdate_month": "Birthday month", "birthdate_year": "Birth year",
        "birthdate_is_age_based": "Age-based birthday", "birthdate_age": "Age", "is_starred": "Starred",
        "is_archived": "Archived", "birthdate_add_reminder": "Birthday reminder", "job": "Job", "company": "Company",
    ]

    /// The rules, after the values were read: `typeErrors` are the values that could not be read
    /// (text where a number belongs); each is reported once, before the rules' own problems.
    public func validated(today: CalendarDate, genders: [Gender], typeErrors: [FieldError]) throws(ValidationFailure)
        -> ContactFields
    {
        try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try validated(today: today, genders: genders)
        }
    }

    /// `today` is the owner's current day: it bounds birth years and turns an age into a year. `genders`
    /// are the account's, which `genderID` and `genderName` must name.
    public func validated(today: CalendarDate, genders: [Gender]) throws(ValidationFailure) -> ContactFields {
        var check = FieldChecker()
        let firstName = check.text(firstName, field: "first_name", label: "First name")
        if firstName == nil { check.fail("first_name", "First name is required.") }
        let lastName = check.text(lastName, field: "last_name", label: "Last name")
        let nickname = check.text(nickname, field: "nickname", label: "Nickname")
        let description = check.text(
            description, field: "description", label: "Description", limit: Self.descriptionLimit)
        if let email = check.text(email, field: "email", label: "Email").map(EmailAddress.normalized),
            !EmailAddress.isPlausible(email)
        {
            check.fail("email", "Email must be an address like name@example.com.")
        }
        var gender: Gender?
        if let genderID {
            gender = genders.first { $0.id == genderID }
            if gender == nil {
                let choices = genders.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
                check.fail(
                    "gender_id", "Gender must be one of this account’s genders: \(choices).", reason: .unknownReference)
            }
        } else if let name = genderName?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
            gender = Gender.named(name, among: genders)
            if gender == nil {
                let names = genders.map(\.name).joined(separator: ", ")
                check.fail(
                    "gender", "Gender “\(name)” is none of this account’s genders: \(names).", reason: .unknownReference
                )
            }
        }
        let job = check.text(job, field: "job", label: "Job")
        let company = check.text(company, field: "company", label: "Company")
        let birthdate = checkedBirthdate(today: today, check: &check)
        return try check.finish(
            ContactFields(
                firstName: firstName ?? "", lastName: lastName, nickname: nickname, description: description,
                birthdate: birthdate, gender: gender, job: job, company: company, isStarred: isStarred,
                isArchived: isArchived))
    }

    private func checkedBirthdate(today: CalendarDate, check: inout FieldChecker) -> Birthdate? {
        SpecialDateDraft(
            isKnown: isBirthdateKnown, day: birthdateDay, month: birthdateMonth, year: birthdateYear,
            isAgeBased: birthdateIsAgeBased, age: birthdateAge
        ).checked(
            today: today,
            naming: .init(
                day: "birthdate_day", month: "birthdate_month", year: "birthdate_year", age: "birthdate_age",
                label: "Birthday", yearLabel: "Birth year"), check: &check)
    }
}
