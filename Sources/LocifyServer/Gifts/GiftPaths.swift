extension PathParameter {
    static let giftID = PathParameter("giftID")
}

/// Gifts: the API and the contact page's forms.
enum GiftPaths {
    static let contactGifts = ContactPaths.contact.appending("gifts")
    static let gift = SitePath("gifts").appending(.giftID)
    static let delete = gift.appending("delete")
    static let status = gift.appending("status")
    static let api = SitePaths.api.appending("gifts")
    static let apiGift = api.appending(.giftID)
    static let apiContactGifts = ContactPaths.apiContact.appending("gifts")
}
