import LocifyCore

extension FormField {
    /// How the page's script uses the browser's own timezone (`js/locify.js`, `LocifyTimezone`).
    enum BrowserTimezone: String {
        /// Sign-up: the browser's timezone is chosen for the person, who may change it before sending.
        case choose
        /// Settings: where the browser's differs from the saved one, a button offers it.
        case offer
    }

    /// The account's timezone, which decides the hour reminders are told at. Without a script it is a plain
    /// list with `selected` chosen.
    static func timezone(selected: String, errors: FieldMessages, browser: BrowserTimezone) -> FormField {
        FormField(
            "timezone", label: "Timezone", control: .select, errors: errors,
            hint: "Reminders are told at your time of day in this timezone.",
            options: TimeZones.identifiers.map {
                SelectOption(value: $0, label: $0.replacingOccurrences(of: "_", with: " "), isSelected: $0 == selected)
            },
            dataAttributes: [DataAttribute(name: "browser-timezone", value: browser.rawValue)])
    }
}
