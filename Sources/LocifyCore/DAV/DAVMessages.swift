import Foundation

/// The XML namespaces of WebDAV (RFC 4918), CardDAV (RFC 6352), CalDAV (RFC 4791) and Apple's
/// calendarserver extensions (`getctag`), with the prefixes Locify's answers give them.
public enum DAVNamespace {
    public static let dav = "DAV:"
    public static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    public static let calDAV = "urn:ietf:params:xml:ns:caldav"
    public static let calendarServer = "http://calendarserver.org/ns/"

    static let prefixes: [(namespace: String, prefix: String)] = [
        (dav, "d"), (cardDAV, "card"), (calDAV, "cal"), (calendarServer, "cs"),
    ]
}

/// A property or element name: a namespace and a local name.
public struct DAVName: Hashable, Sendable, CustomStringConvertible {
    public let namespace: String
    public let name: String

    public init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    public static func dav(_ name: String) -> DAVName { DAVName(DAVNamespace.dav, name) }
    public static func cardDAV(_ name: String) -> DAVName { DAVName(DAVNamespace.cardDAV, name) }
    public static func calDAV(_ name: String) -> DAVName { DAVName(DAVNamespace.calDAV, name) }
    public static func calendarServer(_ name: String) -> DAVName { DAVName(DAVNamespace.calendarServer, name) }

    public var description: String { "{\(namespace)}\(name)" }
}

/// A request body DAV refuses: not XML, or not the element the method expects.
public struct DAVBodyProblem: Error, Equatable, Sendable {
    public let reason: String
}

/// A `calendar-query` filter Locify cannot evaluate (a `param-filter`, a component it does not hold):
/// refused as RFC 4791 says (`supported-filter`), not answered wrongly.
public struct DAVUnsupportedFilter: Error, Equatable, Sendable {
    public let reason: String
}

/// What a `PROPFIND` or a report asks to be told of each resource.
public enum DAVPropertyRequest: Equatable, Sendable {
    /// `allprop`, or no body at all.
    case all
    /// `propname`: the names only.
    case names
    case some([DAVName])
}

/// A text-match of an `addressbook-query` filter (RFC 6352, 10.5.4), on one property of the card.
public struct DAVTextMatch: Equatable, Sendable {
    public enum MatchType: String, Sendable {
        case equals, contains
        case startsWith = "starts-with"
        case endsWith = "ends-with"
    }

    /// The vCard property, upper case (`FN`, `EMAIL`, `TEL`).
    public let property: String
    public let text: String
    public let matchType: MatchType
    public let negated: Bool

    public init(property: String, text: String, matchType: MatchType = .contains, negated: Bool = false) {
        self.property = property
        self.text = text
        self.matchType = matchType
        self.negated = negated
    }

    /// Whether one of `values` matches, compared as `i;unicode-casemap` compares (case folded).
    public func matches(_ values: [String]) -> Bool {
        let wanted = text.folding(options: [.caseInsensitive], locale: nil)
        let found = values.contains { value in
            let folded = value.folding(options: [.caseInsensitive], locale: nil)
            return switch matchType {
            case .equals: folded == wanted
            case .contains: folded.contains(wanted)
            case .startsWith: folded.hasPrefix(wanted)
            case .endsWith: folded.hasSuffix(wanted)
            }
        }
        return found != negated
    }
}

/// What a report's `address-data` asks of each card (RFC 6352 10.4): a vCard version, and only some of its
/// properties (`<card:prop name="EMAIL"/>`) or all.
public struct DAVAddressDataRequest: Equatable, Sendable {
    public var version: String?
    /// Upper case; nil for the whole card.
    public var properties: [String]?

    public init(version: String? = nil, properties: [String]? = nil) {
        self.version = version
        self.properties = properties
    }

