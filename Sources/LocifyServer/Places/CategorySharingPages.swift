import Foundation
import LocifyCore
import Vapor

/// `GET /places/categories/{id}/sharing`: whom the owner shares a category with and what each may do,
/// the invitation by e-mail, and the public link.
enum CategorySharingPage {
    struct MemberRow: Encodable {
        let id: Int
        let name: String
        let email: String
        let roleWords: String
        let changeURL: String
        let revokeURL: String
        let accessField: FormField
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let categoryName: String
        let categoryURL: String
        let members: [MemberRow]
        let inviteURL: String
        let emailField: FormField
        let accessField: FormField
        /// The public page's address, when the category has one.
        let publicURL: String?
        let publicField: FormField?
        let makeLinkURL: String
        let revokeLinkURL: String

        init(
            category: PlaceCategory, members: [CategorySharing.Member], publicURL: String?, errors: FieldMessages = [:],
            typedEmail: String? = nil, typedAccess: String? = nil, session: PageSession
        ) {
            heading = "Share “\(category.name)”"
            layout = LayoutContext(title: heading, section: .places, session: session)
            categoryName = category.name
            categoryURL = PlacePaths.category(category.id).path
            self.members = members.map { member in
                let share = member.share
                return MemberRow(
                    id: share.id, name: member.name, email: member.email, roleWords: share.role.words,
                    changeURL: CategorySharePaths.share(category.id, share.id).path,
                    revokeURL: CategorySharePaths.revoke(category.id, share.id).path,
                    accessField: CategorySharingPage.access(
                        label: "What \(member.name) may do", chosen: share.canEdit ? "edit" : "read"
                    ).identified(as: "share-\(share.id)-access"))
            }
            inviteURL = CategorySharePaths.sharing(category.id).path
            emailField = FormField(
                "email", label: "Their e-mail address", control: .email, value: typedEmail, errors: errors,
                hint: "The address of their account on this server.", isRequired: true, autocomplete: "email")
            accessField = CategorySharingPage.access(label: "They may", chosen: typedAccess ?? "read", errors: errors)
            self.publicURL = publicURL
            publicField = publicURL.map {
                FormField(
                    "public_link", label: "Public link", value: $0,
                    hint: "Anyone with this link sees the category's places on a map, without an account.",
                    isReadOnly: true)
            }
            makeLinkURL = CategorySharePaths.link(category.id).path
            revokeLinkURL = CategorySharePaths.revokeLink(category.id).path
        }
    }

    /// The read-or-edit choice, sent as `access`.
    static func access(label: String, chosen: String, errors: FieldMessages = [:]) -> FormField {
        FormField(
            "access", label: label, control: .select, errors: errors,
            options: [("read", "Read and comment"), ("edit", "Also add and edit places")].map {
                SelectOption(value: $0.0, label: $0.1, isSelected: $0.0 == chosen)
            })
    }
}

/// `GET /shared/{token}`: a category's places on a map for anyone holding its link: names, addresses,
/// ratings and notes, nothing of the owner's account.
enum PublicPlaceListPage {
    struct Row: Encodable {
        let name: String
        let address: String?
        let stars: String?
        let ratingWords: String?
        let notes: String?
        let coverURL: String?
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let heading: String
        let summary: String
        let places: [Row]
        let map: MapView

        init(
            category: PlaceCategory, places: [Place], coverURLs: [Int: String], tilesEnabled: Bool, session: PageSession
        ) {
            heading = category.name
            layout = LayoutContext(title: category.name, section: .places, session: session)
            summary = "\(places.count) place\(places.count == 1 ? "" : "s")."
            self.places = places.map {
                Row(
                    name: $0.fields.name, address: $0.fields.address, stars: $0.fields.rating.map(PlaceRating.stars),
                    ratingWords: $0.fields.rating.map(PlaceRating.words), notes: $0.fields.notes,
                    coverURL: coverURLs[$0.id])
            }
            map = MapView(
                id: "places-map", label: "Map of \(category.name)",
                markers: places.map {
                    MapView.Marker(
                        lat: $0.fields.coordinate.latitude, lon: $0.fields.coordinate.longitude, label: $0.fields.name,
                        detail: $0.fields.address, url: nil, linkText: nil, layer: "places",
                        approximately: $0.fields.coordinatePrecision, around: $0.fields.approximateArea)
                },
                tilesEnabled: tilesEnabled)
        }
    }
}
