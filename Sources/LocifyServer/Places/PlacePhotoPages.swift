import Foundation
import LocifyCore
import Vapor

extension FormName {
    /// A place's picture upload: its problem is shown beside the upload.
    static let placePhoto = FormName("place-photo")
}

/// A place's pictures on its page: the cover large, every picture in order with buttons to move it and
/// to delete it, and the upload.
struct PlacePhotosSection: Encodable {
    struct Card: Encodable {
        let id: Int
        let url: String
        /// Shown at most 160 pixels wide or high, in the picture's proportions, so nothing moves as it loads.
        let width: Int
        let height: Int
        let label: String
        let position: Int
        let isCover: Bool
        let isLast: Bool
        let moveURL: String
        let deleteURL: String
        /// The `position` each move button sends: first, one earlier, one later.
        let toCover: FormField
        let toEarlier: FormField
        let toLater: FormField
    }

    let cover: Card?
    let coverWidth: Int
    let coverHeight: Int
    let items: [Card]
    let uploadURL: String
    let fileField: FormField
    let isFull: Bool
    /// The owner and a shared list's editors add, move and delete pictures; its readers look.
    let canEdit: Bool

    /// `link` makes each picture's signed link.
    init(
        place: Place, photos: [PlacePhoto], maximumBytes: Int, problem: FormProblem?, canEdit: Bool = true,
        link: (PlacePhoto) -> String
    ) {
        self.canEdit = canEdit
        let name = place.fields.name
        items = photos.enumerated().map { index, photo in
            let scale = min(1, 160 / Double(max(photo.width, photo.height, 1)))
            return Card(
                id: photo.id, url: link(photo), width: max(1, Int((Double(photo.width) * scale).rounded())),
                height: max(1, Int((Double(photo.height) * scale).rounded())),
                label: index == 0 ? "Cover picture of \(name)" : "Picture \(index + 1) of \(name)",
                position: index + 1, isCover: index == 0, isLast: index == photos.count - 1,
                moveURL: PlacePhotoPaths.move(photo.id).path, deleteURL: PlacePhotoPaths.delete(photo.id).path,
                toCover: .hidden("position", value: "1"), toEarlier: .hidden("position", value: String(index)),
                toLater: .hidden("position", value: String(index + 2)))
        }
        cover = items.first
        // The cover at most 640 pixels wide, in its proportions.
        let first = photos.first
        let coverScale = first.map { min(1, 640 / Double(max($0.width, 1))) } ?? 1
        coverWidth = first.map { max(1, Int((Double($0.width) * coverScale).rounded())) } ?? 0
        coverHeight = first.map { max(1, Int((Double($0.height) * coverScale).rounded())) } ?? 0
        uploadURL = PlacePhotoPaths.placePhotos(place.id).path
        isFull = photos.count >= PlacePhoto.maximumPerPlace
        fileField = FormField(
            "photo", label: "Add a picture", control: .file, error: problem?.message(for: .placePhoto),
            hint: "JPEG, PNG, GIF or WebP, up to \(maximumBytes / (1024 * 1024)) MB; the first is the cover.",
            isRequired: true, accept: "image/jpeg,image/png,image/gif,image/webp",
            dataAttributes: [.init(name: "photo-preview", value: "place-photo-preview")]
        ).identified(as: "place-photo-file")
    }
}
