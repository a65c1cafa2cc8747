import LocifyCore

extension PathParameter {
    static let placeID = PathParameter("placeID")
    static let categoryID = PathParameter("categoryID")
    static let importID = PathParameter("importID")
}

/// Places, their categories, the map page, imports and exports, and the API.
enum PlacePaths {
    static let list = SitePaths.places
    static let favorites = list.appending("favorites")
    static let new = list.appending("new")
    static let categories = list.appending("categories")
    static let category = categories.appending(.categoryID)
    static let renameCategory = category.appending("rename")
    static let deleteCategory = category.appending("delete")
    static let place = list.appending(.placeID)
    static let edit = place.appending("edit")
    static let delete = place.appending("delete")
    static let favorite = place.appending("favorite")

    static let map = SitePaths.map
    static let mapPoint = map.appending("point")

    static let settings = SitePaths.settingsPlaces
    static let settingsImport = settings.appending("import")
    static let settingsExport = SitePaths.settingsPlacesExport
    static let settingsImportStatus = settings.appending("imports").appending(.importID)

    static let api = SitePaths.apiPlaces
    static let apiPlace = api.appending(.placeID)
    static let apiFavorite = apiPlace.appending("favorite")
    static let apiExport = api.appending("export")
    static let apiImport = api.appending("import")
    static let apiCategories = SitePaths.api.appending("categories")
    static let apiCategory = apiCategories.appending(.categoryID)
    static let apiSearch = SitePaths.api.appending("search")
    static let apiNearby = apiSearch.appending("nearby")
    static let apiImports = SitePaths.api.appending("imports")
    static let apiImportStatus = apiImports.appending(.importID)
    static let apiImportRows = apiImportStatus.appending("rows")
}

extension PathParameter {
    static let commentID = PathParameter("commentID")
}

/// Comments on places: the place page's forms and the API.
enum PlaceCommentPaths {
    static let placeComments = PlacePaths.place.appending("comments")
    static let comment = PlacePaths.list.appending("comments").appending(.commentID)
    static let delete = comment.appending("delete")
    static let api = SitePaths.api.appending("placecomments")
    static let apiComment = api.appending(.commentID)
    static let apiPlaceComments = PlacePaths.apiPlace.appending("comments")
}

extension PathParameter {
    static let placePhotoID = PathParameter("placePhotoID")
}

/// Places' pictures: the place page's forms, the API, and the stored files.
enum PlacePhotoPaths {
    static let placePhotos = PlacePaths.place.appending("photos")
    static let photo = PlacePaths.list.appending("photos").appending(.placePhotoID)
    static let move = photo.appending("move")
    static let delete = photo.appending("delete")
    static let api = SitePaths.api.appending("placephotos")
    static let apiPhoto = api.appending(.placePhotoID)
    static let apiPlacePhotos = PlacePaths.apiPlace.appending("photos")
    /// A picture's file, by the name after `place-photos/` in its `new_filename`.
    static let stored = SitePaths.store.appending(PlacePhoto.folder).appending(text: .photoFile)
}

extension PathParameter {
    static let shareID = PathParameter("shareID")
    static let linkToken = PathParameter("linkToken")
}

/// Categories shared with other accounts and through public links: the owner's sharing page, a member's
/// leaving, the public page, and the API.
enum CategorySharePaths {
    static let sharing = PlacePaths.category.appending("sharing")
    static let share = sharing.appending(.shareID)
    static let revoke = share.appending("revoke")
    static let link = sharing.appending("link")
    static let revokeLink = link.appending("revoke")
    static let leave = PlacePaths.category.appending("leave")
    /// A category's public page, for anyone holding its link.
    static let publicList = SitePath("shared").appending(text: .linkToken)
    static let apiShares = PlacePaths.apiCategory.appending("shares")
    static let apiShare = apiShares.appending(.shareID)
    static let apiLink = PlacePaths.apiCategory.appending("link")
    static let apiShared = SitePaths.api.appending("sharedcategories")
    static let apiSharedCategory = apiShared.appending(.categoryID)
    static let apiSharedSync = apiSharedCategory.appending("sync")
}
