import Foundation
import LocifyCore

/// The policies each person agreed to (Monica's `term_user`); they go with the account.
enum SignedPoliciesTable: StoredTable {
    static let name = "signed_policies"

    enum Column: String, CaseIterable, Sendable {
        case id
        case owner = "user_id"
        /// One of `Policy.all`'s ids.
        case policy = "policy_id"
        case ipAddress = "ip_address"
        case createdAt = "created_at"
    }

    static let signedColumns = selection([.policy, .ipAddress, .createdAt])

    /// A signature of a policy the server still has; nil for one it no longer knows.
    static func signedPolicy(from row: PlainRow) throws -> SignedPolicy? {
        guard let policy = Policy.policy(try row.requiredInteger(0)) else { return nil }
        return SignedPolicy(policy: policy, signedAt: try row.requiredDate(2), ipAddress: try row.text(1))
    }
}
