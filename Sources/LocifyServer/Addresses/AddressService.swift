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
    private static let columns = AddressesTable.addressColumns

    /// One page of the owner's addresses, of one contact when `contactID` is given.
    func page(
        contactID: Int?, sort: ListSort<TimestampSortField>, page: PageSelection
    ) async throws -> ([ContactAddress], PageWindow) {
        try await database.ownedChildPage(
            table: AddressesTable.name, columns: Self.columns.names, ownerID: ownerID, contactID: contactID,
            sort: sort, page: page, read: AddressesTable.address(from:))
    }

    /// Every address of the owner, oldest first, for the map of all contacts.
    func all() async throws -> [ContactAddress] {
        let rows = try await database.plainRows(
            #"SELECT \#(Self.columns.list) FROM "addresses" WHERE "user_id" = \#(literal: ownerID) ORDER BY "id""#,
            columns: Self.columns.names)
        return try rows.map(AddressesTable.address(from:))
    }

    func address(_ id: Int) async throws -> ContactAddress {
        try await database.requireOwnedRow(
            id, ownedBy: ownerID, in: AddressesTable.self, selecting: Self.columns, read: AddressesTable.address(from:))
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
        contactID: Int?, _ draft: PostalAddressDraft, typeErrors: [FieldError] = [], coordinatesSent: Bool,
        uuid: UUID? = nil
    ) async throws -> ContactAddress {
        var problems = typeErrors
        if contactID == nil, !typeErrors.contains(where: { $0.field == "contact_id" }) {
            problems.append(FieldError(field: "contact_id", message: "Choose the contact this address belongs to."))
        }
        let address = try ValidationFailure.checking(typeErrors: problems) { () throws(ValidationFailure) in
            try draft.validated()
        }
        guard let contactID else { throw ValidationFailure(problems) }
        try await database.requireNewRecord(uuid, in: AddressesTable.self, ownedBy: ownerID)
        try await requireContact(contactID)
        let outcome = AddressGeocoding.outcome(
            saving: address, over: nil, coordinatesSent: coordinatesSent, geocoderEnabled: geocoderEnabled)
        let now = dependencies.now()
        var stored = address
        stored.coordinate = outcome.coordinate
        var values = AddressesTable.values(of: stored, geocode: outcome.geocode, now: now)
        let uuid = uuid ?? dependencies.newUUID()
        values.merge([.uuid: uuid, .owner: ownerID, .contact: contactID, .createdAt: now]) { $1 }
        let id = try await save(nil, values, lookingUp: outcome.needsLookUp ? stored : nil, now: now)
        return ContactAddress(
            id: id, uuid: uuid, ownerID: ownerID, contactID: contactID, address: stored, geocode: outcome.geocode,
            createdAt: now, updatedAt: now)
    }

    /// Changes a stored address: `change` gets it as a draft and returns the new one. `contactID` moves
    /// it to another of the owner's contacts; nil keeps its contact. `keptFields` names what `change`
    /// keeps from the stored address, for `PostalAddressDraft.validated(storedFields:)`.
    func update(
        _ id: Int, contactID: Int?, typeErrors: [FieldError] = [], coordinatesSent: Bool,
        keptFields: Set<String> = [], _ change: (PostalAddressDraft) -> PostalAddressDraft
    ) async throws -> ContactAddress {
        var updated = try await address(id)
        let before = (address: updated.address, geocode: updated.geocode)
        let address = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try change(before.address.draft).validated(storedFields: keptFields)
        }
        updated.contactID = try await database.contact(movingTo: contactID, from: updated.contactID, ownedBy: ownerID)
        let outcome = AddressGeocoding.outcome(
            saving: address, over: before, coordinatesSent: coordinatesSent, geocoderEnabled: geocoderEnabled)
        var stored = address
        stored.coordinate = outcome.coordinate
        let now = dependencies.now()
        var values = AddressesTable.values(of: stored, geocode: outcome.geocode, now: now)
        values[.contact] = updated.contactID
        try await save(id, values, lookingUp: outcome.needsLookUp ? stored : nil, now: now)
        updated.address = stored
        updated.geocode = outcome.geocode
        updated.updatedAt = now
        return updated
    }

    func delete(_ id: Int) async throws {
        try await database.write(AddressesTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] in
            try await $0.delete(id, ownedBy: ownerID)
        }
    }

    /// Stores a geocoder's answer, unless the address changed since the look-up was queued (its text
    /// is no longer `query`) or its coordinates were typed in meanwhile. Idempotent.
    func recordGeocode(addressID: Int, query: String, result: GeocodingResult?) async throws {
        guard let stored = try? await self.address(addressID) else { return }
        var address = stored.address
        guard stored.geocode.status == .pending, address.geocodingQuery.text == query else { return }
        let state: GeocodeState
        if let result {
            address.coordinate = result.coordinate
            state = GeocodeState(status: .done, precision: result.precision, source: result.source)
        } else {
            state = .notFound
        }
        // The address itself did not change, so its `updated_at` stays.
        let values = AddressesTable.values(of: address, geocode: state, now: stored.updatedAt)
        try await database.write(AddressesTable.self, ownedBy: ownerID, at: dependencies.now()) { [ownerID] in
            try await $0.update(addressID, ownedBy: ownerID, set: values)
        }
    }

    private func requireContact(_ contactID: Int) async throws {
        _ = try await database.requireContact(contactID, ownedBy: ownerID)
    }

    /// Writes the address `id` (a new one when nil) and returns its id; an address to look up (`lookingUp`)
    /// queues its geocoding in the same transaction.
    @discardableResult
    private func save(
        _ id: Int?, _ values: TableWriter<AddressesTable>.Values, lookingUp: PostalAddress?, now: Date
    ) async throws -> Int {
        let ownerID = ownerID
        @Sendable func write(on database: any Database) async throws -> Int {
            let addresses = TableWriter(AddressesTable.self, on: database)
            guard let id else { return try await addresses.insert(values) }
            try await addresses.update(id, ownedBy: ownerID, set: values)
            return id
        }
        let saved = try await database.write(ownedBy: ownerID, at: now) { transaction in
            guard let lookingUp else { return try await write(on: transaction) }
            let saved = try await write(on: transaction)
            try await JobQueue.enqueue(
                GeocodeAddressJob.self,
                GeocodeAddressJob.Payload(ownerID: ownerID, addressID: saved, query: lookingUp.geocodingQuery.text),
                dedupeKey: "geocode:\(saved):\(Int(now.timeIntervalSince1970 * 1000))", runAt: now, on: transaction)
            return saved
        }
        if lookingUp != nil { jobsQueued() }
        return saved
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
