import Foundation

/// An amount of one currency, kept in its minor units (cents) so sums and comparisons are exact.
public struct Money: Equatable, Sendable {
    public let minorUnits: Int
    /// ISO 4217 code, upper case (`USD`).
    public let currency: String

    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The currency Monica gives a new account, and Locify an amount that names none.
    public static let defaultCurrency = "USD"
    /// The largest amount taken, in major units: twelve digits keep every minor unit exact.
    public static let maximumAmount = 999_999_999_999.0

    /// How many digits follow the decimal point in the currency's amounts.
    public static func minorDigits(of currency: String) -> Int {
        ["JPY", "KRW", "VND", "CLP", "ISK", "HUF", "TWD", "UGX", "XAF", "XOF"].contains(currency) ? 0 : 2
    }

    /// `amount` in major units (`12.5`), rounded to the currency's minor units.
    public init(amount: Double, currency: String) {
        let scale = pow(10, Double(Self.minorDigits(of: currency)))
        self.init(minorUnits: Int((amount * scale).rounded()), currency: currency)
    }

    /// The amount in major units (`12.5`), as a client sends it back.
    public var majorUnits: Double {
        Double(minorUnits) / pow(10, Double(Self.minorDigits(of: currency)))
    }

    /// The amount in major units as text, with the currency's digits (`12.50`): Monica's `amount` and `value`.
    public var decimalText: String {
        let digits = Self.minorDigits(of: currency)
        guard digits > 0 else { return String(minorUnits) }
        let scale = Int(pow(10, Double(digits)))
        let whole = abs(minorUnits) / scale
        let fraction = String(abs(minorUnits) % scale)
        let padded = String(repeating: "0", count: digits - fraction.count) + fraction
        return (minorUnits < 0 ? "-" : "") + "\(whole).\(padded)"
    }

    /// The amount with its currency as a person reads it (`$12.50`, `€12.50`, `12.50 CHF`): Monica's
    /// `amount_with_currency`.
    public var displayText: String {
        if let symbol = Self.symbols[currency] { return symbol + decimalText }
        return "\(decimalText) \(currency)"
    }

    private static let symbols = [
        "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "INR": "₹",
        "BRL": "R$", "KRW": "₩", "CNY": "CN¥", "MXN": "MX$", "ILS": "₪", "VND": "₫",
    ]

    /// An amount as a person types it in a form (`12,50` or `12.50`); a problem reported under `field`
    /// when it is no number. Blank is no amount.
    public static func typedAmount(_ text: String?, field: String = "amount", label: String) -> (
        amount: Double?, problems: [FieldError]
    ) {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return (nil, []) }
        guard let amount = LooseValue.decimal(text.replacingOccurrences(of: ",", with: ".")) else {
            return (nil, [LooseValue.notANumber(field: field, label: label)])
        }
        return (amount, [])
    }

    /// `amount` in `currency` as a client sent them, checked into `check`: the currency an ISO 4217 code
    /// (`defaultCurrency` when it names none), the amount from 0 to `maximumAmount`. Nil without an amount
    /// or with a problem; an amount out of range is never made, as it would not fit the minor units.
    static func checked(amount: Double?, currency: String?, check: inout FieldChecker) -> Money? {
        var code: String? = defaultCurrency
        if let currency, !currency.trimmingCharacters(in: .whitespaces).isEmpty {
            code = currencyCode(currency)
            if code == nil { check.fail("currency", "The currency must be a three-letter code such as EUR.") }
        }
        guard let amount else { return nil }
        guard amount >= 0, amount <= maximumAmount else {
            check.fail("amount", "The amount must be between 0 and 999,999,999,999.")
            return nil
        }
        return code.map { Money(amount: amount, currency: $0) }
    }

    /// An ISO 4217-shaped code (three letters), upper-cased; nil for anything else.
    public static func currencyCode(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces).uppercased(), trimmed.count == 3,
            trimmed.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
        else { return nil }
        return trimmed
    }
}
