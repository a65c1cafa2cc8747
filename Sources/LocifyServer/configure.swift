import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Leaf
import LeafKit
import LocifyAPI
import Vapor

/// Sets up the application: storage, middleware, views and routes. Does not run migrations or start
/// the server; the caller decides.
public func configure(_ app: Application, config: LocifyConfig, dependencies: LocifyDependencies? = nil) async throws {
    app.locifyConfig = config
    app.dependencies = dependencies ?? .live(config)
    app.basemapTiles = BasemapTiles()
    app.tileCache = TileCache(directory: config.dataDirectory.appendingPathComponent("tiles", isDirectory: true))
    app.mapAreaArchives = MapAreaArchives(
        directory: config.dataDirectory.appendingPathComponent("map-areas", isDirectory: true))
    app.tokenCache = TokenCache()
    app.pictureLinks = PictureLinks()
    app.pictureCache = PictureCache()
    app.revisionAnswers = RevisionAnswers()
    let cpuWork = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
    cpuWork.start()
    app.cpuWork = cpuWork
    app.lifecycle.use(CPUWorkLifecycle())
    app.http.server.configuration.hostname = config.host
    app.http.server.configuration.port = config.port
    // No client of this API compresses what it sends; the decompressor would only cost every request.
    app.http.server.configuration.requestDecompression = .disabled
    // Vapor collects at most 16 kB by default; a contact's 10,000-character description in JSON escapes
    // needs more. Uploads raise their own limit.
    app.routes.defaultMaxBodySize = "1mb"
    if let path = config.basemapFilePath {
        app.basemapFile = try await openBasemapFile(
            path: path, threadPool: app.threadPool, on: app.eventLoopGroup.any())
        app.lifecycle.use(BasemapFileLifecycle())
    }
    try await registerDatabase(app, config: config)
    registerMigrations(app)
    try registerViews(app)
    // Routes first: the 405 middleware reads them.
    try registerRoutes(app)
    registerMiddleware(app)
    if config.preloadsGazetteer {
        app.lifecycle.use(GazetteerPreloader())
    }
    if config.metricsToken != nil { ServerMetrics.start() }
    app.gravatarRefresher = GravatarRefresher()
    app.jobHandlers = [
        RegisteredJob(GeocodeAddressJob()), RegisteredJob(DeliverNotificationJob()), RegisteredJob(GravatarLookUpJob()),
        RegisteredJob(PlaceImportJob()),
    ]
    app.periodicTasks = [
        .planningNotifications(in: app), .sweepingGravatars(in: app), .purgingTombstones(in: app),
        .pruningFinishedWork(in: app), .pruningDeliveryLog(in: app),
    ]
    app.syncedTypes = [
        .gender, .contactFieldType, .tag, .category, .company, .contact, .address, .contactField, .note, .task,
        .reminder, .photo, .document, .contactTag, .place, .placePhoto, .placeComment, .call, .journalEntry,
        .relationship, .debt,
        .gift, .pet,
        .lifeEvent,
        .conversation, .occupation, .activityTypeCategory, .activityType, .activity,
    ]
    app.offlinePages = [
        .gender, .contactFieldType, .tag, .category, .company, .contact, .address, .contactField, .note, .task,
        .reminder, .photo, .document, .contactTag, .place, .placePhoto, .placeComment, .call, .journalEntry,
        .relationship, .debt,
        .gift, .pet,
        .lifeEvent,
        .conversation, .occupation, .activityTypeCategory, .activityType, .activity,
    ]
    app.offlineSharedFeeds = .sharedCategories
    app.navigationCounters = [.remindersDueToday, .unreadNotifications]
    if config.workers > 0 {
        let workers = JobWorkers(count: config.workers)
        app.jobWorkers = workers
        app.lifecycle.use(workers)
    }
}

private func registerDatabase(_ app: Application, config: LocifyConfig) async throws {
    switch config.storage {
    case .sqlite(let path):
        if let path {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            app.databases.use(.sqlite(.file(path), sqlLogLevel: .debug), as: .sqlite)
        } else {
            app.databases.use(.sqlite(.memory, sqlLogLevel: .debug), as: .sqlite)
        }
        // WAL lets readers run while a write is in progress; the setting stays with the file.
        if let sql = app.db as? any SQLDatabase, path != nil {
            _ = try await sql.raw("PRAGMA journal_mode=WAL").all()
        }
        try await applyConnectionSettings(app)
        app.lifecycle.use(KeptStatementsLifecycle())
    case .postgres(let url):
        try app.databases.use(
            .postgres(
                url: url, maxConnectionsPerEventLoop: LocifyConfig.postgresConnectionsPerEventLoop, sqlLogLevel: .debug),
            as: .psql)
    }
}

