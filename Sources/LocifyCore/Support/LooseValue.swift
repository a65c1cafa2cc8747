import Foundation

/// Numbers and yes/no values as people type them into forms and as PHP-era API clients send them
/// (`"12"`, `" 12 "`, `1`, `"on"`), read the same way by the web and the API, with one wording for
/// a value that cannot be read.
public enum LooseValue {
    /// The largest magnitude accepted: 15 digits, so every value is exact in a JSON number (a double)
    /// and the API's description can state the bound.
    public static let maximumMagnitude = 999_999_999_999_999

    /// A whole number within `maximumMagnitude`; surrounding spaces are ignored, and so is a fraction of
    /// zeros (`"1.0"` is the number JSON and the API's description call an integer). Nil when the text is not one.
    public static func integer(_ text: String) -> Int? {
        var trimmed = Substring(text.trimmingCharacters(in: .whitespaces))
        if let point = trimmed.firstIndex(of: "."), trimmed[trimmed.index(after: point)...].allSatisfy({ $0 == "0" }),
            point != trimmed.startIndex, trimmed[trimmed.index(before: point)].isNumber
        {
            trimmed = trimmed[..<point]
        }
        return Int(trimmed).flatMap(bounded)
    }

    /// `value` when it is within `maximumMagnitude`. Compared as a range: `abs(Int.min)` overflows, and a
    /// query's `contact_id=-9223372036854775808` (the API fuzzing sent it) stopped the server.
    public static func bounded(_ value: Int) -> Int? {
        (-maximumMagnitude...maximumMagnitude).contains(value) ? value : nil
    }

    /// `1`, `true`, `on`, `yes` and `0`, `false`, `off`, `no`, empty, in any case.
    public static func boolean(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "on", "yes": true
        case "0", "false", "off", "no", "": false
        default: nil
        }
    }

    public static func notAnInteger(field: String, label: String) -> FieldError {
        FieldError(field: field, message: "\(label) must be a whole number.")
    }

    public static func notABoolean(field: String, label: String) -> FieldError {
        FieldError(field: field, message: "\(label) must be true or false.")
    }

    public static func notANumber(field: String, label: String) -> FieldError {
        FieldError(field: field, message: "\(label) must be a number.")
    }

    /// A finite decimal number, `.` as the separator; surrounding spaces are ignored.
    public static func number(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// A plain decimal (`-48.85`, `.5`, `7.`) between spaces or tabs: no exponent, no hexadecimal, no
    /// `inf`, so that a pattern states exactly which texts are coordinates (the API's description
    /// does, with their range).
    public static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        var digits = 0
        var seenPoint = false
        for (index, byte) in trimmed.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "+"),
                UInt8(ascii: "-") where index == 0:
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: ".") where !seenPoint: seenPoint = true
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The number in `text`, nil for blank text; a value that is not a number is added to `problems`
    /// under `field`.
    public static func number(_ text: String?, field: String, label: String, problems: inout [FieldError]) -> Double? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let value = number(text) else {
            problems.append(notANumber(field: field, label: label))
            return nil
        }
        return value
    }

    public static func notText(field: String, label: String) -> FieldError {
        FieldError(field: field, message: "\(label) must be text.")
    }

    /// The integer in `text`, nil for blank text; a value that is not a whole number is added to
    /// `problems` under `field`.
    public static func integer(_ text: String?, field: String, label: String, problems: inout [FieldError]) -> Int? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let value = integer(text) else {
            problems.append(notAnInteger(field: field, label: label))
            return nil
        }
        return value
    }
}

extension ValidationFailure {
    /// Runs a draft's rules after its values were read: values of the wrong type come first and are
    /// reported once, not again as "missing" by the rules for the same field.
    public static func checking<Value>(
        typeErrors: [FieldError], _ rules: () throws(ValidationFailure) -> Value
    ) throws(ValidationFailure) -> Value {
        let result: Result<Value, ValidationFailure>
        do {
            result = .success(try rules())
        } catch {
            result = .failure(error)
        }
        let typedFields = Set(typeErrors.map(\.field))
        switch result {
        case .success(let value) where typeErrors.isEmpty:
            return value
        case .success:
            throw ValidationFailure(typeErrors)
        case .failure(let failure):
            throw ValidationFailure(typeErrors + failure.errors.filter { !typedFields.contains($0.field) })
        }
    }

    /// `checking(typeErrors:_:)` for a record that belongs to a contact (a reminder, a note): a missing
    /// `contactID` is one more problem of the same answer, worded "Choose the contact this `noun` is
    /// about.", unless the contact could not be read at all.
    public static func checking<Value>(
        contactID: Int?, about noun: String, typeErrors: [FieldError], _ rules: () throws(ValidationFailure) -> Value
    ) throws(ValidationFailure) -> (value: Value, contactID: Int) {
        let (value, id) = try checking(
            parent: contactID, field: "contact_id", missing: "Choose the contact this \(noun) is about.",
            typeErrors: typeErrors, rules)
        return (value, id)
    }

    /// `checking(typeErrors:_:)` for a record that belongs to another (a note to its contact, a comment to
    /// its place): a missing `parent` is one more problem of the same answer under `field`, worded
    /// `missing`, unless the parent's id could not be read at all.
    public static func checking<Value>(
        parent: Int?, field: String, missing: String, typeErrors: [FieldError],
        _ rules: () throws(ValidationFailure) -> Value
    ) throws(ValidationFailure) -> (value: Value, parentID: Int) {
        var problems = typeErrors
        if parent == nil, !typeErrors.contains(where: { $0.field == field }) {
            problems.append(FieldError(field: field, message: missing))
        }
        let value = try checking(typeErrors: problems, rules)
        guard let parent else { throw ValidationFailure(problems) }
        return (value, parent)
    }

    /// The first message per field, for showing beside each form field.
    public var byField: [String: String] {
        errors.reduce(into: [:]) { result, error in
            if result[error.field] == nil { result[error.field] = error.message }
        }
    }
}
