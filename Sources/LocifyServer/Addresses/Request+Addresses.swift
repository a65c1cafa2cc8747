import LocifyAPI
import LocifyCore
import Vapor

extension Request {
    /// The signed-in user's addresses.
    func addresses() throws -> AddressService {
        let workers = application.jobWorkers
        return AddressService(
            database: database, ownerID: try requireUser().id, dependencies: dependencies,
            geocoderEnabled: application.locifyConfig.geocoder != .off, jobsQueued: { workers?.nudge() })
    }

    /// The body as an address input (see `jsonInput`).
    func addressInput() throws -> AddressInput {
        try jsonInput(AddressInput.self, empty: AddressInput(draft: PostalAddressDraft(), presentKeys: []))
    }

    func addressResource(_ address: ContactAddress) async throws -> AddressResource {
        try await addressResources([address])[0]
    }

    /// Each address with its contact, the contacts read in one query.
    func addressResources(_ addresses: [ContactAddress]) async throws -> [AddressResource] {
        let base = baseURL
        return try await resources(addresses, contactOf: \.contactID) { address, contact in
            AddressResource(address, url: base + AddressPaths.apiAddress(address.id).path, contact: contact)
        }
    }
}
