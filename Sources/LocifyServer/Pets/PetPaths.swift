extension PathParameter {
    static let petID = PathParameter("petID")
}

/// Pets: the API and the contact page's forms.
enum PetPaths {
    static let contactPets = ContactPaths.contact.appending("pets")
    static let pet = SitePath("pets").appending(.petID)
    static let delete = pet.appending("delete")
    static let api = SitePaths.api.appending("pets")
    static let apiPet = api.appending(.petID)
    static let apiContactPets = ContactPaths.apiContact.appending("pets")
}
