import NIOConcurrencyHelpers
import Vapor

/// What the parts of one answer that only reads keep for each other, when they assemble records of
/// several features side by side (a sync page): each feature keeps its own kind of value here (the
/// contacts keep `SharedContactReads`), made by the first part that asks.
final class SharedReads: Sendable {
    private let values = NIOLockedValueBox([ObjectIdentifier: any Sendable]())

    /// The answer's one `Value`, made by `make` the first time it is asked for.
    func value<Value: AnyObject & Sendable>(_ make: () -> Value) -> Value {
        values.withLockedValue { values in
            if let kept = values[ObjectIdentifier(Value.self)] as? Value { return kept }
            let made = make()
            values[ObjectIdentifier(Value.self)] = made
            return made
        }
    }
}

extension Request {
    private struct SharedReadsKey: StorageKey {
        typealias Value = SharedReads
    }

    /// Set by an answer that only reads: a part of it may then keep what it read for the others. A
    /// change made after such a read would not be seen, so nothing that writes sets it.
    var sharedReads: SharedReads? {
        get { storage[SharedReadsKey.self] }
        set { storage[SharedReadsKey.self] = newValue }
    }
}
