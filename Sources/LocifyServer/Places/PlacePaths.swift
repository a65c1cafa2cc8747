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
