import Foundation

/// The fields a place list sorts by: `name`, `distance` (needs `near`), `created_at` and `rating` (a place
/// without one counts as none, below one star), `-` for descending.
public enum PlaceSortField: String, CaseIterable, Sendable {
    case name
    case distance
    case createdAt = "created_at"
    case rating
}

/// Which places a list shows: by category, favorites, text, distance from a point, or a map's box.
public struct PlaceFilter: Equatable, Sendable {
    public var categoryID: Int?
    public var favorite: Bool?
    /// At least this many stars.
    public var minimumRating: Int?
    /// Folded like `PlaceFields.searchKey`, so the match ignores case and accents.
    public var text: String?
    public var near: Coordinate?
    public var withinKilometers: Double?
    public var box: Geo.BoundingBox?

    public init(
        categoryID: Int? = nil, favorite: Bool? = nil, minimumRating: Int? = nil, text: String? = nil,
        near: Coordinate? = nil, withinKilometers: Double? = nil, box: Geo.BoundingBox? = nil
    ) {
        self.categoryID = categoryID
        self.favorite = favorite
        self.minimumRating = minimumRating
        self.text = text.map { TextFolding.searchKey([$0]) }.flatMap { $0.isEmpty ? nil : $0 }
        self.near = near
        self.withinKilometers = withinKilometers
        self.box = box
    }

    /// The filter in a list's query parameters (`category_id`, `favorite`, `min_rating`, `q`, `near=lat,lon`,
    /// `within_km`, `bbox=west,south,east,north`), every problem reported at once. A `bbox` whose west
    /// edge is east of its east edge crosses the antimeridian. An empty `near`, `bbox` or `q` is no
    /// filter; an empty number or boolean is a problem, as any other value that is not one.
    public init(parameters: [String: String]) throws(ValidationFailure) {
        var check = FieldChecker()
        var categoryID: Int?
        if let text = parameters["category_id"] {
            categoryID = LooseValue.integer(text)
            if categoryID == nil { check.fail("category_id", "category_id must be a category's id.") }
        }
        var favorite: Bool?
        if let text = parameters["favorite"] {
            // Empty is "no" for a form's checkbox, but a filter left empty says nothing.
            favorite = text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : LooseValue.boolean(text)
            if favorite == nil { check.fail("favorite", "favorite must be true or false.") }
        }
        var minimumRating: Int?
        if let text = parameters["min_rating"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            minimumRating = LooseValue.integer(text)
            if let stars = minimumRating, !PlaceDraft.ratings.contains(stars) { minimumRating = nil }
            if minimumRating == nil { check.fail("min_rating", "min_rating must be a number of stars from 1 to 5.") }
        }
        var near: Coordinate?
        if let text = parameters["near"], !text.isEmpty {
            near = Self.coordinate(text)
            if near == nil {
                check.fail("near", "near must be latitude,longitude (from -90 to 90 and -180 to 180), e.g. 48.85,2.35.")
            }
        }
        var within: Double?
        if let text = parameters["within_km"] {
            within = LooseValue.number(text)
            // Without near there is nothing to measure from, and the filter stays as wide as without it.
            if let value = within, value > 0, value <= 20_040 {
                if near == nil { within = nil }
            } else {
                within = nil
                check.fail("within_km", "within_km must be a distance in kilometres, above 0 and at most 20040.")
            }
        }
        var box: Geo.BoundingBox?
        if let text = parameters["bbox"], !text.isEmpty {
            box = Self.box(text)
            if box == nil {
                check.fail("bbox", "bbox must be west,south,east,north in degrees, south below north.")
            }
        }
        guard check.errors.isEmpty else { throw ValidationFailure(check.errors) }
        self.init(
            categoryID: categoryID, favorite: favorite, minimumRating: minimumRating, text: parameters["q"], near: near,
            withinKilometers: within, box: box)
    }

    /// Whether `place` passes every part of the filter (the database narrows first; this is exact).
    public func matches(_ place: Place) -> Bool {
        if let categoryID, place.categoryID != categoryID { return false }
        if let favorite, place.fields.isFavorite != favorite { return false }
        if let minimumRating, (place.fields.rating ?? 0) < minimumRating { return false }
        if let text, !place.fields.searchKey.contains(text) { return false }
        return contains(place.fields.coordinate)
    }

    /// Whether a place at `coordinate` passes the position parts of the filter (the box, the distance).
    public func contains(_ coordinate: Coordinate) -> Bool {
        if let box, !box.contains(coordinate) { return false }
        if let near, let withinKilometers, Geo.distance(near, coordinate) > withinKilometers * 1000 { return false }
        return true
    }

    /// The box every place the filter passes lies in, for the database's index: the `bbox` itself, or the
    /// box around `near` for `within_km`.
    public var boxes: [Geo.BoundingBox] {
        var result: [Geo.BoundingBox] = []
        if let box { result.append(box) }
        if let near, let withinKilometers {
            result.append(Geo.boundingBox(around: near, radius: withinKilometers * 1000))
        }
        return result
    }

    /// `latitude,longitude` in degrees, range-checked; nil when it is not that.
    public static func coordinate(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return Coordinate(
            validLatitude: LooseValue.decimal(String(parts[0])), longitude: LooseValue.decimal(String(parts[1])))
    }

    static func box(_ text: String) -> Geo.BoundingBox? {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            LooseValue.decimal(String($0))
        }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2],
            let north = numbers[3], Coordinate.isLongitude(west), Coordinate.isLongitude(east),
            Coordinate.isLatitude(south), Coordinate.isLatitude(north)
        else { return nil }
        // Latitudes have no wrap-around: south and north given the other way round are the same box.
        return Geo.BoundingBox(
            minLatitude: min(south, north), maxLatitude: max(south, north), minLongitude: west, maxLongitude: east,
            crossesAntimeridian: west > east)
    }
}
