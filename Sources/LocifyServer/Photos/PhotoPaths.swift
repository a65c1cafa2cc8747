extension PathParameter {
    static let photoID = PathParameter("photoID")
    static let photoFile = PathParameter("file")
}

/// Photos and pictures: the contact page's forms, the API, and the stored files.
enum PhotoPaths {
    static let contactPhotos = ContactPaths.contact.appending("photos")
    static let deletePhoto = contactPhotos.appending(.photoID).appending("delete")
    static let contactAvatar = ContactPaths.contact.appending("avatar")

    static let api = SitePaths.api.appending("photos")
    static let apiPhoto = api.appending(.photoID)
    static let apiContactPhotos = ContactPaths.apiContact.appending("photos")
    static let apiContactAvatar = ContactPaths.apiContact.appending("avatar")

    private static let store = SitePaths.store
    /// The picture a contact shows, whatever it is; see `PictureLinks`.
    static let avatar = store.appending("avatars").appending(.contactID)
    /// A stored photo's file, by the name after `photos/` in its `new_filename`.
    static let storedPhoto = store.appending("photos").appending(text: .photoFile)
}
