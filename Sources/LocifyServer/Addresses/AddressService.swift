import Fluent
import Foundation
import LocifyCore
import SQLKit

/// Addresses of one owner, in the shape of `ContactService`: owner-scoped queries, Core values in and
/// out, no HTTP. Saving an address without coordinates queues a geocoding job in the same transaction.
struct AddressService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies
    /// False when `LOCIFY_GEOCODER=off`: addresses keep the coordinates they are given, and no others.
    let geocoderEnabled: Bool
    /// Wakes the job workers after a commit that queued work.
    let jobsQueued: @Sendable () -> Void

    static let defaultSort = ListSort(TimestampSortField.createdAt)

    /// One page of the owner's addresses, of one contact when `contactID` is given.
    func page(
        contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection
    ) async throws -> ([ContactAddress], PageWindow) {
        try await database.ownedChildPage(
            table: "addresses", columns: AddressRows.columns, ownerID: ownerID, contactID: contactID, sort: sort,
            page: page,
            read: AddressRows.address(from:))
    }

    /// Every address of the owner, oldest first, for the map of all contacts.
    func all() async throws -> [ContactAddress] {
        let rows = try await database.plainRows(
            #"SELECT \#(AddressRows.columnList()) FROM "addresses" WHERE "user_id" = \#(literal: ownerID) ORDER BY "id""#,
            columns: AddressRows.columns)
        return try rows.map(AddressRows.address(from:))
    }

    func address(_ id: Int) async throws -> ContactAddress {
        let rows = try await database.plainRows(
            """
            SELECT \(AddressRows.columnList()) FROM "addresses" \
            WHERE "user_id" = \(literal: ownerID) AND "id" = \(literal: id)
            """, columns: AddressRows.columns)
        guard let row = rows.first else { throw AppError.notFound }
        return try AddressRows.address(from: row)
    }

    /// The country of the owner's most recently saved address: a new address's form starts there.
    func lastUsedCountry() async throws -> String? {
        let rows = try await database.plainRows(
            """
            SELECT "country" FROM "addresses" WHERE "user_id" = \(literal: ownerID) AND "country" IS NOT NULL \
            ORDER BY "updated_at" DESC, "id" DESC LIMIT 1
            """, columns: ["country"])
        return try rows.first?.text(0)
    }

    /// Creates an address for one of the owner's contacts. A missing contact is reported with the
    /// other problems; another account's contact is as absent as a missing one (404).
    func create(
        contactID: Int?, _ draft: PostalAddressDraft, typeErrors: [FieldError] = [], coordinatesSent: Bool
    ) async throws -> ContactAddress {
        var problems = typeErrors
        if contactID == nil, !typeErrors.contains(where: { $0.field == "contact_id" }) {
            problems.append(FieldError(field: "contact_id", message: "Choose the contact this address belongs to."))
        }
        let address = try ValidationFailure.checking(typeErrors: problems) { () throws(ValidationFailure) in
            try draft.validated()
        }
        guard let contactID else { throw ValidationFailure(problems) }
        try await requireContact(contactID)
        let outcome = AddressGeocoding.outcome(
            saving: address, over: nil, coordinatesSent: coordinatesSent, geocoderEnabled: geocoderEnabled)
        let now = dependencies.now()
        let model = AddressModel(ownerID: ownerID, contactID: contactID, uuid: dependencies.newUUID(), now: now)
        var stored = address
        stored.coordinate = outcome.coordinate
        model.apply(stored, geocode: outcome.geocode, now: now)
        try await save(model, lookingUp: outcome.needsLookUp, now: now)
        return try model.value()
    }

    /// Changes a stored address: `change` gets it as a draft and returns the new one. `contactID` moves
    /// it to another of the owner's contacts; nil keeps its contact. `keptFields` names what `change`
    /// keeps from the stored address, for `PostalAddressDraft.validated(storedFields:)`.
    func update(
        _ id: Int, contactID: Int?, typeErrors: [FieldError] = [], coordinatesSent: Bool,
        keptFields: Set<String> = [], _ change: (PostalAddressDraft) -> PostalAddressDraft
    ) async throws -> ContactAddress {
        let model = try await AddressModel.requireOwned(id, by: ownerID, on: database)
        let before = (address: model.address, geocode: model.geocode)
        let address = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(before.address.draft).validated(storedFields: keptFields)
        }
        if let contactID, contactID != model.$contact.id {
            try await requireContact(contactID)
            model.$contact.id = contactID
        }
        let outcome = AddressGeocoding.outcome(
            saving: address, over: before, coordinatesSent: coordinatesSent, geocoderEnabled: geocoderEnabled)
        var stored = address
        stored.coordinate = outcome.coordinate
        let now = dependencies.now()
        model.apply(stored, geocode: outcome.geocode, now: now)
        try await save(model, lookingUp: outcome.needsLookUp, now: now)
        return try model.value()
    }

    func delete(_ id: Int) async throws {
        try await AddressModel.requireOwned(id, by: ownerID, on: database).delete(on: database)
    }

    /// Stores a geocoder's answer, unless the address changed since the look-up was queued (its text
    /// is no longer `query`) or its coordinates were typed in meanwhile. Idempotent.
    func recordGeocode(addressID: Int, query: String, result: GeocodingResult?) async throws {
        guard let model = try await AddressModel.owned(by: ownerID, on: database).filter(\.$id == addressID).first()
        else { return }
        var address = model.address
        guard model.geocode.status == .pending, address.geocodingQuery.text == query else { return }
        let state: GeocodeState
        if let result {
            address.coordinate = result.coordinate
            state = GeocodeState(status: .done, precision: result.precision, source: result.source)
        } else {
            state = .notFound
        }
        // The address itself did not change, so its `updated_at` stays.
        model.apply(address, geocode: state, now: model.updatedAt)
        try await model.save(on: database)
    }

    private func requireContact(_ contactID: Int) async throws {
        _ = try await ContactModel.requireOwned(contactID, by: ownerID, on: database)
    }

    private func save(_ model: AddressModel, lookingUp: Bool, now: Date) async throws {
        guard lookingUp else {
            try await model.save(on: database)
            return
        }
        try await database.transaction { transaction in
            try await model.save(on: transaction)
            let id = try model.requireID()
            try await JobQueue.enqueue(
                GeocodeAddressJob.self,
                GeocodeAddressJob.Payload(ownerID: ownerID, addressID: id, query: model.address.geocodingQuery.text),
                dedupeKey: "geocode:\(id):\(Int(now.timeIntervalSince1970 * 1000))", runAt: now, on: transaction)
        }
        jobsQueued()
    }
}

