import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parsed XML element: enough structure for GPX and KML, namespaces reduced to local names; for DAV's
/// bodies, with each element's namespace.
final class XMLElementNode {
    let name: String
    /// The element's namespace URI, when parsed with `namespaces: true`.
    let namespace: String
    let attributes: [String: String]
    var children: [XMLElementNode] = []
    var text = ""

    init(name: String, namespace: String = "", attributes: [String: String]) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
    }

    /// The first child with this namespace and name.
    func child(_ namespace: String, _ name: String) -> XMLElementNode? {
        children.first { $0.namespace == namespace && $0.name == name }
    }

    func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }
    func childText(_ name: String) -> String? {
        child(name).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every descendant called `name`, in document order.
    func descendants(_ name: String) -> [XMLElementNode] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
    }

    static func parse(_ data: Data, namespaces: Bool = false) throws -> XMLElementNode {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = namespaces
        // A body never reaches for other documents (XXE).
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw FormatProblem(
                reason: parser.parserError.map { "not well-formed XML: \($0.localizedDescription)" } ?? "empty document"
            )
        }
        // Foundation's parser on Linux reports success for a document cut short.
        if let open = builder.innermostOpenElement {
            throw FormatProblem(reason: "not well-formed XML: it ends inside <\(open)>")
        }
        return root
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: XMLElementNode?
        private var stack: [XMLElementNode] = []
        var innermostOpenElement: String? { stack.last?.name }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            let node = XMLElementNode(name: local, namespace: namespaceURI ?? "", attributes: attributes)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            stack.last?.text += String(decoding: block, as: UTF8.self)
        }
    }
}

extension PlaceImport {
    /// Parses `data` as XML and hands the root to `read`; a document that is not XML becomes one issue.
    static func fromXML(_ data: Data, _ read: (XMLElementNode, inout PlaceImport) -> Void) -> PlaceImport {
        var result = PlaceImport()
        do {
            read(try XMLElementNode.parse(data), &result)
        } catch {
            result.issues.append(InterchangeIssue(record: 0, reason: (error as? FormatProblem)?.reason ?? "unreadable"))
        }
        return result
    }
}

enum XMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
