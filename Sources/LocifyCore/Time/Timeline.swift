/// Reminders grouped the way people scan them: overdue, today, this week, this month, later.
public struct Timeline<Item> {
    public struct Entry {
        public let item: Item
        /// The occurrence shown: the next one on or after today, or the missed date when overdue.
        public let date: CalendarDate
    }

    public var overdue: [Entry] = []
    public var today: [Entry] = []
    public var thisWeek: [Entry] = []
    public var thisMonth: [Entry] = []
    public var later: [Entry] = []

    /// Groups `items` for `today`. A one-time reminder before today that is not done is overdue (it is
    /// never moved to next year, as Monica did), and one that is done is left out, even if its day is still
    /// to come; recurring reminders show their next occurrence. The
    /// week runs from `weekStartsOn` (1 = Sunday … 7 = Saturday); an item both in this week and next
    /// month counts as this week. Each group is in date order.
    public init(
        _ items: [Item], today: CalendarDate, weekStartsOn: Int = 2,
        schedule: (Item) -> ReminderSchedule, isDone: (Item) -> Bool = { _ in false }
    ) {
        let daysIntoWeek = (today.weekday - weekStartsOn + 7) % 7
        let endOfWeek = today.adding(days: 6 - daysIntoWeek) ?? today
        let endOfMonth = today.lastDayOfMonth
        for item in items {
            let plan = schedule(item)
            // A one-time reminder marked done has nothing left to come, whether its day is past or not.
            if plan.recurrence == .once, isDone(item) { continue }
            guard let next = plan.nextOccurrence(onOrAfter: today) else {
                if plan.recurrence == .once { overdue.append(Entry(item: item, date: plan.initialDate)) }
                continue
            }
            let entry = Entry(item: item, date: next)
            if next == today {
                self.today.append(entry)
            } else if next <= endOfWeek {
                thisWeek.append(entry)
            } else if next <= endOfMonth {
                thisMonth.append(entry)
            } else {
                later.append(entry)
            }
        }
        for group in [\Timeline.overdue, \.today, \.thisWeek, \.thisMonth, \.later] {
            self[keyPath: group].sort { $0.date < $1.date }
        }
    }

    /// The timeline's groups by their wire names, in the order they are shown.
    public enum Group: String, CaseIterable, Sendable {
        case overdue, today
        case thisWeek = "this_week"
        case thisMonth = "this_month"
        case later
    }

    public subscript(group: Group) -> [Entry] {
        switch group {
        case .overdue: overdue
        case .today: today
        case .thisWeek: thisWeek
        case .thisMonth: thisMonth
        case .later: later
        }
    }
}
