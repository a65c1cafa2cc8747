import LocifyAPI
import LocifyCore
import Vapor

/// `GET /api/search?q=&near=`: one search over the person's places, their contacts' addresses and the
/// geocoder, each answer saying what it is. The geocoder failing leaves the other answers.
struct SearchAPIController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(SiteURL.apiSearch.pathComponents, use: search)
    }

    func search(request: Request) async throws -> DataEnvelope<[PlaceSearchResultResource]> {
        let parameters = request.queryParameters
        var problems: [FieldError] = []
        let text = parameters["q"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let folded = TextFolding.searchKey([text])
        if folded.isEmpty { problems.append(FieldError(field: "q", message: "Say what to search for (q).")) }
        var near: Coordinate?
        if let value = parameters["near"], !value.isEmpty {
            near = PlaceFilter.coordinate(value)
            if near == nil {
                problems.append(FieldError(field: "near", message: "near must be latitude,longitude, e.g. 48.85,2.35."))
            }
        }
        var limit = PlaceSearch.defaultLimit
        if let value = parameters["limit"] {
            if let number = LooseValue.integer(value), (1...PlaceSearch.maximumLimit).contains(number) {
                limit = number
            } else {
                problems.append(
                    FieldError(
                        field: "limit", message: "limit must be a whole number from 1 to \(PlaceSearch.maximumLimit)."))
            }
        }
        guard problems.isEmpty else { throw ValidationFailure(problems) }
        var hits: [PlaceSearchHit] = []
        let (places, _) = try await request.places().page(
            filter: PlaceFilter(text: text), sort: ListSort(.name),
            page: PageSelection(page: 1, limit: PlaceSearch.maximumLimit))
        hits += places.map { found in
            let fields = found.place.fields
            return PlaceSearchHit(
                kind: .place, name: fields.name, detail: fields.address, coordinate: fields.coordinate,
                placeID: found.place.id)
        }
        hits += try await addressHits(request, matching: folded)
        hits += await geocoderHits(request, text: text, near: near)
        return DataEnvelope(
            data: PlaceSearch.ranked(hits, near: near, limit: limit).map {
                PlaceSearchResultResource($0.hit, meters: $0.meters)
            })
    }

    /// The contacts' placed addresses whose text or contact's name matches.
    private func addressHits(_ request: Request, matching folded: String) async throws -> [PlaceSearchHit] {
        let addresses = try await request.addresses().all().filter { $0.address.coordinate != nil }
        let contacts = try await request.contacts().contacts(addresses.map(\.contactID))
        return addresses.compactMap { stored in
            let address = stored.address
            guard let coordinate = address.coordinate, let contact = contacts[stored.contactID] else { return nil }
            let lines = address.lines()
            guard PlaceSearch.matches(folded, in: [contact.completeName, address.label] + lines) else { return nil }
            return PlaceSearchHit(
                kind: .address, name: [contact.completeName, address.label].compactMap { $0 }.joined(separator: " · "),
                detail: lines.joined(separator: ", "), coordinate: coordinate, contactID: contact.id,
                addressID: stored.id)
        }
    }

    private func geocoderHits(_ request: Request, text: String, near: Coordinate?) async -> [PlaceSearchHit] {
        guard request.application.locifyConfig.geocoder != .off else { return [] }
        do {
            return try await request.dependencies.geocoder.search(GeocodingQuery(text: text, near: near, limit: 5)).map
            {
                PlaceSearchHit(
                    kind: .geocoder, name: $0.displayName, coordinate: $0.coordinate, precision: $0.precision,
                    source: $0.source)
            }
        } catch {
            request.logger.warning("The geocoder could not be asked: \(error)")
            return []
        }
    }
}
