/// What operators and tools ask for.
enum OperationPaths {
    static let health = SitePaths.health
    /// Whether the server answers at all, without asking the database: the offline app's check before
    /// it sends a form (a busy database is not a missing server), and a load balancer's liveness probe.
    static let liveness = SitePaths.liveness
    /// Whether this instance can serve: its database answers and holds every migration it expects.
    static let readiness = SitePaths.health.appending("ready")
    /// Prometheus' scrape, behind `LOCIFY_METRICS_TOKEN`.
    static let metrics = SitePath("metrics")
    static let openAPI = SitePath("openapi.json")
    /// The start page's "Fill with sample data", and its "Remove sample data".
    static let sampleData = SitePaths.start.appending("sample-data")
    static let sampleDataRemoval = sampleData.appending("remove")
}