    /// `card` with only the properties asked for, and what makes it a card (BEGIN, END, VERSION).
    public func selected(from card: String) -> String {
        guard let properties else { return card }
        let wanted = Set(properties).union(["BEGIN", "END", "VERSION"])
        return ContentLines.unfold(card).filter { line in
            ContentLines.parseLine(line).map { wanted.contains($0.name) } ?? false
        }.map(ContentLines.fold).joined()
    }
}

/// The reports Locify answers, as read from a `REPORT` body.
public enum DAVReport: Equatable, Sendable {
    /// RFC 6352 8.7: the cards at these addresses.
    case addressBookMultiget(properties: DAVPropertyRequest, hrefs: [String], addressData: DAVAddressDataRequest)
    /// RFC 6352 8.6: the cards whose properties match; `allOf` false is `anyof` (the default).
    case addressBookQuery(
        properties: DAVPropertyRequest, matches: [DAVTextMatch], allOf: Bool, limit: Int?,
        addressData: DAVAddressDataRequest)
    /// RFC 6578: what changed after `token` (empty: everything).
    case syncCollection(token: String, properties: DAVPropertyRequest, limit: Int?, addressData: DAVAddressDataRequest)
    /// RFC 4791 7.9: the calendar objects at these addresses.
    case calendarMultiget(properties: DAVPropertyRequest, hrefs: [String], calendarData: DAVCalendarDataRequest)
    /// RFC 4791 7.8: the calendar objects the filter picks (every one without a filter).
    case calendarQuery(
        properties: DAVPropertyRequest, filter: DAVComponentFilter?, calendarData: DAVCalendarDataRequest)
    /// A report Locify does not know.
    case unsupported(DAVName)
}