/// SQLite here is built with SECURE_DELETE, which writes zeros over every page it frees. The places'
/// trigram index frees thousands of pages as it merges its segments during an import, and all that
/// writing is done holding the one write lock. FAST still clears deleted content from every page written
/// anyway, and leaves freed pages to be reused: in runs taking turns, the p99 of other writes during a
/// 100,000-place import fell from 89–102 ms to 64–75 ms (Benchmarks/write-latency.sh). A connection
/// that finds the write lock taken pauses between tries (`SQLiteStatements.pauseWhenBusy`) instead of
/// spinning. Both settings belong to a connection, and each event loop has one: it is opened here and
/// given them.
private func applyConnectionSettings(_ app: Application) async throws {
    for loop in app.eventLoopGroup.makeIterator() {
        guard let sql = app.databases.database(.sqlite, logger: app.logger, on: loop) as? any SQLDatabase else {
            continue
        }
        _ = try await sql.raw("PRAGMA secure_delete = FAST").all()
        if let sqlite = sql as? any SQLiteDatabase {
            _ = try await sqlite.withConnection { try await SQLiteStatements.pauseWhenBusy(on: $0) }
        }
    }
}

/// Finalizes the statements kept for each event loop's connection (see `SQLiteStatements`) before the
/// databases shut down: SQLite does not close a connection that still has statements. Registered before
/// the job workers, so it runs after they stopped.
struct KeptStatementsLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        for loop in application.eventLoopGroup.makeIterator() {
            guard
                let sqlite = application.databases.database(.sqlite, logger: application.logger, on: loop)
                    as? any SQLiteDatabase
            else { continue }
            try? await sqlite.withConnection { try await SQLiteStatements.finalizeAll(on: $0) }
        }
    }
}

/// Every migration, oldest first.
let locifyMigrations: [any Migration] = [
    CreateUsers(),
    CreateWebSessions(),
    CreateAPITokens(),
    CreateContacts(),
    AddContactListIndexes(),
    CreateAddresses(),
    CreateJobs(),
    CreateGeocodeCache(),
    CreateReminders(),
    AddReminderDone(),
    AddReminderKind(),
    CreateNotificationSettings(),
    CreateNotifications(),
    CreateNotificationDeliveries(),
    CreatePhotoBlobs(),
    CreatePhotos(),
    AddContactAvatars(),
    CreateGravatarCache(),
    CreateServerSecrets(),
    CreatePlaceCategories(),
    CreatePlaces(),
    CreatePlaceImports(),
    AddPlaceSearchIndex(),
    AddPlaceSearchKeys(),
    CreateNotes(),
    CreateTasks(),
    CreateTags(),
    CreateGenders(),
    CreateContactFields(),
    MoveContactEmailsToFields(),
    AddContactWork(),
    CreateLoginFailures(),
    MovePlaceImportFiles(),
    CreatePlaceImportRows(),
    // Sync's revision log over the tables clients keep copies of, as they were when it was written.
    AddRevisionLog(tables: [
        ContactsTable.self, TagsTable.self, ContactTagsTable.self, NotesTable.self, TasksTable.self,
        GendersTable.self, ContactFieldTypesTable.self, ContactFieldsTable.self, ContactFieldLabelsTable.self,
        AddressesTable.self, RemindersTable.self, PhotosTable.self, PlaceCategoriesTable.self, PlacesTable.self,
    ]),
    AddSyncIdentities(
        gainingUUID: [TagsTable.self, ContactTagsTable.self, GendersTable.self, PlaceCategoriesTable.self],
        losingRevision: [ContactFieldLabelsTable.self]),
    CreateSyncClients(),
    IndexTombstonesByUUID(),
    AddSyncClientRefusals(),
    CreateMapAreas(),
    AddTombstoneParents(),
    CreateDAVCards(),
    CreateDAVTasks(),
    AddPlacePrecision(),
    CreateSampleRecords(),
    CreateCalls(),
    CreateJournalEntries(),
    CreateRelationships(),
    CreateDebts(),
    CreateGifts(),
    CreatePets(),
    CreateLifeEvents(),
    CreateConversations(),
    CreateActivities(),
    CreateCompanies(),
    CreateOccupations(),
    AddContactIntroductions(),
    AddMeContact(),
    CreateSignedPolicies(),
    CreateAuditLogs(),
    CreateDocuments(),
    CreateLeases(),
    AddPlaceRating(),
    CreatePlaceComments(),
    CreatePlacePhotos(),
    CreateSignInIdentities(),
    CreateCategoryShares(),
]

