import FluentKit
import Vapor

extension Request {
    /// The database this request's services read and write: the write transaction the request has open
    /// (a sync push applies all its mutations in one), else the request's own. A service built inside
    /// the transaction must read through it too, or on PostgreSQL it would not see what the push wrote
    /// a moment before (an address for a contact the same push created).
    var database: any Database { WriteRevision.current?.database ?? db }
}