/// Reads the bodies of `PROPFIND` and `REPORT`.
public enum DAVRequestBody {
    public static func propertyRequest(ofPropfind data: Data) throws -> DAVPropertyRequest {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return .all }
        let root = try parse(data)
        guard root.namespace == DAVNamespace.dav, root.name == "propfind" else {
            throw DAVBodyProblem(reason: "The body of a PROPFIND must be a DAV:propfind element.")
        }
        return try propertyRequest(in: root) ?? .all
    }

    public static func report(_ data: Data) throws -> DAVReport {
        let root = try parse(data)
        let properties = try propertyRequest(in: root) ?? .all
        let element = root.child(DAVNamespace.dav, "prop")?.child(DAVNamespace.cardDAV, "address-data")
        let named = element?.children.filter { $0.name == "prop" }.compactMap { $0.attributes["name"]?.uppercased() }
        let addressData = DAVAddressDataRequest(
            version: element?.attributes["version"], properties: (named?.isEmpty ?? true) ? nil : named)
        switch (root.namespace, root.name) {
        case (DAVNamespace.cardDAV, "addressbook-multiget"):
            return .addressBookMultiget(properties: properties, hrefs: hrefs(in: root), addressData: addressData)
        case (DAVNamespace.cardDAV, "addressbook-query"):
            let filter = root.child(DAVNamespace.cardDAV, "filter")
            var matches: [DAVTextMatch] = []
            for propertyFilter in filter?.children ?? [] where propertyFilter.name == "prop-filter" {
                guard let property = propertyFilter.attributes["name"]?.uppercased() else {
                    throw DAVBodyProblem(reason: "A prop-filter needs the name of a vCard property.")
                }
                for match in propertyFilter.children where match.name == "text-match" {
                    matches.append(try textMatch(match, on: property))
                }
            }
            return .addressBookQuery(
                properties: properties, matches: matches, allOf: filter?.attributes["test"] == "allof",
                limit: try limit(in: root), addressData: addressData)
        case (DAVNamespace.calDAV, "calendar-multiget"):
            return .calendarMultiget(
                properties: properties, hrefs: hrefs(in: root), calendarData: try calendarDataRequest(in: root))
        case (DAVNamespace.calDAV, "calendar-query"):
            let filter = try root.child(DAVNamespace.calDAV, "filter").map { element in
                guard let top = element.children.first(where: { $0.name == "comp-filter" }) else {
                    throw DAVBodyProblem(reason: "A calendar-query filter needs a comp-filter.")
                }
                return try componentFilter(top)
            }
            return .calendarQuery(
                properties: properties, filter: filter, calendarData: try calendarDataRequest(in: root))
        case (DAVNamespace.dav, "sync-collection"):
            let token = root.child(DAVNamespace.dav, "sync-token")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
            return .syncCollection(
                token: token ?? "", properties: properties, limit: try limit(in: root), addressData: addressData)
        default:
            return .unsupported(DAVName(root.namespace, root.name))
        }
    }

    /// What the report's `calendar-data` property asks of each object (RFC 4791 9.6).
    private static func calendarDataRequest(in root: XMLElementNode) throws -> DAVCalendarDataRequest {
        guard let element = root.child(DAVNamespace.dav, "prop")?.child(DAVNamespace.calDAV, "calendar-data") else {
            return DAVCalendarDataRequest()
        }
        func component(_ element: XMLElementNode) throws -> DAVCalendarDataRequest.Component {
            guard let name = element.attributes["name"]?.uppercased(), !name.isEmpty else {
                throw DAVBodyProblem(reason: "A calendar-data comp needs the name of a component.")
            }
            let children = element.children.filter { $0.namespace == DAVNamespace.calDAV }
            let properties =
                children.contains { $0.name == "allprop" }
                ? nil : children.filter { $0.name == "prop" }.compactMap { $0.attributes["name"]?.uppercased() }
            let components =
                children.contains { $0.name == "allcomp" }
                ? nil : try children.filter { $0.name == "comp" }.map(component)
            return .init(name: name, properties: properties, components: components)
        }
        var request = DAVCalendarDataRequest()
        for child in element.children where child.namespace == DAVNamespace.calDAV {
            switch child.name {
            case "comp": request.component = try component(child)
            case "expand":
                let range = try timeRange(child)
                guard range.start != nil, range.end != nil else {
                    throw DAVBodyProblem(reason: "An expand needs a start and an end.")
                }
                request.expand = range
            // `limit-recurrence-set` keeps the overridden instances of a range: Locify's events have none,
            // so the whole object is that set already.
            default: continue
            }
        }
        return request
    }

    private static func hrefs(in root: XMLElementNode) -> [String] {
        root.children.filter { $0.namespace == DAVNamespace.dav && $0.name == "href" }
            .map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private static func componentFilter(_ element: XMLElementNode) throws -> DAVComponentFilter {
        guard let name = element.attributes["name"]?.uppercased(), !name.isEmpty else {
            throw DAVBodyProblem(reason: "A comp-filter needs the name of a component.")
        }
        var filter = DAVComponentFilter(name: name)
        for child in element.children where child.namespace == DAVNamespace.calDAV {
            switch child.name {
            case "is-not-defined": filter.isNotDefined = true
            case "time-range": filter.timeRange = try timeRange(child)
            case "comp-filter": filter.components.append(try componentFilter(child))
            case "prop-filter": filter.properties.append(try propertyFilter(child))
            default: throw DAVUnsupportedFilter(reason: "Locify does not evaluate a \(child.name) in a comp-filter.")
            }
        }
        return filter
    }

    private static func propertyFilter(_ element: XMLElementNode) throws -> DAVPropertyFilter {
        guard let name = element.attributes["name"]?.uppercased(), !name.isEmpty else {
            throw DAVBodyProblem(reason: "A prop-filter needs the name of a property.")
        }
        var filter = DAVPropertyFilter(name: name)
        for child in element.children where child.namespace == DAVNamespace.calDAV {
            switch child.name {
            case "is-not-defined": filter.isNotDefined = true
            case "time-range": filter.timeRange = try timeRange(child)
            case "text-match": filter.textMatch = try textMatch(child, on: name)
            default: throw DAVUnsupportedFilter(reason: "Locify does not evaluate a \(child.name) in a prop-filter.")
            }
        }
        return filter
    }

    private static func textMatch(_ element: XMLElementNode, on property: String) throws -> DAVTextMatch {
        let kind = element.attributes["match-type"] ?? "contains"
        guard let matchType = DAVTextMatch.MatchType(rawValue: kind) else {
            throw DAVBodyProblem(reason: "Unknown match-type “\(kind)”.")
        }
        return DAVTextMatch(
            property: property, text: element.text, matchType: matchType,
            negated: element.attributes["negate-condition"] == "yes")
    }

    /// `start` and `end` in UTC (`20060104T000000Z`), at least one of them (RFC 4791 9.9).
    private static func timeRange(_ element: XMLElementNode) throws -> DAVTimeRange {
        func instant(_ attribute: String) throws -> Date? {
            guard let text = element.attributes[attribute] else { return nil }
            guard text.hasSuffix("Z"), let date = ICalendar.parseTimestamp(String(text.dropLast())), text.count == 16
            else {
                throw DAVBodyProblem(reason: "A time-range's \(attribute) must be a UTC date-time (20060104T000000Z).")
            }
            return date
        }
        let range = DAVTimeRange(start: try instant("start"), end: try instant("end"))
        guard range.start != nil || range.end != nil else {
            throw DAVBodyProblem(reason: "A time-range needs a start or an end.")
        }
        if let start = range.start, let end = range.end, end <= start {
            throw DAVBodyProblem(reason: "A time-range's end must come after its start.")
        }
        return range
    }

    private static func parse(_ data: Data) throws -> XMLElementNode {
        do {
            return try XMLElementNode.parse(data, namespaces: true)
        } catch let problem as FormatProblem {
            throw DAVBodyProblem(reason: "The body is \(problem.reason).")
        }
    }

    private static func propertyRequest(in root: XMLElementNode) throws -> DAVPropertyRequest? {
        if root.child(DAVNamespace.dav, "allprop") != nil { return .all }
        if root.child(DAVNamespace.dav, "propname") != nil { return .names }
        guard let prop = root.child(DAVNamespace.dav, "prop") else { return nil }
        return .some(prop.children.map { DAVName($0.namespace, $0.name) })
    }

    /// `<DAV:limit><DAV:nresults>N</DAV:nresults></DAV:limit>` (RFC 5323, used by RFC 6578 and 6352).
    private static func limit(in root: XMLElementNode) throws -> Int? {
        guard let limit = root.child(DAVNamespace.dav, "limit") else { return nil }
        guard let text = limit.child(DAVNamespace.dav, "nresults")?.text.trimmingCharacters(in: .whitespaces),
            let count = Int(text), count > 0
        else { throw DAVBodyProblem(reason: "DAV:limit needs a positive DAV:nresults.") }
        return count
    }
}

