/// The sync feed.
enum SyncPaths {
    static let api = SitePaths.api.appending("sync")
}
