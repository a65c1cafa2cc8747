import Foundation

/// A problem with one of the contact page's small forms (a note, a task, tags), shown beside that form
/// with what was typed, when the page is drawn again.
struct ContactSectionProblem: Encodable {
    enum Section: String, Encodable {
        case note, task, tags, field
    }

    let section: Section
    let message: String
    let typed: String?
    /// The contact field an edit was about; nil for a new one.
    var itemID: Int? = nil
    /// A refused contact field's kind and labels, as chosen.
    var kindID: Int? = nil
    var typedLabels: String? = nil
}
