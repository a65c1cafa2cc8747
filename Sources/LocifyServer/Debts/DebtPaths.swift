extension PathParameter {
    static let debtID = PathParameter("debtID")
}

/// Debts: the API and the contact page's forms.
enum DebtPaths {
    static let contactDebts = ContactPaths.contact.appending("debts")
    static let debt = SitePath("debts").appending(.debtID)
    static let delete = debt.appending("delete")
    static let settle = debt.appending("settle")
    static let api = SitePaths.api.appending("debts")
    static let apiDebt = api.appending(.debtID)
    static let apiContactDebts = ContactPaths.apiContact.appending("debts")
}
