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

    /// An ISO 4217-shaped code (three letters), upper-cased; nil for anything else.
    public static func currencyCode(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespaces).uppercased(), trimmed.count == 3,
            trimmed.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) })
        else { return nil }
        return trimmed
    }
}
