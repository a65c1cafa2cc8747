import Foundation

/// One problem with one input field, worded for a person ("First name is required.").
public struct FieldError: Hashable, Sendable, Error {
    /// Why the value is refused. The API answers each with its own status, so a client can tell input
    /// it must fix (which the API's description rules out) from input that was fine but met what is
    /// stored.
    public enum Reason: Hashable, Sendable {
        /// The value itself breaks a rule.
        case invalid
        /// A well-formed value that clashes with what is stored: a name already taken, the last of
        /// something, an archived contact.
        case conflict
        /// An id (or name) of something the person does not have.
        case unknownReference
    }

    /// The input's wire name (`first_name`), so a form can show the message beside that field.
    public let field: String
    public let message: String
    public let reason: Reason

    public init(field: String, message: String, reason: Reason = .invalid) {
        self.field = field
        self.message = message
        self.reason = reason
    }
}

/// Every problem found in one input, reported together so a person can fix them in one go.
public struct ValidationFailure: Error, Sendable, Equatable {
    public let errors: [FieldError]

    public init(_ errors: [FieldError]) {
        self.errors = errors
    }

    public var messages: [String] { errors.map(\.message) }

    /// The failure's reason as a whole: input to fix whenever any of it is invalid, else a reference to
    /// something missing before a conflict (nothing can conflict with what does not exist).
    public var reason: FieldError.Reason {
        if errors.isEmpty || errors.contains(where: { $0.reason == .invalid }) { return .invalid }
        return errors.contains { $0.reason == .unknownReference } ? .unknownReference : .conflict
    }

    /// The first message for `field`, for showing beside a form field.
    public func message(for field: String) -> String? {
        errors.first { $0.field == field }?.message
    }
}

/// Collects field problems while an input is checked.
struct FieldChecker {
    private(set) var errors: [FieldError] = []

    mutating func fail(_ field: String, _ message: String, reason: FieldError.Reason = .invalid) {
        errors.append(FieldError(field: field, message: message, reason: reason))
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
