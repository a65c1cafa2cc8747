import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parsed XML element: enough structure for GPX and KML, namespaces reduced to local names.
final class XMLElementNode {
    let name: String
    let attributes: [String: String]
    var children: [XMLElementNode] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }
    func childText(_ name: String) -> String? {
        child(name).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Every descendant called `name`, in document order.
    func descendants(_ name: String) -> [XMLElementNode] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.descendants(name) }
    }

    static func parse(_ data: Data) throws -> XMLElementNode {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw FormatProblem(
                reason: parser.parserError.map { "not well-formed XML: \($0.localizedDescription)" } ?? "empty document"
            )
        }
        return root
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: XMLElementNode?
        private var stack: [XMLElementNode] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let local = name.split(separator: ":").last.map(String.init) ?? name
            let node = XMLElementNode(name: local, attributes: attributes)
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
