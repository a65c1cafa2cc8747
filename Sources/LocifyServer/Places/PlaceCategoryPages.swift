import Foundation
import LocifyCore
import Vapor

enum PlaceCategoriesPage {
    struct Row: Encodable {
        let id: Int
        let name: String
        let count: Int
        let url: String
        let renameURL: String
        let deleteURL: String
        /// The inline rename field, with its problem when a rename was refused.
        let field: FormField
        let renameOffline: OfflineForm
        let sharingURL: String
    }

    /// A category someone else shares with the person: whose, what they may do, and leaving it.
    struct SharedRow: Encodable {
        let id: Int
        let name: String
        let ownerName: String
        let roleWords: String
        let count: Int
        let url: String
        let leaveURL: String

        init(_ shared: CategorySharing.SharedCategory) {
            id = shared.category.id
            name = shared.category.name
            ownerName = shared.ownerName
            roleWords = shared.role.words
            count = shared.placesCount
            url = PlacePaths.category(id).path
            leaveURL = CategorySharePaths.leave(id).path
        }
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let favoritesCount: Int
        let favoritesURL: String
        let categories: [Row]
        let shared: [SharedRow]
        let placesCount: Int
        let newCategory: FormField
        let createURL: String
        let createOffline = OfflineForm(.create, of: .category, summary: "New category", then: SitePaths.places.path)
        let newPlaceURL: String
        let importExportURL: String

        init(
            categories: [(PlaceCategory, Int)], favorites: Int, shared: [CategorySharing.SharedCategory] = [],
            errors: FieldMessages = [:], typedName: String? = nil,
            renaming: (id: Int, name: String, errors: FieldMessages)? = nil, session: PageSession
        ) {
            layout = LayoutContext(title: "Places", section: .places, session: session)
            favoritesCount = favorites
            favoritesURL = PlacePaths.favorites.path
            self.shared = shared.map(SharedRow.init)
            self.categories = categories.map { category, count in
                let isRenamed = renaming?.id == category.id
                return Row(
                    id: category.id, name: category.name, count: count, url: PlacePaths.category(category.id).path,
                    renameURL: PlacePaths.renameCategory(category.id).path,
                    deleteURL: PlacePaths.deleteCategory(category.id).path,
                    field: FormField(
                        "name", label: "New name for \(category.name)",
                        value: isRenamed ? renaming?.name : category.name,
                        errors: isRenamed ? renaming?.errors ?? [:] : [:],
                        maxLength: PlaceCategory.maximumNameLength
                    ).identified(as: "category-\(category.id)-name"),
                    renameOffline: OfflineForm(
                        .update, of: .category, id: category.id, summary: "Renaming “\(category.name)”",
                        then: SitePaths.places.path),
                    sharingURL: CategorySharePaths.sharing(category.id).path)
            }
            placesCount = categories.reduce(0) { $0 + $1.1 }
            newCategory = FormField(
                "name", label: "New category", value: typedName, errors: errors, isRequired: true,
                maxLength: PlaceCategory.maximumNameLength)
            createURL = PlacePaths.categories.path
            newPlaceURL = PlacePaths.new.path
            importExportURL = SitePaths.settingsPlaces.path
        }
    }
}

/// `GET /places/categories/{id}/delete`: where the category's places go, then the deletion.
enum DeletePlaceCategoryPage {
    struct Context: Encodable {
        let layout: LayoutContext
        let name: String
        let count: Int
        let deleteURL: String
        let cancelURL: String
        let target: FormField?
        let isLast: Bool

        init(
            category: PlaceCategory, count: Int, others: [PlaceCategory], errors: FieldMessages = [:],
            session: PageSession
        ) {
            layout = LayoutContext(title: "Delete “\(category.name)”?", section: .places, session: session)
            name = category.name
            self.count = count
            deleteURL = PlacePaths.deleteCategory(category.id).path
            cancelURL = SitePaths.places.path
            isLast = others.isEmpty
            target =
                count == 0 || others.isEmpty
                ? nil
                : FormField(
                    "move_to", label: "Move its \(count) place\(count == 1 ? "" : "s") to", control: .select,
                    errors: errors, isRequired: true,
                    options: SelectOption.categories(others, chosen: nil, none: "Choose a category"))
        }
    }
}

/// `GET /places/categories/{id}` and `GET /places/favorites`: the places, searched, sorted, near a
/// point, and on a map.
