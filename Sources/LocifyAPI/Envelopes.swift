/// `{"data": …}`, the wrapper of every single-object response.
public struct DataEnvelope<Resource: Codable & Sendable>: Codable, Sendable {
    public var data: Resource

    public init(data: Resource) {
        self.data = data
    }
}

/// `{"deleted": true, "id": 42}`.
public struct DeletedResource: Codable, Sendable, Equatable {
    public var deleted: Bool
    public var id: Int

    public init(id: Int) {
        self.deleted = true
        self.id = id
    }
}

/// `{"account": {"id": 1}}` in every object.
public struct AccountReference: Codable, Sendable, Equatable {
    public var id: Int

    public init(id: Int) {
        self.id = id
    }
}

/// `{"id": 1, "name": "Ada Lovelace"}`: another account, by the name it goes by (a comment's author, a
/// shared category's owner).
public struct AccountName: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// Monica's error envelope: `{"error": {"message": …, "error_code": N}}`. Validation errors carry an
/// array of messages, everything else a string.
public struct ErrorEnvelope: Codable, Sendable, Equatable {
    public struct Body: Codable, Sendable, Equatable {
        public var message: ErrorMessage
        public var errorCode: Int

        enum CodingKeys: String, CodingKey {
            case message
            case errorCode = "error_code"
        }
    }

    public var error: Body

    public init(message: ErrorMessage, code: Int) {
        self.error = Body(message: message, errorCode: code)
    }
}

public enum ErrorMessage: Codable, Sendable, Equatable {
    case text(String)
    case list([String])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let list = try? container.decode([String].self) {
            self = .list(list)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .list(let list): try container.encode(list)
        }
    }
}

/// Monica's error codes, by their meaning.
public enum MonicaErrorCode {
    public static let limitTooBig = 30
    public static let notFound = 31
    public static let validation = 32
    public static let tooManyRequests = 34
    /// The body is not JSON, or not the JSON the route expects.
    public static let malformedJSON = 37
    public static let invalidSort = 39
    /// "Invalid query.": also what a path answers a method it does not take, for which Monica has no code
    /// of its own (Laravel answers there without Monica's envelope).
    public static let invalidQuery = 40
    public static let notAuthorized = 42
}

/// The body of a 401 on `/api`: `{"message":"Unauthenticated."}`, as Laravel answers.
public struct UnauthenticatedResource: Codable, Sendable, Equatable {
    public var message = "Unauthenticated."

    public init() {}
}
