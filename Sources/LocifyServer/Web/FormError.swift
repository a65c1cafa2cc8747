/// Why a web form was refused before its values were read.
enum FormError: AppFailure, Equatable {
    /// The CSRF token is missing or does not match the cookie's.
    case expired

    var kind: FailureKind { .forbidden }
    var messages: [String] { ["This form has expired. Reload the page and try again."] }
}
