import Foundation
import LocifyCore
import Vapor

extension Request {
    /// The `uuid` a create's body names, so a client can retry the create without making a twin; nil when
    /// it names none. A value that is not a UUID is refused before anything is written.
    func clientUUID() throws -> UUID? {
        let value: Any?
        if headers.contentType == .json {
            guard let body = body.data, body.readableBytes > 0,
                let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
            else { return nil }  // a body that is not an object is the input reader's to refuse
            value = object["uuid"]
        } else if headers.contentType?.type == "multipart" || headers.contentType == .urlEncodedForm {
            value = try? content.get(String.self, at: "uuid")
        } else {
            return nil
        }
        guard let value, !(value is NSNull) else { return nil }
        guard let text = value as? String, let uuid = UUID(uuidString: text) else {
            throw ValidationFailure(
                field: "uuid", "The uuid must be a UUID such as 6a2f41a3-c54c-fce8-32d2-0324e1c32e22, or left out.")
        }
        return uuid
    }

    /// Answers a create a client may name with its own uuid: what `create` makes, with `createdStatus`;
    /// or, when the owner already has a record of `table` with that uuid (the create was made before and
    /// this is a retry), that record, with 200. The service says so (`requireNewRecord`) once the input
    /// has passed its checks; a retry racing the first try finds the first's record when its own insert is
    /// refused by the uuid's uniqueness.
    func answerCreate<Table: StoredTable, Answer: AsyncResponseEncodable>(
        of table: Table.Type, uuid: UUID?, createdStatus: HTTPStatus = .created,
        existing: (Int) async throws -> Answer, create: () async throws -> Answer
    ) async throws -> Response {
        guard let uuid else { return try await create().encodeResponse(status: createdStatus, for: self) }
        do {
            return try await create().encodeResponse(status: createdStatus, for: self)
        } catch let made as ExistingRecord {
            return try await existing(made.id).encodeResponse(status: .ok, for: self)
        } catch let failure as ValidationFailure {
            throw failure
        } catch {
            guard let id = try await database.recordID(identifiedBy: uuid, in: table, ownedBy: try requireUser().id)
            else { throw error }
            return try await existing(id).encodeResponse(status: .ok, for: self)
        }
    }
}