/// A `207 Multi-Status` answer (RFC 4918, 13).
public struct DAVMultistatus: Sendable {
    /// A property's value, written in the answer.
    public enum Value: Sendable, Equatable {
        case text(String)
        case href(String)
        case hrefs([String])
        /// Empty elements inside the property (`resourcetype`'s `collection` and `addressbook`).
        case elements([DAVName])
        /// Written as it is: markup made of the namespaces' prefixes (`d:`, `card:`, `cal:`, `cs:`).
        case markup(String)
    }

    public struct PropertyStatus: Sendable {
        public let status: Int
        /// A property without a value is written empty (a name asked for and not found, `propname`).
        public let properties: [(DAVName, Value?)]

        public init(status: Int, properties: [(DAVName, Value?)]) {
            self.status = status
            self.properties = properties
        }
    }

    public struct Response: Sendable {
        public let href: String
        public let propertyStatuses: [PropertyStatus]
        /// For a member gone (a sync report's deletions): the status alone.
        public let status: Int?

        public init(href: String, propertyStatuses: [PropertyStatus]) {
            self.href = href
            self.propertyStatuses = propertyStatuses
            status = nil
        }

        public init(href: String, status: Int) {
            self.href = href
            propertyStatuses = []
            self.status = status
        }

        /// The values known of `request`, and the names asked for that are not, each under its status.
        public init(href: String, known: [(DAVName, Value)], request: DAVPropertyRequest) {
            self.href = href
            status = nil
            switch request {
            case .all:
                propertyStatuses = [PropertyStatus(status: 200, properties: known.map { ($0.0, $0.1) })]
            case .names:
                propertyStatuses = [PropertyStatus(status: 200, properties: known.map { ($0.0, nil) })]
            case .some(let names):
                let values = Dictionary(known, uniquingKeysWith: { first, _ in first })
                let found = names.compactMap { name in values[name].map { (name, Optional($0)) } }
                let missing = names.filter { values[$0] == nil }.map { ($0, DAVMultistatus.Value?.none) }
                propertyStatuses =
                    (found.isEmpty ? [] : [PropertyStatus(status: 200, properties: found)])
                    + (missing.isEmpty ? [] : [PropertyStatus(status: 404, properties: missing)])
            }
        }
    }

