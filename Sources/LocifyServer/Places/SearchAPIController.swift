import LocifyAPI
import LocifyCore
import Vapor

/// `GET /api/search?q=&near=`: one search over the person's places, their contacts' addresses and the
/// geocoder, each answer saying what it is. The geocoder failing leaves the other answers.
struct SearchAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(PlacePaths.apiSearch, use: search)
        routes.get(PlacePaths.apiNearby, use: nearby)
    }

    /// `GET /api/search/nearby?near=lat,lon[&q=][&limit=]`: what a place being added at a point may be,
    /// nearest first, each with the category a place of its kind goes to.
    func nearby(request: Request) async throws -> DataEnvelope<[PlaceSearchResultResource]> {
        let parameters = request.queryParameters
        var problems: [FieldError] = []
        let near = parameters["near"].flatMap(PlaceFilter.coordinate)
        if near == nil {
            problems.append(
                FieldError(field: "near", message: "Say where to look (near=latitude,longitude, e.g. 48.85,2.35)."))
        }
        let limit = Self.limit(parameters["limit"], problems: &problems)
        guard let near, problems.isEmpty else { throw ValidationFailure(problems) }
        let text = parameters["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let found = await request.suggestions(near: near, text: text, limit: limit)
        return DataEnvelope(data: try await request.searchResources(found))
    }

    private static func limit(_ value: String?, problems: inout [FieldError]) -> Int {
        guard let value else { return PlaceSearch.defaultLimit }
        if let number = LooseValue.integer(value), (1...PlaceSearch.maximumLimit).contains(number) { return number }
        problems.append(
            FieldError(field: "limit", message: "limit must be a whole number from 1 to \(PlaceSearch.maximumLimit)."))
        return PlaceSearch.defaultLimit
    }

    func search(request: Request) async throws -> DataEnvelope<[PlaceSearchResultResource]> {
        let parameters = request.queryParameters
        var problems: [FieldError] = []
        let text = parameters["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // Only a missing q is refused: text without a letter or digit in it simply finds nothing.
        if (parameters["q"] ?? "").isEmpty {
            problems.append(FieldError(field: "q", message: "Say what to search for (q)."))
        }
        var near: Coordinate?
        if let value = parameters["near"], !value.isEmpty {
            near = PlaceFilter.coordinate(value)
            if near == nil {
                problems.append(FieldError(field: "near", message: "near must be latitude,longitude, e.g. 48.85,2.35."))
            }
        }
        let limit = Self.limit(parameters["limit"], problems: &problems)
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        let found = try await request.searchEverywhere(text, near: near, limit: limit)
        return DataEnvelope(data: try await request.searchResources(found))
    }
}

extension Request {
    /// The answers as the API gives them, each with the category a place of its kind goes to. The
    /// categories are read only when an answer says what kind of place it is.
    func searchResources(_ found: [(hit: PlaceSearchHit, meters: Double?)]) async throws
        -> [PlaceSearchResultResource]
    {
        let categories =
            found.contains { $0.hit.placeKind != nil }
            ? try await places().categories().categories.map(\.0) : []
        return found.map { hit, meters in
            PlaceSearchResultResource(
                hit, meters: meters,
                suggestedCategoryID: hit.placeKind.flatMap { PlaceCategory.suggested(forKind: $0, among: categories) }?
                    .id)
        }
    }

    /// What a place being added at `point` may be, nearest first: the configured geocoder's answers for
    /// `text` near the point, or without text the named places around it; and, whatever the geocoder is
    /// (Nominatim, off, or down), the bundled gazetteer's towns, which need nothing outside this server.
    func suggestions(near point: Coordinate, text: String, limit: Int) async -> [(hit: PlaceSearchHit, meters: Double?)]
    {
        var hits: [PlaceSearchHit] = []
        let configured = application.locifyConfig.geocoder
        if !text.isEmpty {
            hits += await geocoderHits(text: text, near: point, limit: limit)
        } else if configured != .off {
            do {
                hits += try await dependencies.geocoder.nearby(point, limit: limit).map(PlaceSearchHit.init(geocoded:))
            } catch {
                logger.warning("The geocoder could not be asked: \(error)")
            }
        }
        if configured != .gazetteer {
            let offline = BundledGeocoder()
            let found =
                text.isEmpty
                ? (try? await offline.nearby(point, limit: limit))
                : (try? await offline.search(GeocodingQuery(text: text, near: point, limit: limit)))
            hits += (found ?? []).map(PlaceSearchHit.init(geocoded:))
        }
        return PlaceSearch.ranked(hits, near: point, limit: limit)
    }
}

extension PlaceSearchHit {
    /// A geocoder's answer.
    init(geocoded result: GeocodingResult) {
        self.init(
            kind: .geocoder, name: result.displayName, coordinate: result.coordinate, precision: result.precision,
            source: result.source, placeKind: result.placeKind)
    }
}

extension Request {
    /// The one search of the API and the map page: the person's places, their contacts' placed addresses
    /// and the geocoder, ranked by `PlaceSearch.ranked`. The geocoder failing leaves the other answers.
    func searchEverywhere(_ text: String, near: Coordinate?, limit: Int) async throws
        -> [(hit: PlaceSearchHit, meters: Double?)]
    {
        let folded = TextFolding.searchKey([text])
        guard !folded.isEmpty else { return [] }
        var hits: [PlaceSearchHit] = []
        let (places, _) = try await places().page(
            filter: PlaceFilter(text: text), sort: ListSort(.name),
            page: PageSelection(page: 1, limit: PlaceSearch.maximumLimit))
        hits += places.map { found in
            let fields = found.place.fields
            return PlaceSearchHit(
                kind: .place, name: fields.name, detail: fields.address, coordinate: fields.coordinate,
                placeID: found.place.id)
        }
        hits += try await addressHits(matching: folded)
        hits += await geocoderHits(text: text, near: near)
        return PlaceSearch.ranked(hits, near: near, limit: limit)
    }

    /// The contacts' placed addresses whose text or contact's name matches.
    private func addressHits(matching folded: String) async throws -> [PlaceSearchHit] {
        let addresses = try await addresses().all().filter { $0.address.coordinate != nil }
        let contacts = try await contacts().contacts(addresses.map(\.contactID))
        return addresses.compactMap { stored in
            let address = stored.address
            guard let coordinate = address.coordinate, let contact = contacts[stored.contactID] else { return nil }
            let lines = address.lines()
            guard PlaceSearch.matches(folded, in: [contact.completeName, address.label] + lines) else { return nil }
            return PlaceSearchHit(
                kind: .address, name: [contact.completeName, address.label].compactMap { $0 }.joined(separator: " · "),
                detail: lines.joined(separator: ", "), coordinate: coordinate, contactID: contact.id,
                addressID: stored.id, precision: stored.geocode.precision, source: stored.geocode.source)
        }
    }

    /// The geocoder's answers; none when it is off or fails.
    func geocoderHits(text: String, near: Coordinate?, limit: Int = 5) async -> [PlaceSearchHit] {
        guard application.locifyConfig.geocoder != .off else { return [] }
        do {
            return try await dependencies.geocoder.search(GeocodingQuery(text: text, near: near, limit: limit)).map(
                PlaceSearchHit.init(geocoded:))
        } catch {
            logger.warning("The geocoder could not be asked: \(error)")
            return []
        }
    }
}