/// Every table written through a `TableWriter`: `StoredTableTests` holds each one's `Column` to the
/// columns its migrations made, on SQLite and PostgreSQL.
let locifyTables: [any StoredTable.Type] = [
    UsersTable.self,
    WebSessionsTable.self,
    APITokensTable.self,
    ContactsTable.self,
    TagsTable.self,
    ContactTagsTable.self,
    NotesTable.self,
    TasksTable.self,
    GendersTable.self,
    ContactFieldTypesTable.self,
    ContactFieldsTable.self,
    ContactFieldLabelsTable.self,
    AddressesTable.self,
    RemindersTable.self,
    PhotoBlobsTable.self,
    PhotosTable.self,
    GravatarCacheTable.self,
    ServerSecretsTable.self,
    PlaceCategoriesTable.self,
    PlacesTable.self,
    PlaceCommentsTable.self,
    PlacePhotosTable.self,
    CategorySharesTable.self,
    CategoryLinksTable.self,
    UserIdentitiesTable.self,
    SignInAttemptsTable.self,
    SignInConfirmationsTable.self,
    PlaceImportsTable.self,
    PlaceImportFilesTable.self,
    PlaceImportRowsTable.self,
    NotificationSettingsTable.self,
    NotificationsTable.self,
    NotificationDeliveriesTable.self,
    JobsTable.self,
    LeasesTable.self,
    GeocodeCacheTable.self,
    LoginFailuresTable.self,
    SyncTombstonesTable.self,
    SyncClientsTable.self,
    MapAreasTable.self,
    CallsTable.self,
    JournalEntriesTable.self,
    RelationshipsTable.self,
    DebtsTable.self,
    GiftsTable.self,
    PetsTable.self,
    CompaniesTable.self,
    OccupationsTable.self,
    SignedPoliciesTable.self,
    AuditLogTable.self,
    DocumentsTable.self,
    LifeEventsTable.self,
    ConversationsTable.self,
    ConversationMessagesTable.self,
    ActivityDefaultsTable.self,
    ActivityTypeCategoriesTable.self,
    ActivityTypesTable.self,
    ActivitiesTable.self,
    ActivityContactsTable.self,
    DAVCardsTable.self,
    DAVTasksTable.self,
    SampleRecordsTable.self,
]

func registerMigrations(_ app: Application) {
    app.migrations.add(locifyMigrations)
}

private func registerViews(_ app: Application) throws {
    guard let views = Bundle.module.resourceURL?.appendingPathComponent("Views").path else {
        throw Abort(.internalServerError, reason: "views are missing from the bundle")
    }
    app.views.use(.leaf)
    // The bundle sits under .build/ when run from a checkout, so hidden path components must be allowed.
    app.leaf.sources = .singleSource(
        NIOLeafFiles(
            fileio: app.fileio, limits: [.toSandbox, .requireExtensions], sandboxDirectory: views, viewDirectory: views)
    )
    // Templates are read and parsed once, in every build: the views are copied into the bundle when the
    // package is built, so an edit reaches the server only through a rebuild (which restarts it) anyway,
    // and parsing them again for every page made a debug build's contact page take twice as long.
    app.leaf.cache.isEnabled = true
}

private func registerMiddleware(_ app: Application) {
    // Monica clients rely on keys in Monica's order, which Foundation's encoder does not keep.
    ContentConfiguration.global.use(encoder: OrderedJSONEncoder(), for: .json)
    // MultipartKit's parser crashes on some bodies; every multipart body is checked first.
    ContentConfiguration.global.use(decoder: CheckedFormDataDecoder(), for: .formData)
    // Every request passes through these, so they are future-based: an AsyncMiddleware costs a task each.
    app.middleware = Middlewares()
    app.middleware.use(ResponseHeadersMiddleware())
    app.middleware.use(RouteLoggingMiddleware(logLevel: .info))
    app.middleware.use(LocifyErrorMiddleware())
    app.middleware.use(MethodNotAllowedMiddleware(routes: app.routes, fileSuffixes: [MapPaths.archiveSuffix]))
    app.middleware.use(BodyLimitMiddleware())
    if let publicDirectory = Bundle.module.resourceURL?.appendingPathComponent("Public").path {
        app.middleware.use(StaticFilesMiddleware(publicDirectory: publicDirectory))
    }
}

