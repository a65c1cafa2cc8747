/// What operators and tools ask for.
enum OperationPaths {
    static let health = SitePaths.health
    static let openAPI = SitePath("openapi.json")
}
