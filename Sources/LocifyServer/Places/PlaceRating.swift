/// A place's stars as pages show them.
enum PlaceRating {
    /// `★★★★☆`, for the eye; pages give `words(_:)` to screen readers.
    static func stars(_ rating: Int) -> String {
        String(repeating: "★", count: rating) + String(repeating: "☆", count: max(0, 5 - rating))
    }

    /// "4 stars", "1 star".
    static func words(_ rating: Int) -> String { rating == 1 ? "1 star" : "\(rating) stars" }
}