private func registerRoutes(_ app: Application) throws {
    try app.register(collection: OperationsController())

    try app.register(collection: OAuthController())
    try app.register(collection: PoliciesAPIController())
    let api = app.grouped(PictureLinksMiddleware(), TokenAuthenticator(), ConditionalRequestsMiddleware())
    try api.register(collection: APIRootController())
    try api.register(collection: MeAPIController())
    try api.register(collection: SignedPoliciesAPIController())
    try api.register(collection: LogsAPIController())
    try api.register(collection: DocumentsAPIController())
    try api.register(collection: ContactsAPIController())
    try api.register(collection: AddressesAPIController())
    try api.register(collection: RemindersAPIController())
    try api.register(collection: NotesAPIController())
    try api.register(collection: CallsAPIController.routes)
    try api.register(collection: RelationshipsAPIController())
    try api.register(collection: DebtsAPIController.routes)
    try api.register(collection: GiftsAPIController.routes)
    try api.register(collection: PetsAPIController.routes)
    try api.register(collection: LifeEventsAPIController.routes)
    try api.register(collection: ConversationsAPIController())
    try api.register(collection: ActivitiesAPIController())
    try api.register(collection: ActivityTypesAPIController())
    try api.register(collection: CompaniesAPIController())
    try api.register(collection: OccupationsAPIController.routes)
    try api.register(collection: JournalAPIController())
    try api.register(collection: TasksAPIController())
    try api.register(collection: TagsAPIController())
    try api.register(collection: GendersAPIController())
    try api.register(collection: ContactFieldsAPIController())
    try api.register(collection: PhotosAPIController())
    try api.register(collection: PlacesAPIController())
    try api.register(collection: PlaceCommentsAPIController())
    try api.register(collection: CategorySharesAPIController())
    try api.register(collection: PlacePhotosAPIController())
    try api.register(collection: SearchAPIController())
    // The web app syncs with its session; other clients with a token. A pull's cursor already says what
    // the client has, so its pages carry no ETag: digesting each megabyte page was 3 % of a download.
    try app.grouped(PictureLinksMiddleware(), SessionOrTokenAuthenticator()).register(collection: SyncAPIController())
    try app.grouped(PictureLinksMiddleware(), SessionOrTokenAuthenticator()).register(
        collection: CategorySharesAPIController.Feeds())
    // Phones' Contacts apps: their own sign-in (Basic), errors and formats.
    try app.register(collection: CardDAVController())
    try app.register(collection: CalDAVController())
    // The web app saves areas with its session, as it syncs.
    try app.grouped(SessionOrTokenAuthenticator()).register(collection: MapAreasAPIController())

    let web = app.grouped(
        // The session is known before the CSRF check reads a body: only a signed-in visitor may upload.
        PictureLinksMiddleware(), FlashMiddleware(), WebSessionAuthenticator(), CSRFMiddleware(),
        NavigationCountsMiddleware())
    try web.register(collection: PagesController())
    try app.register(collection: OfflineAppController())
    try app.register(collection: MapsController())
    try app.register(collection: ReminderFeedController())
    try app.grouped(PictureLinksMiddleware()).register(collection: PicturesController())
    try app.grouped(PictureLinksMiddleware()).register(collection: PlacePicturesController())
    try web.register(collection: AuthWebController())
    try web.register(collection: PublicPlaceListController())
    try web.register(collection: OpenIDWebController())
    try app.register(collection: FormPostCallbackController())
    let signedIn = web.grouped(RequireWebUser())
    try signedIn.register(collection: StartPageController())
    try signedIn.register(collection: ContactsWebController())
    try signedIn.register(collection: AddressesWebController())
    try signedIn.register(collection: SettingsWebController())
    try signedIn.register(collection: SignInSettingsController())
    try signedIn.register(collection: NotificationsWebController())
    try signedIn.register(collection: RemindersWebController())
    try signedIn.register(collection: ReminderDownloadWebController())
    try signedIn.register(collection: ContactInterchangeWebController())
    try signedIn.register(collection: AccountArchiveWebController())
    try signedIn.register(collection: ContactPicturesWebController())
    try signedIn.register(collection: NotesAndTasksWebController())
    try signedIn.register(collection: CallsWebController())
    try signedIn.register(collection: RelationshipsWebController())
    try signedIn.register(collection: DebtsWebController())
    try signedIn.register(collection: GiftsWebController())
    try signedIn.register(collection: DocumentsWebController())
    try signedIn.register(collection: OccupationsWebController())
    try signedIn.register(collection: PetsWebController())
    try signedIn.register(collection: ContactIntroductionWebController())
    try signedIn.register(collection: LifeEventsWebController())
    try signedIn.register(collection: ConversationsWebController())
    try signedIn.register(collection: ActivitiesWebController())
    try signedIn.register(collection: JournalWebController())
    try signedIn.register(collection: TagsWebController())
    try signedIn.register(collection: GendersWebController())
    try signedIn.register(collection: ContactFieldsWebController())
    try signedIn.register(collection: PlacesWebController())
    try signedIn.register(collection: CategorySharingWebController())
    try signedIn.register(collection: PlaceCommentsWebController())
    try signedIn.register(collection: PlacePhotosWebController())
    try signedIn.register(collection: PlaceInterchangeWebController())
    try signedIn.register(collection: FeedbackWebController())
    try signedIn.register(collection: ServerWebController())
    try signedIn.register(collection: OfflinePlanController())
    try signedIn.register(collection: MapAreasWebController())
}
