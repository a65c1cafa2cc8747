import Foundation
import LocifyCore
import Vapor

extension FormName {
    static let journalEntry = FormName("journal-entry")
}

/// The journal page: newest entry first, the form for a new one, each entry's edit and delete.
enum JournalPage {
    /// The newest this many entries show.
    static let shownOnPage = 100
    /// The newest this many activities show.
    static let activitiesShown = 50

    struct Line: Encodable {
        let id: Int
        let title: String
        let post: String
        let written: String
        let editURL: String
        let deleteURL: String
        let titleField: FormField
        let postField: FormField
        let isEditing: Bool

        init(_ entry: JournalEntry, problem: FormProblem?) {
            id = entry.id
            title = entry.fields.title
            post = entry.fields.post
            written = CalendarDate(entry.createdAt, in: .gmt).dayMonthYear
            editURL = JournalPaths.entry(entry.id).path
            deleteURL = JournalPaths.delete(entry.id).path
            let error = problem?.message(for: .journalEntry, item: entry.id)
            isEditing = error != nil
            titleField = FormField(
                "title", label: "Title",
                value: problem?.typed("title", in: .journalEntry, item: entry.id) ?? entry.fields.title, error: error,
                isRequired: true, maxLength: JournalEntryDraft.maximumTitleLength
            ).identified(as: "entry-\(entry.id)-title")
            postField = FormField(
                "post", label: "Entry", control: .textarea,
                value: problem?.typed("post", in: .journalEntry, item: entry.id) ?? entry.fields.post,
                isRequired: true, maxLength: JournalEntryDraft.maximumPostLength
            ).identified(as: "entry-\(entry.id)-post")
        }
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let entries: [Line]
        let total: Int
        let addURL: String
        let titleField: FormField
        let postField: FormField
        let isAdding: Bool
        /// The newest activities, with where to add one.
        let activities: [ActivityLine]
        let activityTotal: Int
        let newActivityURL: String

        init(
            entries: [JournalEntry], total: Int, activities: [ActivityLine] = [], activityTotal: Int = 0,
            session: PageSession, problem: FormProblem? = nil
        ) {
            self.activities = activities
            self.activityTotal = activityTotal
            newActivityURL = ActivityPaths.new.path
            layout = LayoutContext(title: "Journal", section: .reminders, session: session)
            self.entries = entries.map { Line($0, problem: problem) }
            self.total = total
            addURL = JournalPaths.page.path
            let error = problem?.message(for: .journalEntry)
            isAdding = error != nil
            titleField = FormField(
                "title", label: "Title", value: problem?.typed("title", in: .journalEntry), error: error,
                isRequired: true, maxLength: JournalEntryDraft.maximumTitleLength
            ).identified(as: "new-entry-title")
            postField = FormField(
                "post", label: "Entry", control: .textarea, value: problem?.typed("post", in: .journalEntry),
                isRequired: true, maxLength: JournalEntryDraft.maximumPostLength, rows: 6
            ).identified(as: "new-entry-post")
        }
    }

    static func load(_ request: Request, problem: FormProblem? = nil) async throws -> Context {
        let (entries, window) = try await request.journal().page(
            sort: ListSort(TimestampSortField.createdAt, descending: true),
            page: PageSelection(page: 1, limit: shownOnPage))
        let activities = try await ActivityLine.newest(request, limit: activitiesShown)
        return Context(
            entries: entries, total: window.total, activities: activities.lines, activityTotal: activities.total,
            session: request.pageSession, problem: problem)
    }
}
