extension PathParameter {
    static let policyID = PathParameter("policyID")
}

/// Monica's compliance routes: the server's policies (public) and the signed-in person's agreements.
enum CompliancePaths {
    static let policies = SitePaths.api.appending("compliance")
    static let policy = policies.appending(.policyID)
    static let signed = SitePaths.apiMe.appending("compliance")
    static let signedPolicy = signed.appending(.policyID)
}
