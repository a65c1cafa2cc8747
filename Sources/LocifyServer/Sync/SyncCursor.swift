import LocifyAPI

/// Where a pull stopped, as a place in the feed's order: by revision, then within a revision by the type's
/// place in `SyncRecord.types` (deletions after every type), then by id. A cursor can point inside a
/// revision, so a revision that touched 50,000 rows (an import) pages exactly. Clients see it as an opaque
/// text.
struct SyncCursor: Equatable, Sendable {
    let revision: Int
    let position: Int
    let id: Int

    /// Before everything: a full download (the empty cursor).
    static let start = SyncCursor(revision: -1, position: afterRevision, id: 0)
    /// Deletions come after every type's changes of their revision.
    static let deletions = 1_000
    /// Past everything of `revision`.
    static let afterRevision = 9_999

    /// Everything of `revision` and before has been read.
    static func after(_ revision: Int) -> SyncCursor {
        SyncCursor(revision: revision, position: afterRevision, id: 0)
    }

    /// Reads a cursor this server gave (`1.<revision>.<position>.<id>`, whole numbers without leading
    /// zeros, as the OpenAPI pattern says); nil for any other text.
    init?(text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "1", let revision = Self.number(parts[1], digits: 18),
            let position = Self.number(parts[2], digits: 4), let id = Self.number(parts[3], digits: 18)
        else { return nil }
        self.init(revision: revision, position: position, id: id)
    }

    private static func number(_ text: Substring, digits: Int) -> Int? {
        guard (1...digits).contains(text.count), text.allSatisfy({ ("0"..."9").contains($0) }),
            text == "0" || text.first != "0"
        else { return nil }
        return Int(text)
    }

    init(revision: Int, position: Int, id: Int) {
        self.revision = revision
        self.position = position
        self.id = id
    }

    var text: String { "1.\(revision).\(position).\(id)" }

    /// Whether an entry at (`revision`, `position`, `id`) comes after this cursor.
    func precedes(revision: Int, position: Int, id: Int) -> Bool {
        (self.revision, self.position, self.id) < (revision, position, id)
    }
}
