/// What operators and tools ask for.
enum OperationPaths {
    static let health = SitePath("health")
    static let openAPI = SitePath("openapi.json")
}
