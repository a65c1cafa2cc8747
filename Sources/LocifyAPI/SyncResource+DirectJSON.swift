/// A page of the sync feed written straight to the output: a first download writes thirty thousand
/// changes, and the synthesised `Encodable` costs a container box for each change and for its record.
/// Records of types with direct writers (contacts, addresses, places) write themselves; the others go
/// through the generic path. The bytes are the synthesised encoding's (`DirectJSONTests` compares them).
extension SyncPullResource: DirectJSONWritable {
    func writeJSON(to writer: JSONWriter) throws {
        writer.append(#"{"changes":["#)
        for (index, change) in changes.enumerated() {
            if index > 0 { writer.append(",") }
            writer.append(#"{"type":"#)
            writer.writeString(change.type)
            writer.append(#","uuid":"#)
            writer.writeString(change.uuid)
            writer.append(#","id":"#)
            writer.writeInteger(change.id)
            writer.append(#","revision":"#)
            writer.writeInteger(change.revision)
            writer.append(#","data":"#)
            try change.data.writeJSON(to: writer)
            writer.append("}")
        }
        writer.append(#"],"deletions":["#)
        for (index, deletion) in deletions.enumerated() {
            if index > 0 { writer.append(",") }
            writer.append(#"{"type":"#)
            writer.writeString(deletion.type)
            // Absent, not null, as the synthesised encoding leaves it.
            if let uuid = deletion.uuid {
                writer.append(#","uuid":"#)
                writer.writeString(uuid)
            }
            writer.append(#","id":"#)
            writer.writeInteger(deletion.id)
            writer.append(#","revision":"#)
            writer.writeInteger(deletion.revision)
            writer.append("}")
        }
        writer.append(#"],"cursor":"#)
        writer.writeString(cursor)
        writer.append(#","has_more":"#)
        writer.writeBool(hasMore)
        writer.append("}")
    }
}

extension SyncRecord {
    func writeJSON(to writer: JSONWriter) throws {
        switch self {
        case .contact(let resource): try resource.writeJSON(to: writer)
        case .address(let resource): try resource.writeJSON(to: writer)
        case .place(let resource): try resource.writeJSON(to: writer)
        default: try writer.write(self, depth: writer.open.count)
        }
    }
}
