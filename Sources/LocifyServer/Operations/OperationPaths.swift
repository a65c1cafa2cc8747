/// What operators and tools ask for.
enum OperationPaths {
    static let health = SitePaths.health
    static let openAPI = SitePath("openapi.json")
    /// The start page's "Fill with sample data", and its "Remove sample data".
    static let sampleData = SitePaths.start.appending("sample-data")
    static let sampleDataRemoval = sampleData.appending("remove")
}
