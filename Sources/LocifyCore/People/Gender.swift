/// Monica's three default genders, with the ids its clients send as `gender_id`.
public enum Gender: String, CaseIterable, Sendable, Codable {
    case man
    case woman
    case ratherNotSay = "rather_not_say"

    public init?(monicaID: Int) {
        switch monicaID {
        case 1: self = .man
        case 2: self = .woman
        case 3: self = .ratherNotSay
        default: return nil
        }
    }

    public var monicaID: Int {
        switch self {
        case .man: 1
        case .woman: 2
        case .ratherNotSay: 3
        }
    }

    /// The name Monica shows (`gender` in the contact resource).
    public var displayName: String {
        switch self {
        case .man: "Man"
        case .woman: "Woman"
        case .ratherNotSay: "Rather not say"
        }
    }

    /// Monica's `gender_type`: M, F or O.
    public var typeCode: String {
        switch self {
        case .man: "M"
        case .woman: "F"
        case .ratherNotSay: "O"
        }
    }
}
