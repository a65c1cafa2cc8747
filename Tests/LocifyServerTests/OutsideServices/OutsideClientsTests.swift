import AsyncHTTPClient
import Foundation
import LocifyCore
import NIOConcurrencyHelpers
import XCTVapor

@testable import LocifyServer

/// The live outside clients against local stand-ins: what they send, what they make of each answer.
final class OutsideClientsTests: XCTestCase {
    private let userAgent = "Locify/test (admin@example.org)"

    private var http: LiveHTTPClient { LiveHTTPClient(client: .shared, userAgent: userAgent) }

    override func setUp() {
        TestLogging.bootstrapOnce()
    }

    func testTileFetcherFillsTheTemplateIdentifiesItselfAndKeepsTilesAtLeastAWeek() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        let serve: StandInRoutes = { routes in
            routes.get("tiles", ":z", ":x", ":y") { request -> Response in
                guard request.parameters.get("y") == "2.png" else { return Response(status: .notFound) }
                return Response(
                    status: .ok, headers: ["Content-Type": "image/png", "Cache-Control": "public, max-age=60"],
                    body: .init(data: png))
            }
            routes.get("html", ":z", ":x", ":y") { _ in "<html>busy</html>" }
        }
        try await withStandIn(serve) { standIn in
            let fetcher = URLTemplateTileFetcher(template: standIn.baseURL + "/tiles/{z}/{x}/{y}.png", http: http)
            let tile = try XCTUnwrap(Tile(zoom: 3, x: 4, y: 2))
            let fetched = try await fetcher.fetch(tile)
            XCTAssertEqual(fetched, FetchedTile(contentType: "image/png", bytes: png, maximumAge: 7 * 24 * 3600))
            XCTAssertEqual(standIn.requests.first?.path, "/tiles/3/4/2.png")
            XCTAssertEqual(standIn.requests.first?.headers.first(name: "User-Agent"), userAgent)

            await assertThrowsAsync(try await fetcher.fetch(try XCTUnwrap(Tile(zoom: 3, x: 4, y: 3)))) {
                XCTAssertEqual(
                    $0 as? OutsideServiceError, OutsideServiceError(service: "the tile server", reason: .status(404)))
            }
            let htmlFetcher = URLTemplateTileFetcher(template: standIn.baseURL + "/html/{z}/{x}/{y}", http: http)
            await assertThrowsAsync(try await htmlFetcher.fetch(tile)) {
                XCTAssertEqual(
                    $0 as? OutsideServiceError,
                    OutsideServiceError(service: "the tile server", reason: .unreadable("not an image")))
            }
        }
    }

    func testTilesKeepALongerLifetimeTheServerGives() {
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "max-age=1209600, public")
        XCTAssertEqual(headers.cacheControlMaximumAge, 1_209_600)
        XCTAssertNil(HTTPHeaders().cacheControlMaximumAge)
    }

    func testGravatarAsksFor404AndReadsItAsNoPicture() async throws {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0])
        let known = Avatar.gravatarHash(email: "ada@example.com")
        let serve: StandInRoutes = { routes in
            routes.get("avatar", ":hash") { request -> Response in
                guard request.parameters.get("hash") == known else { return Response(status: .notFound) }
                return Response(status: .ok, headers: ["Content-Type": "image/jpeg"], body: .init(data: jpeg))
            }
        }
        try await withStandIn(serve) { standIn in
            let gravatar = LiveGravatarClient(baseURL: standIn.baseURL, http: http)
            let image = try await gravatar.image(forHash: known, size: 80)
            XCTAssertEqual(image, GravatarImage(contentType: "image/jpeg", bytes: jpeg))
            XCTAssertEqual(standIn.requests.first?.query, "s=80&d=404")
            let missing = try await gravatar.image(forHash: Avatar.gravatarHash(email: "nobody@example.com"), size: 80)
            XCTAssertNil(missing)
        }
    }

    func testWebhookPostsJSONAndTreatsAnythingButSuccessAsFailure() async throws {
        let serve: StandInRoutes = { routes in
            routes.post("hook") { _ in HTTPStatus.noContent }
            routes.post("broken") { _ in HTTPStatus.serviceUnavailable }
        }
        try await withStandIn(serve) { standIn in
            let sender = LiveWebhookSender(http: http)
            let payload = Data(#"{"reminder":"Call Ada"}"#.utf8)
            try await sender.post(json: payload, to: standIn.baseURL + "/hook", idempotencyKey: "notify:7:2024-05-05")
            XCTAssertEqual(standIn.requests.first?.method, .POST)
            XCTAssertEqual(standIn.requests.first?.body, payload)
            XCTAssertEqual(standIn.requests.first?.headers.first(name: "Content-Type"), "application/json")
            XCTAssertEqual(standIn.requests.first?.headers.first(name: "Idempotency-Key"), "notify:7:2024-05-05")
            await assertThrowsAsync(
                try await sender.post(json: payload, to: standIn.baseURL + "/broken", idempotencyKey: "k")
            ) {
                XCTAssertEqual(
                    $0 as? OutsideServiceError, OutsideServiceError(service: "The webhook", reason: .status(503)))
            }
        }
    }

    func testAnAnswerOverTheLimitIsRefusedAndADeadServiceSaysWhere() async throws {
        let serve: StandInRoutes = { routes in
            routes.get("big") { _ in String(repeating: "x", count: 10_000) }
        }
        try await withStandIn(serve) { standIn in
            await assertThrowsAsync(
                try await http.send(OutgoingRequest(url: standIn.baseURL + "/big", maximumBodyBytes: 1_000))
            ) {
                XCTAssertEqual(
                    $0 as? OutsideServiceError,
                    OutsideServiceError(service: "127.0.0.1", reason: .tooLarge(limit: 1_000)))
            }
        }
        // Nothing listens on port 9 here; the client retries a refused connection until the timeout.
        await assertThrowsAsync(
            try await http.send(OutgoingRequest(url: "http://127.0.0.1:9/", timeout: .milliseconds(300)))
        ) { error in
            guard case .unreachable = (error as? OutsideServiceError)?.reason else {
                return XCTFail("expected unreachable, got \(error)")
            }
        }
    }

    func testMailCommandReadsTheWholeMessageOnStandardInput() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString).eml")
        defer { try? FileManager.default.removeItem(at: output) }
        let message = MailMessage(
            from: "locify@example.org", to: ["ada@example.com"], subject: "Birthday: Grace", body: "Wish her well.",
            date: TestClock.start, messageID: "1@example.org")
        try await CommandMailer(command: "cat > '\(output.path)'").send(message)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), message.rfc5322Text)
    }

    func testAFailingMailCommandReportsItsStatusAndWords() async throws {
        let message = MailMessage(
            from: "a@example.org", to: ["b@example.org"], subject: "s", body: "b", date: TestClock.start,
            messageID: "2@example.org")
        await assertThrowsAsync(
            try await CommandMailer(command: "echo 'relay refused' >&2; exit 3").send(message)
        ) {
            XCTAssertEqual(
                $0 as? OutsideServiceError,
                OutsideServiceError(service: "The mail command", reason: .unreadable("exit status 3: relay refused")))
        }
        await assertThrowsAsync(try await MailNotConfigured().send(message)) {
            XCTAssertEqual(String(describing: $0), "Mail (set LOCIFY_SENDMAIL) is not configured")
        }
    }

    func testTheRasteriserCommandTurnsTheSVGOnItsInputIntoThePNGItWrites() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = try Avatar.discPNG(background: "#336699", size: 4)
        try Data(picture).write(to: folder.appendingPathComponent("out.png"))
        let input = folder.appendingPathComponent("in.svg").path
        let svg = Avatar.initialsSVG(name: "Ada Lovelace", background: "#336699", size: 4)
        let standIn = CommandRasterizer(command: "cat > '\(input)'; cat '\(folder.path)/out.png'")
        let drawn = try await standIn.png(of: svg)
        XCTAssertEqual(drawn, picture)
        XCTAssertEqual(try String(contentsOfFile: input, encoding: .utf8), svg)

        let service = CommandRasterizer.service
        for (command, reason) in [
            ("echo '<svg/>'", OutsideServiceError.Reason.unreadable("its output is not a PNG")),
            ("echo 'no font' >&2; exit 2", .unreadable("exit status 2: no font")),
            ("exec /no/such/tool", .unreadable("exit status 127: /bin/sh: 1: exec: /no/such/tool: not found")),
        ] {
            await assertThrowsAsync(try await CommandRasterizer(command: command).png(of: svg)) {
                XCTAssertEqual(
                    $0 as? OutsideServiceError, OutsideServiceError(service: service, reason: reason), command)
            }
        }
        await assertThrowsAsync(try await RasterizerOff().png(of: svg)) {
            XCTAssertEqual(
                String(describing: $0), "The avatar rasteriser (set LOCIFY_AVATAR_RASTERIZER) is not configured")
        }
    }

    func testACommandIsStoppedWhenItTakesTooLongOrWritesTooMuch() async throws {
        let started = Date()
        await assertThrowsAsync(
            try await ShellCommand(command: "exec sleep 20", service: "The slow tool", timeout: .milliseconds(300))
                .run(input: Data())
        ) {
            XCTAssertEqual(
                String(describing: $0), "The slow tool sent an answer that could not be read: stopped after 0.3 seconds"
            )
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "stopped, not waited for")
        await assertThrowsAsync(
            try await ShellCommand(command: "head -c 300000 /dev/zero", service: "The chatty tool", outputLimit: 1_000)
                .run(input: Data())
        ) {
            XCTAssertEqual(
                $0 as? OutsideServiceError,
                OutsideServiceError(service: "The chatty tool", reason: .tooLarge(limit: 1_000)))
        }
        // Input and output larger than a pipe holds pass through whole.
        let large = Data((0..<300_000).map { UInt8($0 % 251) })
        let echoed = try await ShellCommand(command: "cat", service: "cat").run(input: large)
        XCTAssertEqual(echoed, large)
    }

    func testTheProcessGateLetsOnlySoManyRunAtOnce() async throws {
        let gate = ProcessGate(limit: 2)
        let counts = NIOLockedValueBox((running: 0, most: 0))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<8 {
                group.addTask {
                    try await gate.run {
                        counts.withLockedValue {
                            $0.running += 1
                            $0.most = max($0.most, $0.running)
                        }
                        try await Task.sleep(for: .milliseconds(20))
                        counts.withLockedValue { $0.running -= 1 }
                        return number
                    }
                }
            }
            var finished: [Int] = []
            for try await number in group { finished.append(number) }
            XCTAssertEqual(finished.sorted(), Array(0..<8))
        }
        XCTAssertEqual(counts.withLockedValue { $0.most }, 2)
    }

    func testConfigurationPointsTheLiveClientsWhereTheEnvironmentSays() throws {
        let defaults = try LocifyConfig.resolve(environment: [:])
        XCTAssertEqual(defaults.outside, LocifyConfig.OutsideServices(userAgent: "Locify/\(LocifyConfig.version)"))
        let configured = try LocifyConfig.resolve(environment: [
            "LOCIFY_TILE_URL": "http://tiles.internal/{z}/{x}/{y}.png",
            "LOCIFY_GRAVATAR_URL": "http://avatars.internal/",
            "LOCIFY_SENDMAIL": "msmtp -t", "LOCIFY_ADMIN_EMAIL": "admin@example.org",
        ])
        XCTAssertEqual(
            configured.outside,
            LocifyConfig.OutsideServices(
                tileURLTemplate: "http://tiles.internal/{z}/{x}/{y}.png", gravatarBaseURL: "http://avatars.internal",
                mailCommand: "msmtp -t", userAgent: "Locify/\(LocifyConfig.version) (admin@example.org)",
                mailFrom: "Locify <admin@example.org>"))
        let fromBaseURL = try LocifyConfig.resolve(environment: ["LOCIFY_BASE_URL": "https://locify.example.org/"])
        XCTAssertEqual(fromBaseURL.mailFrom, "Locify <locify@locify.example.org>")
        let explicit = try LocifyConfig.resolve(environment: [
            "LOCIFY_MAIL_FROM": "Reminders <reminders@example.org>", "LOCIFY_ADMIN_EMAIL": "admin@example.org",
        ])
        XCTAssertEqual(explicit.mailFrom, "Reminders <reminders@example.org>")
        XCTAssertNil(defaults.outside.avatarRasterizer, "no PATH, no rsvg-convert")
        let tools = FileManager.default.temporaryDirectory.appendingPathComponent("tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tools) }
        let found = try LocifyConfig.resolve(environment: ["PATH": "/nonexistent:\(tools.path)"])
        XCTAssertNil(found.outside.avatarRasterizer, "not there yet")
        let tool = tools.appendingPathComponent("rsvg-convert")
        try Data("#!/bin/sh\n".utf8).write(to: tool)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        XCTAssertEqual(
            try LocifyConfig.resolve(environment: ["PATH": "/nonexistent:\(tools.path)"]).outside.avatarRasterizer,
            tool.path)
        XCTAssertNil(
            try LocifyConfig.resolve(environment: ["PATH": tools.path, "LOCIFY_AVATAR_RASTERIZER": "off"]).outside
                .avatarRasterizer)
        XCTAssertEqual(
            try LocifyConfig.resolve(environment: ["LOCIFY_AVATAR_RASTERIZER": "inkscape --pipe --export-type=png"])
                .outside.avatarRasterizer, "inkscape --pipe --export-type=png")
        XCTAssertThrowsError(
            try LocifyConfig.resolve(environment: ["LOCIFY_TILE_URL": "http://tiles.internal/tile.png"])
        ) {
            XCTAssertEqual(
                String(describing: $0),
                "LOCIFY_TILE_URL=http://tiles.internal/tile.png is not valid: expected an http(s) URL template with {z}, {x} and {y}, or off."
            )
        }
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_GRAVATAR_URL": "ftp://x"]))
        let off = try LocifyConfig.resolve(environment: ["LOCIFY_GRAVATAR_URL": "OFF"])
        XCTAssertNil(off.outside.gravatarBaseURL)
        XCTAssertFalse(LocifyDependencies.live(off).gravatar.isEnabled)
        XCTAssertTrue(LocifyDependencies.live(defaults).gravatar.isEnabled)
        XCTAssertEqual(defaults.maximumPhotoBytes, 5 * 1024 * 1024)
        XCTAssertEqual(
            try LocifyConfig.resolve(environment: ["LOCIFY_MAX_PHOTO_MB": "12"]).maximumPhotoBytes, 12 * 1024 * 1024)
        for refused in ["0", "abc", "1.5", "101"] {
            XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_MAX_PHOTO_MB": refused])) {
                XCTAssertTrue(String(describing: $0).contains("LOCIFY_MAX_PHOTO_MB"))
            }
        }
        XCTAssertEqual(defaults.trustedProxies, .none, "no proxy is trusted unless named")
        let proxies = try LocifyConfig.resolve(environment: ["LOCIFY_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8 ::1"])
        XCTAssertEqual(proxies.trustedProxies.networks.count, 3)
        XCTAssertThrowsError(try LocifyConfig.resolve(environment: ["LOCIFY_TRUSTED_PROXIES": "10.0.0.0/8, proxy.lan"]))
        {
            XCTAssertTrue(String(describing: $0).contains("proxy.lan is neither"), String(describing: $0))
        }
    }
}
