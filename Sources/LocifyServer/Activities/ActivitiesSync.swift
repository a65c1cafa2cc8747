import LocifyAPI
import Vapor

extension SyncedType {
    /// An activity travels with who was there; a change of who was there is a change of the activity.
    static let activity = SyncedType(ActivitiesTable.self, writes: .activity, restore: .activity) { request, ids in
        let activities = try await request.activities().activities(ids)
        return byID(try await request.activityResources(activities), id: \.id, as: SyncRecord.activity)
    }

    static let activityType = SyncedType(ActivityTypesTable.self, restore: .activityType) { request, ids in
        let types = try await request.activityTypes().types().filter { ids.contains($0.id) }
        return byID(try await request.activityTypeResources(types), id: \.id, as: SyncRecord.activityType)
    }

    static let activityTypeCategory = SyncedType(ActivityTypeCategoriesTable.self, restore: .activityTypeCategory) {
        request, ids in
        let categories = try await request.activityTypes().categories().filter { ids.contains($0.id) }
        return byID(
            categories.map(ActivityTypeCategoryResource.init), id: \.id, as: SyncRecord.activityTypeCategory)
    }
}

extension SyncWrites {
    static let activity = SyncWrites(
        reading: ActivityInput.self,
        fields: ["summary", "description", "happened_at", "activity_type_id", "emotions", "contacts"],
        create: { request, input, uuid in
            try await request.activities().create(input.draft, typeErrors: input.typeErrors, uuid: uuid).id
        },
        update: { request, id, input in
            _ = try await request.activities().update(id, typeErrors: input.typeErrors) { input.merged(into: $0) }
        },
        delete: { request, id, _ in try await request.activities().delete(id) })
}

extension OfflinePages {
    /// An activity shows on the journal page, and so do the names of its type and category.
    static let activity = OfflinePages(type: SyncedType.activity.name) { _ in [SitePaths.journal.path] }
    static let activityType = OfflinePages(type: SyncedType.activityType.name) { _ in [SitePaths.journal.path] }
    static let activityTypeCategory = OfflinePages(type: SyncedType.activityTypeCategory.name) { _ in
        [SitePaths.journal.path]
    }
}

extension ArchiveRestore {
    /// Those who were there and were imported come back with it.
    static let activity = ArchiveRestore(writes: .activity) { record, ids in
        var fields = try record.fields(
            ["summary", "description", "happened_at", "emotions"], references: ["activity_type_id": "activitytype"],
            ids: ids)
        if case .object(let attendees) = record["attendees"], case .array(let contacts) = attendees["contacts"] ?? .null
        {
            fields["contacts"] = .array(
                ids.ids(of: "contact", contacts.compactMap { ArchivedRecord.id(in: $0) }).map(JSONValue.integer))
        }
        return fields
    }

    /// A type of the same name in the same category (the account's defaults) stands for the archive's.
    static let activityType = ArchiveRestore(
        existing: { request, record, ids in
            guard let categoryID = try ids.id(of: "activitytypecategory", record.referencedID("activity_type_category"))
            else { return nil }
            let types = try await request.activityTypes().types().filter { $0.categoryID == categoryID }
            return record.sameName(among: types, name: \.name)?.id
        },
        create: { request, record, uuid, ids in
            try await request.activityTypes().createType(
                name: record.text("name"),
                categoryID: try ids.id(of: "activitytypecategory", record.referencedID("activity_type_category")),
                locationType: record.text("location_type"), uuid: uuid
            ).id
        })

    static let activityTypeCategory = ArchiveRestore(
        existing: { request, record, _ in
            record.sameName(among: try await request.activityTypes().categories(), name: \.name)?.id
        },
        create: { request, record, uuid, _ in
            try await request.activityTypes().createCategory(name: record.text("name"), uuid: uuid).id
        })
}