    public let responses: [Response]
    /// A sync report's new token.
    public let syncToken: String?

    public init(responses: [Response], syncToken: String? = nil) {
        self.responses = responses
        self.syncToken = syncToken
    }

    public var xml: String {
        var out = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<d:multistatus" + Self.namespaceDeclarations + ">"
        for response in responses {
            out += "<d:response><d:href>\(XMLText.escape(response.href))</d:href>"
            if let status = response.status { out += "<d:status>\(Self.statusLine(status))</d:status>" }
            for propertyStatus in response.propertyStatuses {
                out += "<d:propstat><d:prop>"
                for (name, value) in propertyStatus.properties { out += Self.element(name, value) }
                out += "</d:prop><d:status>\(Self.statusLine(propertyStatus.status))</d:status></d:propstat>"
            }
            out += "</d:response>"
        }
        if let syncToken { out += "<d:sync-token>\(XMLText.escape(syncToken))</d:sync-token>" }
        return out + "</d:multistatus>\n"
    }

    /// `<d:error><d:valid-sync-token/></d:error>`: the precondition a refusal names (RFC 4918, 16).
    public static func error(_ condition: DAVName, message: String? = nil) -> String {
        #"<?xml version="1.0" encoding="utf-8"?>"# + "\n<d:error" + namespaceDeclarations + ">"
            + element(condition, nil) + (message.map { element(.dav("responsedescription"), .text($0)) } ?? "")
            + "</d:error>\n"
    }

    private static let namespaceDeclarations = DAVNamespace.prefixes.map { #" xmlns:\#($0.prefix)="\#($0.namespace)""# }
        .joined()

    public static func statusLine(_ status: Int) -> String {
        let reasons = [
            200: "OK", 403: "Forbidden", 404: "Not Found", 507: "Insufficient Storage",
        ]
        return "HTTP/1.1 \(status) \(reasons[status] ?? "Status")"
    }

    /// Element text: `&`, `<` and `>` escaped; quotes stay as written (an ETag is quoted).
    private static func escapeText(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func element(_ name: DAVName, _ value: Value?) -> String {
        let (open, close): (String, String)
        if let prefix = DAVNamespace.prefixes.first(where: { $0.namespace == name.namespace })?.prefix {
            (open, close) = ("\(prefix):\(name.name)", "\(prefix):\(name.name)")
        } else {
            (open, close) = (#"x:\#(name.name) xmlns:x="\#(XMLText.escape(name.namespace))""#, "x:\(name.name)")
        }
        guard let value else { return "<\(open)/>" }
        let inner: String =
            switch value {
            case .text(let text): escapeText(text)
            case .href(let href): "<d:href>\(XMLText.escape(href))</d:href>"
            case .hrefs(let hrefs): hrefs.map { "<d:href>\(XMLText.escape($0))</d:href>" }.joined()
            case .elements(let names): names.map { element($0, nil) }.joined()
            case .markup(let markup): markup
            }
        return "<\(open)>\(inner)</\(close)>"
    }
}
