import Foundation

/// One problem with one input field, worded for a person ("First name is required.").
public struct FieldError: Hashable, Sendable, Error {
    /// The input's wire name (`first_name`), so a form can show the message beside that field.
    public let field: String
    public let message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// Every problem found in one input, reported together so a person can fix them in one go.
public struct ValidationFailure: Error, Sendable, Equatable {
    public let errors: [FieldError]

    public init(_ errors: [FieldError]) {
        self.errors = errors
    }

    public var messages: [String] { errors.map(\.message) }

    /// The first message for `field`, for showing beside a form field.
    public func message(for field: String) -> String? {
        errors.first { $0.field == field }?.message
    }
}

/// Collects field problems while an input is checked.
struct FieldChecker {
    private(set) var errors: [FieldError] = []

    mutating func fail(_ field: String, _ message: String) {
        errors.append(FieldError(field: field, message: message))
    }

    /// Trims `value`; an empty result becomes nil. Fails when longer than `limit` characters.
    mutating func text(_ value: String?, field: String, label: String, limit: Int = 255) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        // PostgreSQL cannot store U+0000, so no text may hold it, whichever database runs.
        if trimmed.unicodeScalars.contains("\u{0}") {
            fail(field, "\(label) cannot hold the NUL character (U+0000).")
        }
        // Counted in Unicode scalars, as JSON Schema's maxLength counts, so the API's description holds.
        if trimmed.unicodeScalars.count > limit {
            fail(field, "\(label) must be at most \(limit) characters.")
        }
        return trimmed
    }

    func finish<Value>(_ value: Value) throws(ValidationFailure) -> Value {
        guard errors.isEmpty else { throw ValidationFailure(errors) }
        return value
    }
}
