/// The contact resources written straight to the output: the synthesised `Encodable` costs a container
/// box and a generic-metadata look-up for each of the dozen nested objects of a Monica contact, which
/// is most of the time a list spends encoding. The bytes are the same as the synthesised encoding's
/// (a test compares them for every field); parts Locify does not model yet are written through the
/// generic path as soon as they hold anything.
extension ContactResource: DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws {
        writeNames(to: writer)
        writer.append(#","description":"#)
        writer.writeOptional(description)
        writeState(to: writer)
        writer.append(#","last_called":"#)
        writer.writeOptional(lastCalled)
        writer.append(#","last_activity_together":"#)
        writer.writeOptional(lastActivityTogether)
        writer.append(#","stay_in_touch_frequency":"#)
        writer.writeOptional(stayInTouchFrequency)
        writer.append(#","stay_in_touch_trigger_date":"#)
        writer.writeOptional(stayInTouchTriggerDate)
        writer.append(#","information":{"relationships":"#)
        try writer.writeNested(information.relationships, constant: Relationships(), as: Self.emptyRelationships)
        writer.append(#","dates":{"birthdate":"#)
        information.dates.birthdate.writeJSON(to: writer)
        writer.append(#","deceased_date":"#)
        information.dates.deceasedDate.writeJSON(to: writer)
        writer.append(#"},"career":"#)
        try writer.writeNested(information.career, constant: Self.noCareer, as: Self.noCareerJSON)
        writer.append(#","avatar":"#)
        information.avatar.writeJSON(to: writer)
        writer.append(#","food_preferences":"#)
        writer.writeOptional(information.foodPreferences)
        writer.append(#","how_you_met":"#)
        try writer.writeNested(information.howYouMet, constant: Self.notMet, as: Self.notMetJSON)
        writer.append(#"},"addresses":"#)
        try writer.writeNested(addresses, constant: [], as: Self.emptyList)
        writer.append(#","tags":"#)
        try writer.writeNested(tags, constant: [], as: Self.emptyList)
        writer.append(#","statistics":"#)
        try writer.writeNested(statistics, constant: Statistics(), as: Self.noStatistics)
        if let contactFields {
            writer.append(#","contactFields":"#)
            try writer.writeNested(contactFields, constant: [], as: Self.emptyList)
        }
        if let notes {
            writer.append(#","notes":"#)
            try writer.writeNested(notes, constant: [], as: Self.emptyList)
        }
        writer.append(#","url":"#)
        writer.writeString(url)
        writer.append(#","account":{"id":"#)
        writer.writeInteger(account.id)
        writer.append(#"},"created_at":"#)
        writer.writeString(createdAt)
        writer.append(#","updated_at":"#)
        writer.writeString(updatedAt)
        writer.append("}")
    }

    private static let noCareer = Career(job: nil, company: nil)
    private static let notMet = HowYouMet(generalInformation: nil, firstMetDate: .absent, firstMetThroughContact: nil)
    private static let emptyRelationships = JSONWriter.genericBytes(Relationships())
    private static let noCareerJSON = JSONWriter.genericBytes(noCareer)
    private static let notMetJSON = JSONWriter.genericBytes(notMet)
    private static let noStatistics = JSONWriter.genericBytes(Statistics())
    private static let emptyList = Array("[]".utf8)
}

extension ContactShortResource: DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws {
        writeNames(to: writer)
        writeState(to: writer)
        writer.append(#","information":{"birthdate":"#)
        information.birthdate.writeJSON(to: writer)
        writer.append(#","deceased_date":"#)
        information.deceasedDate.writeJSON(to: writer)
        writer.append(#","avatar":"#)
        information.avatar.writeJSON(to: writer)
        writer.append(#"},"url":"#)
        writer.writeString(url)
        writer.append(#","account":{"id":"#)
        writer.writeInteger(account.id)
        writer.append("}}")
    }
}

/// The keys Monica's full and short contacts share, in the same order in both.
protocol ContactJSONCommon {
    var id: Int { get }
    var uuid: String { get }
    var object: String { get }
    var hashID: String { get }
    var firstName: String { get }
    var lastName: String? { get }
    var nickname: String? { get }
    var completeName: String { get }
    var initials: String { get }
    var gender: String? { get }
    var genderType: String? { get }
    var isStarred: Bool { get }
    var isPartial: Bool { get }
    var isActive: Bool { get }
    var isDead: Bool { get }
    var isMe: Bool { get }
}

extension ContactJSONCommon {
    /// `{"id":…` through `"initials":…`.
    func writeNames(to writer: JSONWriter) {
        writer.append(#"{"id":"#)
        writer.writeInteger(id)
        writer.append(#","uuid":"#)
        writer.writeString(uuid)
        writer.append(#","object":"#)
        writer.writeString(object)
        writer.append(#","hash_id":"#)
        writer.writeString(hashID)
        writer.append(#","first_name":"#)
        writer.writeString(firstName)
        writer.append(#","last_name":"#)
        writer.writeOptional(lastName)
        writer.append(#","nickname":"#)
        writer.writeOptional(nickname)
        writer.append(#","complete_name":"#)
        writer.writeString(completeName)
        writer.append(#","initials":"#)
        writer.writeString(initials)
    }

    /// `,"gender":…` through `,"is_me":…`.
    func writeState(to writer: JSONWriter) {
        writer.append(#","gender":"#)
        writer.writeOptional(gender)
        writer.append(#","gender_type":"#)
        writer.writeOptional(genderType)
        writer.append(#","is_starred":"#)
        writer.writeBool(isStarred)
        writer.append(#","is_partial":"#)
        writer.writeBool(isPartial)
        writer.append(#","is_active":"#)
        writer.writeBool(isActive)
        writer.append(#","is_dead":"#)
        writer.writeBool(isDead)
        writer.append(#","is_me":"#)
        writer.writeBool(isMe)
    }
}

extension ContactResource: ContactJSONCommon {}
extension ContactShortResource: ContactJSONCommon {}

extension SpecialDateResource {
    func writeJSON(to writer: JSONWriter) {
        writer.append(#"{"is_age_based":"#)
        writer.writeOptional(isAgeBased)
        writer.append(#","is_year_unknown":"#)
        writer.writeOptional(isYearUnknown)
        writer.append(#","date":"#)
        writer.writeOptional(date)
        writer.append("}")
    }
}

extension AvatarResource {
    func writeJSON(to writer: JSONWriter) {
        writer.append(#"{"url":"#)
        writer.writeOptional(url)
        writer.append(#","source":"#)
        writer.writeString(source)
        writer.append(#","default_avatar_color":"#)
        writer.writeString(defaultAvatarColor)
        writer.append("}")
    }
}
