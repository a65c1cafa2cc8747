import Fluent
import Foundation
import LocifyCore
import SQLKit

/// The policies one person agreed to.
struct ComplianceService {
    let database: any Database
    let ownerID: Int
    let dependencies: LocifyDependencies

    /// Every policy the person agreed to, oldest first.
    func signed() async throws -> [SignedPolicy] {
        let rows = try await database.plainRows(
            """
            SELECT \(SignedPoliciesTable.signedColumns.list) FROM "signed_policies" \
            WHERE "user_id" = \(literal: ownerID) ORDER BY "created_at", "id"
            """, columns: SignedPoliciesTable.signedColumns.names)
        return try rows.compactMap(SignedPoliciesTable.signedPolicy(from:))
    }

    /// Agrees to the server's current policy; agreeing again keeps the first agreement, as Monica does.
    func signCurrent(ipAddress text: String?, typeErrors: [FieldError] = []) async throws -> SignedPolicy {
        let address = try ValidationFailure.checking(typeErrors: typeErrors) { () throws(ValidationFailure) in
            try Policy.validatedAddress(text)
        }
        let policy = Policy.current
        try await TableWriter(SignedPoliciesTable.self, on: database).insert(
            [.owner: ownerID, .policy: policy.id, .ipAddress: address, .createdAt: dependencies.now()],
            onConflict: [.owner, .policy])
        guard let signed = try await signed().first(where: { $0.policy.id == policy.id }) else {
            throw AppError.notFound
        }
        return signed
    }
}