/// Looks up an address's coordinates with the configured geocoder, after the response that saved it.
struct GeocodeAddressJob: JobHandler {
    struct Payload: Codable, Sendable {
        let ownerID: Int
        let addressID: Int
        /// The text looked up: a result for older text is not stored.
        let query: String
    }

    static let kind = "geocode-address"
    static let maximumAttempts = 8

    func run(_ payload: Payload, context: JobContext) async throws {
        let service = AddressService(
            database: context.database, ownerID: payload.ownerID, dependencies: context.dependencies,
            geocoderEnabled: true, jobsQueued: {})
        // An address deleted, placed by hand or edited since is left alone: its own save queued what it needs.
        let stored = try? await service.address(payload.addressID)
        guard let stored, stored.geocode.status == .pending, stored.address.geocodingQuery.text == payload.query
        else { return }
        do {
            try await locate(stored.address.geocodingQuery, payload: payload, service: service, context: context)
        } catch  where context.attempt >= Self.maximumAttempts {
            // No attempt is left: the address is not "being located" forever; its page offers to place the
            // pin by hand. The job itself still ends as failed, with its error, for the administrator.
            try await service.recordGeocode(addressID: payload.addressID, query: payload.query, result: nil)
            throw error
        }
    }

    private func locate(
        _ query: GeocodingQuery, payload: Payload, service: AddressService, context: JobContext
    ) async throws {
        // An outside geocoder's answers are kept, so the same text is sent to it once.
        guard context.config.geocoder == .nominatim else {
            let results = try await context.dependencies.geocoder.search(query)
            return try await service.recordGeocode(
                addressID: payload.addressID, query: payload.query, result: results.first)
        }
        let cache = GeocodeCache(database: context.database)
        let key = GeocodeCache.key(for: query, source: NominatimResults.source)
        let answer: GeocodeCache.Answer
        if let kept = try await cache.answer(for: key) {
            answer = kept
        } else {
            answer = try await context.dependencies.geocoder.search(query).first.map { .found($0) } ?? .nothing
            try await cache.keep(answer, for: key, now: context.dependencies.now())
        }
        let result: GeocodingResult? =
            switch answer {
            case .found(let result): result
            case .nothing: nil
            }
        try await service.recordGeocode(addressID: payload.addressID, query: payload.query, result: result)
    }
}
