import Foundation
import LocifyCore
import XCTVapor

@testable import LocifyServer

/// CalDAV as phones' Calendar and Reminders apps use it: the principal's calendar home with Reminders,
/// Birthdays and Tasks, the RFC 4791 reports (time ranges over repeating events included), sync by the
/// account's revision, and tasks ticked done on the phone done in Locify; bad input refused with DAV's
/// errors.
final class CalDAVTests: XCTestCase {
    private static let home = "/dav/calendars/"
    private static let reminders = "/dav/calendars/reminders/"
    private static let birthdays = "/dav/calendars/birthdays/"
    private static let tasks = "/dav/calendars/tasks/"

    private static let namespaces =
        #"xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/""#

    private static func propfind(_ properties: String) -> String {
        #"<?xml version="1.0"?><d:propfind \#(namespaces)><d:prop>\#(properties)</d:prop></d:propfind>"#
    }

    /// RFC 4791 7.8.1's query: the events (or to-dos) of a time range, with their data.
    private static func query(_ inside: String, component: String = "VEVENT") -> String {
        #"""
        <?xml version="1.0" encoding="utf-8" ?>
        <c:calendar-query \#(namespaces)><d:prop><d:getetag/><c:calendar-data/></d:prop>
        <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="\#(component)">\#(inside)</c:comp-filter></c:comp-filter></c:filter>
        </c:calendar-query>
        """#
    }

    private static func sync(_ token: String) -> String {
        #"<?xml version="1.0"?><d:sync-collection \#(namespaces)><d:sync-token>\#(token)</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"#
    }

    private func put(
        _ app: Application, _ path: String, _ account: TestAccount, _ body: String,
        headers extra: [(String, String)] = []
    ) async throws -> XCTHTTPResponse {
        var headers = basic(account)
        headers.add(name: .contentType, value: "text/calendar; charset=utf-8")
        for (name, value) in extra { headers.add(name: name, value: value) }
        return try await app.send(.PUT, path, headers: headers, body: ByteBuffer(string: body))
    }

    private static func todo(uid: String, summary: String, _ lines: String = "") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//Reminders//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20241001T080000Z", "SUMMARY:\(summary)", lines, "END:VTODO", "END:VCALENDAR",
        ].filter { !$0.isEmpty }.joined(separator: "\r\n") + "\r\n"
    }

    func testAClientFindsTheCalendarsFromThePrincipal() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let options = try await app.send(.OPTIONS, Self.tasks, headers: [:], body: nil)
            XCTAssertEqual(options.headers.first(name: "DAV"), "1, 3, addressbook, calendar-access")
            let principal = try await dav(
                app, .PROPFIND, "/dav/principal/", account, depth: "0",
                body: Self.propfind("<c:calendar-home-set/><c:calendar-user-address-set/>"))
            XCTAssertTrue(
                principal.text.contains("<cal:calendar-home-set><d:href>/dav/calendars/</d:href>"), principal.text)
            XCTAssertTrue(principal.text.contains("<d:href>mailto:\(account.email)</d:href>"), principal.text)
            let root = try await dav(app, .PROPFIND, "/dav/", account, depth: "1", body: nil)
            XCTAssertTrue(members(root.text).map(\.href).contains(Self.home), root.text)

            let home = try await dav(
                app, .PROPFIND, Self.home, account, depth: "1",
                body: Self.propfind(
                    "<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><d:current-user-privilege-set/><d:sync-token/>"
                ))
            XCTAssertEqual(home.status, .multiStatus, "\(database): \(home.text)")
            XCTAssertEqual(
                members(home.text).map(\.href), [Self.home, Self.reminders, Self.birthdays, Self.tasks], home.text)
            let parts = home.text.components(separatedBy: "<d:response>")
            XCTAssertTrue(parts[2].contains("<d:resourcetype><d:collection/><cal:calendar/></d:resourcetype>"))
            XCTAssertTrue(parts[2].contains(#"<cal:comp name="VEVENT"/>"#), parts[2])
            XCTAssertTrue(parts[4].contains(#"<cal:comp name="VTODO"/>"#), parts[4])
            // Reminders and birthdays follow Locify's records; tasks may be written.
            XCTAssertFalse(parts[2].contains("<d:write/>"), parts[2])
            XCTAssertFalse(parts[3].contains("<d:write/>"), parts[3])
            XCTAssertTrue(parts[4].contains("<d:privilege><d:write/></d:privilege>"), parts[4])
            XCTAssertTrue(parts[2].contains("<d:sync-token>urn:locify:sync:"), parts[2])
        }
    }

    func testRemindersAndBirthdaysAnswerTheRFCsReports() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(
                by: account, "/api/contacts",
                #"{"first_name":"Ada","last_name":"Lovelace","birthdate_day":10,"birthdate_month":12,"birthdate_year":1815,"is_birthdate_known":true}"#
            )
            let rent = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Pay the rent","initial_date":"2024-01-31","frequency_type":"month"}"#)
            _ = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Lunch","initial_date":"2024-06-01","frequency_type":"one_time"}"#)
            let rentUUID = try await recordUUID(at: "/api/reminders/\(rent)", app, account)

            // April 2024 holds the rent (on the 30th, the month's last day) and not the lunch.
            let april = try await dav(
                app, .REPORT, Self.reminders, account, depth: "1",
                body: Self.query(#"<c:time-range start="20240401T000000Z" end="20240501T000000Z"/>"#))
            XCTAssertEqual(april.status, .multiStatus, "\(database): \(april.text)")
            XCTAssertEqual(members(april.text).map(\.href), [Self.reminders + rentUUID + ".ics"], april.text)
            for line in [
                "BEGIN:VEVENT", "SUMMARY:Ada Lovelace: Pay the rent", "DTSTART;VALUE=DATE:20240131",
                "RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "BEGIN:VALARM", "TRIGGER;RELATED=START:PT9H",
            ] {
                XCTAssertTrue(april.text.contains(line), "\(line): \(april.text)")
            }
            XCTAssertFalse(april.text.contains("METHOD:"), "a calendar object has no METHOD (RFC 4791 4.1)")
            // The range's bounds: a day ending as the range starts is outside it.
            let afterRent = try await dav(
                app, .REPORT, Self.reminders, account,
                body: Self.query(#"<c:time-range start="20240501T000000Z" end="20240528T000000Z"/>"#))
            XCTAssertEqual(members(afterRent.text).count, 0, afterRent.text)
            let june = try await dav(
                app, .REPORT, Self.reminders, account,
                body: Self.query(#"<c:time-range start="20240601T120000Z" end="20240602T000000Z"/>"#))
            XCTAssertEqual(members(june.text).count, 1, june.text)
            XCTAssertTrue(june.text.contains("SUMMARY:Ada Lovelace: Lunch"), june.text)
            // Whether an alarm is there: every reminder has one, no birthday does.
            let alarmed = #"<c:comp-filter name="VALARM"/>"#
            let withAlarm = try await dav(app, .REPORT, Self.reminders, account, body: Self.query(alarmed))
            XCTAssertEqual(members(withAlarm.text).count, 2, withAlarm.text)
            let birthdayAlarms = try await dav(app, .REPORT, Self.birthdays, account, body: Self.query(alarmed))
            XCTAssertEqual(members(birthdayAlarms.text).count, 0, birthdayAlarms.text)
            let onlyTheCalendar = try await dav(app, .PROPFIND, Self.reminders, account, depth: "0", body: nil)
            XCTAssertEqual(members(onlyTheCalendar.text).map(\.href), [Self.reminders], onlyTheCalendar.text)
            // A text-match on the summary, and no filter at all.
            let lunch = try await dav(
                app, .REPORT, Self.reminders, account,
                body: Self.query(#"<c:prop-filter name="SUMMARY"><c:text-match>lunch</c:text-match></c:prop-filter>"#))
            XCTAssertEqual(members(lunch.text).count, 1, lunch.text)
            let everything = try await dav(
                app, .REPORT, Self.reminders, account,
                body: #"<c:calendar-query \#(Self.namespaces)><d:prop><d:getetag/></d:prop></c:calendar-query>"#)
            XCTAssertEqual(members(everything.text).count, 2, everything.text)

            // The birthday repeats every year from 1815.
            let december2030 = try await dav(
                app, .REPORT, Self.birthdays, account,
                body: Self.query(#"<c:time-range start="20301201T000000Z" end="20301231T000000Z"/>"#))
            XCTAssertEqual(members(december2030.text).count, 1, december2030.text)
            XCTAssertTrue(december2030.text.contains("SUMMARY:Ada Lovelace’s birthday"), december2030.text)
            XCTAssertTrue(december2030.text.contains("RRULE:FREQ=YEARLY"), december2030.text)
            XCTAssertFalse(december2030.text.contains("BEGIN:VALARM"), "the reminder alerts, not the birthday")
            let january = try await dav(
                app, .REPORT, Self.birthdays, account,
                body: Self.query(#"<c:time-range start="20300101T000000Z" end="20300201T000000Z"/>"#))
            XCTAssertEqual(members(january.text).count, 0, january.text)

            // RFC 4791 7.9.1: multiget, with an address that holds nothing answered 404.
            let rentPath = Self.reminders + rentUUID + ".ics"
            let multiget = try await dav(
                app, .REPORT, Self.reminders, account,
                body:
                    #"<c:calendar-multiget \#(Self.namespaces)><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>\#(rentPath)</d:href><d:href>\#(Self.reminders)missing.ics</d:href></c:calendar-multiget>"#
            )
            let found = members(multiget.text)
            XCTAssertEqual(found.map(\.href), [rentPath, Self.reminders + "missing.ics"], multiget.text)
            XCTAssertEqual(found[1].status, "HTTP/1.1 404 Not Found")
            let etag = try XCTUnwrap(found[0].etag)

            let object = try await app.send(.GET, rentPath, headers: basic(account), body: nil)
            XCTAssertEqual(object.status, .ok)
            XCTAssertEqual(object.headers.first(name: .contentType), "text/calendar; charset=utf-8; component=vevent")
            XCTAssertEqual(object.headers.first(name: .eTag), etag)
            XCTAssertTrue(object.text.hasPrefix("BEGIN:VCALENDAR\r\n"), object.text)
            let unchanged = try await app.send(
                .GET, rentPath, headers: basic(account).adding("If-None-Match", etag), body: nil)
            XCTAssertEqual(unchanged.status, .notModified)

            // Another account's reminder is not in Grace's calendar.
            let grace = try await app.makeAccount(email: "grace@example.com", name: "Grace Hopper")
            let hidden = try await app.send(.GET, rentPath, headers: basic(grace), body: nil)
            XCTAssertEqual(hidden.status, .notFound)
            let hers = try await dav(app, .PROPFIND, Self.reminders, grace, depth: "1", body: nil)
            XCTAssertEqual(members(hers.text).map(\.href), [Self.reminders], hers.text)
        }
    }

    /// RFC 4791's examples, as written there but for the collection's address: 7.8.1 (partial data of the
    /// events of a day), 7.8.3 (a repeating event expanded), 7.8.9 (the to-dos not done) and 7.9.1 (multiget).
    func testTheRFCsExamplesAreAnsweredAsTheRFCsSay() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let weekly = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Event #2","description":"Weekly","initial_date":"2006-01-04","frequency_type":"week"}"#
            )
            _ = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Later","initial_date":"2006-01-10","frequency_type":"one_time"}"#)
            let weeklyPath =
                Self.reminders + (try await recordUUID(at: "/api/reminders/\(weekly)", app, account)) + ".ics"

            // 7.8.1: only VERSION of the calendar and some properties of the event; no alarm, no description.
            let partial = try await dav(
                app, .REPORT, Self.reminders, account, depth: "1",
                body: """
                    <?xml version="1.0" encoding="utf-8" ?>
                    <C:calendar-query xmlns:D="DAV:"
                                      xmlns:C="urn:ietf:params:xml:ns:caldav">
                      <D:prop>
                        <D:getetag/>
                        <C:calendar-data>
                          <C:comp name="VCALENDAR">
                            <C:prop name="VERSION"/>
                            <C:comp name="VEVENT">
                              <C:prop name="SUMMARY"/>
                              <C:prop name="UID"/>
                              <C:prop name="DTSTART"/>
                              <C:prop name="DTEND"/>
                              <C:prop name="DURATION"/>
                              <C:prop name="RRULE"/>
                              <C:prop name="RDATE"/>
                              <C:prop name="EXRULE"/>
                              <C:prop name="EXDATE"/>
                              <C:prop name="RECURRENCE-ID"/>
                            </C:comp>
                            <C:comp name="VTIMEZONE"/>
                          </C:comp>
                        </C:calendar-data>
                      </D:prop>
                      <C:filter>
                        <C:comp-filter name="VCALENDAR">
                          <C:comp-filter name="VEVENT">
                            <C:time-range start="20060104T000000Z"
                                                  end="20060105T000000Z"/>
                          </C:comp-filter>
                        </C:comp-filter>
                      </C:filter>
                    </C:calendar-query>
                    """)
            XCTAssertEqual(partial.status, .multiStatus, "\(database): \(partial.text)")
            XCTAssertEqual(members(partial.text).map(\.href), [weeklyPath], partial.text)
            let data = try XCTUnwrap(
                partial.text.components(separatedBy: "<cal:calendar-data>").last?.components(
                    separatedBy: "</cal:calendar-data>"
                ).first)
            let names = data.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map {
                String($0.prefix { $0 != ":" && $0 != ";" })
            }
            XCTAssertEqual(
                names, ["BEGIN", "VERSION", "BEGIN", "UID", "DTSTART", "DTEND", "SUMMARY", "RRULE", "END", "END"], data)

            // 7.8.3: the instances of 3 and 4 January 2006, expanded.
            let expanded = try await dav(
                app, .REPORT, Self.reminders, account, depth: "1",
                body: """
                    <?xml version="1.0" encoding="utf-8" ?>
                    <C:calendar-query xmlns:D="DAV:"
                                      xmlns:C="urn:ietf:params:xml:ns:caldav">
                      <D:prop>
                        <C:calendar-data>
                          <C:expand start="20060103T000000Z"
                                    end="20060105T000000Z"/>
                        </C:calendar-data>
                      </D:prop>
                      <C:filter>
                        <C:comp-filter name="VCALENDAR">
                          <C:comp-filter name="VEVENT">
                            <C:time-range start="20060103T000000Z"
                                          end="20060105T000000Z"/>
                          </C:comp-filter>
                        </C:comp-filter>
                      </C:filter>
                    </C:calendar-query>
                    """)
            XCTAssertEqual(members(expanded.text).map(\.href), [weeklyPath], expanded.text)
            for line in [
                "RECURRENCE-ID;VALUE=DATE:20060104", "DTSTART;VALUE=DATE:20060104", "DTEND;VALUE=DATE:20060105",
            ] {
                XCTAssertTrue(expanded.text.contains(line), "\(line): \(expanded.text)")
            }
            XCTAssertFalse(expanded.text.contains("RRULE"), expanded.text)
            XCTAssertEqual(expanded.text.components(separatedBy: "BEGIN:VEVENT").count, 2, "one instance")

            // 7.8.9: the to-dos not completed nor cancelled.
            _ = try await app.createdID(by: account, "/api/tasks", #"{"title":"Open"}"#)
            _ = try await app.createdID(by: account, "/api/tasks", #"{"title":"Done","completed":true}"#)
            let open = try await dav(
                app, .REPORT, Self.tasks, account, depth: "1",
                body: """
                    <?xml version="1.0" encoding="utf-8" ?>
                    <C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav">
                      <D:prop xmlns:D="DAV:">
                        <D:getetag/>
                        <C:calendar-data/>
                      </D:prop>
                      <C:filter>
                        <C:comp-filter name="VCALENDAR">
                          <C:comp-filter name="VTODO">
                            <C:prop-filter name="COMPLETED">
                              <C:is-not-defined/>
                            </C:prop-filter>
                            <C:prop-filter name="STATUS">
                              <C:text-match
                                 negate-condition="yes">CANCELLED</C:text-match>
                            </C:prop-filter>
                          </C:comp-filter>
                        </C:comp-filter>
                      </C:filter>
                    </C:calendar-query>
                    """)
            XCTAssertEqual(members(open.text).count, 1, open.text)
            XCTAssertTrue(open.text.contains("SUMMARY:Open"), open.text)

            // 7.9.1: two addresses, one of which holds nothing.
            let multiget = try await dav(
                app, .REPORT, Self.reminders, account, depth: "1",
                body: """
                    <?xml version="1.0" encoding="utf-8" ?>
                    <C:calendar-multiget xmlns:D="DAV:"
                                         xmlns:C="urn:ietf:params:xml:ns:caldav">
                      <D:prop>
                        <D:getetag/>
                        <C:calendar-data/>
                      </D:prop>
                      <D:href>\(weeklyPath)</D:href>
                      <D:href>\(Self.reminders)mtg1.ics</D:href>
                    </C:calendar-multiget>
                    """)
            let found = members(multiget.text)
            XCTAssertEqual(found.map(\.href), [weeklyPath, Self.reminders + "mtg1.ics"], multiget.text)
            XCTAssertNotNil(found[0].etag)
            XCTAssertEqual(found[1].status, "HTTP/1.1 404 Not Found")
            XCTAssertTrue(multiget.text.contains("BEGIN:VALARM"), "the whole object: \(multiget.text)")
        }
    }

    func testBadRequestsAreRefusedWithCalDAVsErrorsAndChangeNothing() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let rent = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Pay the rent","initial_date":"2024-01-31","frequency_type":"month"}"#)
            let rentPath = Self.reminders + (try await recordUUID(at: "/api/reminders/\(rent)", app, account)) + ".ics"
            func refused(
                _ response: XCTHTTPResponse, _ status: HTTPResponseStatus, _ condition: String?,
                line: UInt = #line
            ) {
                XCTAssertEqual(response.status, status, "\(database): \(response.text)", line: line)
                if let condition { XCTAssertTrue(response.text.contains(condition), response.text, line: line) }
            }
            // Reminders and birthdays are read-only.
            refused(
                try await put(app, rentPath, account, Self.todo(uid: "x", summary: "Mine now")), .forbidden,
                "<d:need-privileges/>")
            refused(
                try await app.send(.DELETE, rentPath, headers: basic(account), body: nil), .forbidden,
                "<d:need-privileges/>")
            refused(
                try await dav(app, .REPORT, Self.reminders, account, body: "<c:calendar-query"), .badRequest, nil)
            refused(
                try await dav(
                    app, .REPORT, Self.reminders, account,
                    body:
                        #"<c:calendar-query \#(Self.namespaces)><c:filter><c:comp-filter name="VEVENT"/></c:filter></c:calendar-query>"#
                ), .forbidden, "<cal:valid-filter/>")
            refused(
                try await dav(
                    app, .REPORT, Self.reminders, account,
                    body: Self.query(
                        #"<c:prop-filter name="SUMMARY"><c:param-filter name="LANGUAGE"/></c:prop-filter>"#)),
                .forbidden, "<cal:supported-filter/>")
            refused(
                try await dav(
                    app, .REPORT, Self.reminders, account,
                    body: Self.query(#"<c:time-range start="2024-04-01" end="20240501T000000Z"/>"#)), .badRequest,
                nil)
            refused(
                try await dav(
                    app, .REPORT, Self.reminders, account,
                    body:
                        #"<card:addressbook-query xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:prop><d:getetag/></d:prop></card:addressbook-query>"#
                ), .forbidden, "<d:supported-report/>")
            refused(
                try await dav(app, .REPORT, Self.reminders, account, body: Self.sync("urn:locify:sync:999999")),
                .forbidden, "<d:valid-sync-token/>")

            // Tasks: an event, a body that is no calendar, a to-do without a title (one over the size limit is
            // refused before it is read: Tests/e2e/test_caldav.py).
            let event =
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:e\r\nSUMMARY:Party\r\nDTSTART;VALUE=DATE:20240101\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            refused(
                try await put(app, Self.tasks + "e.ics", account, event), .forbidden,
                "<cal:supported-calendar-component/>")
            refused(
                try await put(app, Self.tasks + "n.ics", account, "not a calendar"), .badRequest,
                "<cal:valid-calendar-data/>")
            refused(
                try await put(app, Self.tasks + "t.ics", account, Self.todo(uid: "t", summary: "")), .badRequest,
                "Title is required.")
            let twice = Self.todo(uid: "r", summary: "Water the plants").replacingOccurrences(
                of: "END:VCALENDAR",
                with:
                    "BEGIN:VTODO\r\nUID:r\r\nRECURRENCE-ID:20241008T080000Z\r\nSUMMARY:Water\r\nEND:VTODO\r\nEND:VCALENDAR"
            )
            refused(try await put(app, Self.tasks + "r.ics", account, twice), .badRequest, "repeating tasks")
            refused(
                try await dav(
                    app, .REPORT, Self.reminders, account,
                    body: Self.query(
                        #"<c:comp-filter name="VALARM"><c:time-range start="20240101T000000Z"/></c:comp-filter>"#)),
                .forbidden, "<cal:supported-filter/>")
            let tasks = try await app.send(.GET, "/api/tasks", headers: account.bearer)
            XCTAssertEqual((try tasks.json()["data"] as? [[String: Any]])?.count, 0, "nothing was made: \(tasks.text)")
            refused(
                try await app.send(.DELETE, Self.tasks + "missing.ics", headers: basic(account), body: nil), .notFound,
                nil)
        }
    }

    func testSyncTellsChangedAndDeletedEventsAndANewAlertTime() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(
                by: account, "/api/contacts",
                #"{"first_name":"Ada","birthdate_day":10,"birthdate_month":12,"is_birthdate_known":true}"#)
            let rent = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Pay the rent","initial_date":"2024-01-31","frequency_type":"month"}"#)
            let lunch = try await app.createdID(
                by: account, "/api/reminders",
                #"{"contact_id":\#(ada),"title":"Lunch","initial_date":"2024-06-01","frequency_type":"one_time"}"#)
            let rentPath = Self.reminders + (try await recordUUID(at: "/api/reminders/\(rent)", app, account)) + ".ics"
            let lunchPath =
                Self.reminders + (try await recordUUID(at: "/api/reminders/\(lunch)", app, account)) + ".ics"
            let adaUUID = try await recordUUID(at: "/api/contacts/\(ada)", app, account)

            let first = try await dav(app, .REPORT, Self.reminders, account, body: Self.sync(""))
            XCTAssertEqual(Set(members(first.text).map(\.href)), [rentPath, lunchPath], "\(database): \(first.text)")
            var token = token(in: first.text)
            let nothing = try await dav(app, .REPORT, Self.reminders, account, body: Self.sync(token))
            XCTAssertEqual(members(nothing.text), [], nothing.text)
            XCTAssertEqual(self.token(in: nothing.text), token, "nothing changed, the token stays")

            // A new name changes each reminder's title; a deletion is told as 404.
            let renamed = try await app.send(
                .PUT, "/api/contacts/\(ada)", headers: account.bearer,
                json: #"{"first_name":"Augusta","birthdate_day":10,"birthdate_month":12,"is_birthdate_known":true}"#)
            XCTAssertEqual(renamed.status, .ok, renamed.text)
            let lunchDeleted = try await app.send(.DELETE, "/api/reminders/\(lunch)", headers: account.bearer)
            XCTAssertEqual(lunchDeleted.status, .ok, lunchDeleted.text)
            let changed = try await dav(app, .REPORT, Self.reminders, account, body: Self.sync(token))
            XCTAssertEqual(
                members(changed.text).map { [$0.href, $0.status ?? "changed"] },
                [[rentPath, "changed"], [lunchPath, "HTTP/1.1 404 Not Found"]], changed.text)
            token = self.token(in: changed.text)

            // The alert time is in every event: a new one changes them all.
            let settings = NotificationSettingsService(
                database: app.db, ownerID: account.id, dependencies: app.dependencies)
            var preferences = try await settings.preferences()
            preferences.minutesAfterMidnight = 450
            try await settings.save(preferences, timeZone: .gmt)
            let alarm = try await dav(app, .REPORT, Self.reminders, account, body: Self.sync(token))
            XCTAssertEqual(members(alarm.text).map(\.href), [rentPath], alarm.text)
            XCTAssertNotEqual(self.token(in: alarm.text), token)
            let event = try await app.send(.GET, rentPath, headers: basic(account), body: nil)
            XCTAssertTrue(event.text.contains("TRIGGER;RELATED=START:PT7H30M"), event.text)
            let settled = try await dav(
                app, .REPORT, Self.reminders, account, body: Self.sync(self.token(in: alarm.text)))
            XCTAssertEqual(members(settled.text), [], settled.text)

            // A birthday taken off its contact leaves the Birthdays calendar.
            let birthdays = try await dav(app, .REPORT, Self.birthdays, account, body: Self.sync(""))
            XCTAssertEqual(members(birthdays.text).map(\.href), [Self.birthdays + adaUUID + ".ics"], birthdays.text)
            let noBirthday = try await app.send(
                .PUT, "/api/contacts/\(ada)", headers: account.bearer,
                json: #"{"first_name":"Augusta","is_birthdate_known":false}"#)
            XCTAssertEqual(noBirthday.status, .ok, noBirthday.text)
            let gone = try await dav(
                app, .REPORT, Self.birthdays, account, body: Self.sync(self.token(in: birthdays.text)))
            XCTAssertEqual(
                members(gone.text),
                [DAVMember(href: Self.birthdays + adaUUID + ".ics", status: "HTTP/1.1 404 Not Found", etag: nil)],
                gone.text)
        }
    }

    func testTasksTickedDoneOnThePhoneAreDoneInLocifyAndKeepWhatLocifyDoesNotModel() async throws {
        try await forEachDatabase { app, _, database in
            let account = try await app.makeAccount()
            let ada = try await app.createdID(by: account, "/api/contacts", #"{"first_name":"Ada"}"#)
            let call = try await app.createdID(
                by: account, "/api/tasks",
                #"{"contact_id":\#(ada),"title":"Call Ada","description":"About the engine"}"#)
            let callPath = Self.tasks + (try await recordUUID(at: "/api/tasks/\(call)", app, account)) + ".ics"
            let listed = try await dav(
                app, .PROPFIND, Self.tasks, account, depth: "1", body: Self.propfind("<d:getetag/>"))
            XCTAssertEqual(members(listed.text).map(\.href), [Self.tasks, callPath], "\(database): \(listed.text)")
            let read = try await app.send(.GET, callPath, headers: basic(account), body: nil)
            XCTAssertEqual(read.headers.first(name: .contentType), "text/calendar; charset=utf-8; component=vtodo")
            for line in ["BEGIN:VTODO", "SUMMARY:Call Ada", "DESCRIPTION:About the engine", "STATUS:NEEDS-ACTION"] {
                XCTAssertTrue(read.text.contains(line), "\(line): \(read.text)")
            }
            XCTAssertTrue(read.text.contains("URL:http"), "the contact's page: \(read.text)")
            let etag = try XCTUnwrap(read.headers.first(name: .eTag))

            // The phone ticks it done and adds what Locify has no field for.
            let uid = try XCTUnwrap(
                read.text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
            )
            let ticked = Self.todo(
                uid: uid, summary: "Call Ada",
                "DESCRIPTION:About the engine\r\nSTATUS:COMPLETED\r\nCOMPLETED:20241002T100000Z\r\nDUE;VALUE=DATE:20241005\r\nPRIORITY:1\r\nX-APPLE-SORT-ORDER:42\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nDESCRIPTION:Soon\r\nEND:VALARM"
            )
            let saved = try await put(app, callPath, account, ticked, headers: [("If-Match", etag)])
            XCTAssertEqual(saved.status, .noContent, saved.text)
            let done = try await app.send(.GET, "/api/tasks/\(call)", headers: account.bearer)
            let doneData = try XCTUnwrap(try done.json()["data"] as? [String: Any])
            XCTAssertEqual(doneData["completed"] as? Bool, true, done.text)
            let after = try await app.send(.GET, callPath, headers: basic(account), body: nil)
            for line in [
                "STATUS:COMPLETED", "PRIORITY:1", "DUE;VALUE=DATE:20241005", "X-APPLE-SORT-ORDER:42", "TRIGGER:-PT15M",
                "UID:\(uid)",
            ] {
                XCTAssertTrue(after.text.contains(line), "\(line) kept: \(after.text)")
            }
            XCTAssertEqual(after.text.components(separatedBy: "SUMMARY:").count, 2, "one summary: \(after.text)")

            // The ETag the phone saw before is stale now.
            let stale = try await put(app, callPath, account, ticked, headers: [("If-Match", etag)])
            XCTAssertEqual(stale.status, .preconditionFailed, stale.text)

            // A to-do made on the phone, at the phone's own file name.
            let shopping = Self.tasks + "F00D-1.ics"
            let made = try await put(
                app, shopping, account, Self.todo(uid: "F00D-1", summary: "Buy bread"),
                headers: [("If-None-Match", "*")])
            XCTAssertEqual(made.status, .created, made.text)
            let again = try await put(
                app, shopping, account, Self.todo(uid: "F00D-1", summary: "Buy bread"),
                headers: [("If-None-Match", "*")])
            XCTAssertEqual(again.status, .preconditionFailed, again.text)
            let conflict = try await put(
                app, Self.tasks + "other.ics", account, Self.todo(uid: "F00D-1", summary: "Copy"))
            XCTAssertEqual(conflict.status, .forbidden, conflict.text)
            XCTAssertTrue(conflict.text.contains("<cal:no-uid-conflict/>"), conflict.text)
            let all = try await app.send(.GET, "/api/tasks", headers: account.bearer)
            let titles = try XCTUnwrap(try all.json()["data"] as? [[String: Any]]).compactMap { $0["title"] as? String }
            XCTAssertEqual(titles.sorted(), ["Buy bread", "Call Ada"], all.text)

            // Done in a range of time: a prop-filter's time-range on COMPLETED.
            let doneSince = try await dav(
                app, .REPORT, Self.tasks, account,
                body: Self.query(
                    #"<c:prop-filter name="COMPLETED"><c:time-range start="20000101T000000Z"/></c:prop-filter>"#,
                    component: "VTODO"))
            XCTAssertEqual(members(doneSince.text).map(\.href), [callPath], doneSince.text)
            // Open to-dos, as task apps ask: COMPLETED not defined.
            let open = try await dav(
                app, .REPORT, Self.tasks, account,
                body: Self.query(
                    #"<c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>"#, component: "VTODO"))
            XCTAssertEqual(members(open.text).map(\.href), [shopping], open.text)

            let before = try await dav(app, .REPORT, Self.tasks, account, body: Self.sync(""))
            let deleted = try await app.send(.DELETE, shopping, headers: basic(account), body: nil)
            XCTAssertEqual(deleted.status, .noContent, deleted.text)
            let remaining = try await app.send(.GET, "/api/tasks", headers: account.bearer)
            XCTAssertEqual((try remaining.json()["data"] as? [[String: Any]])?.count, 1, remaining.text)
            // Deleted in Locify, told to the phone at its file name.
            let callDeleted = try await app.send(.DELETE, "/api/tasks/\(call)", headers: account.bearer)
            XCTAssertEqual(callDeleted.status, .ok, callDeleted.text)
            let told = try await dav(app, .REPORT, Self.tasks, account, body: Self.sync(token(in: before.text)))
            XCTAssertEqual(
                Set(members(told.text).map { [$0.href, $0.status ?? ""] }),
                [[shopping, "HTTP/1.1 404 Not Found"], [callPath, "HTTP/1.1 404 Not Found"]], told.text)
        }
    }

    private func recordUUID(at path: String, _ app: Application, _ account: TestAccount) async throws -> String {
        let record = try await app.send(.GET, path, headers: account.bearer)
        let data = try XCTUnwrap(try record.json()["data"] as? [String: Any], record.text)
        return try XCTUnwrap(data["uuid"] as? String, record.text)
    }
}
