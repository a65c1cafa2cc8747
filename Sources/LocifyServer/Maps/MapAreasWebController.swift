import LocifyCore
import Vapor

/// Settings → Map areas: the areas kept for offline use, each with its size, its archive and a delete
/// button; and the form that saves one from typed edges (the map page's form, with the box in view, posts
/// here too). Keeping an area's tiles on a device is the page script's work (`js/map-areas.js`).
struct MapAreasWebController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(MapPaths.settingsAreas, use: show)
        routes.post(MapPaths.settingsAreas, use: create)
        routes.post(MapPaths.deleteArea, use: delete)
    }

    struct AreaForm: Content {
        var name: String?
        var south: String?
        var west: String?
        var north: String?
        var east: String?
        var maxZoom: String?

        enum CodingKeys: String, CodingKey {
            case name, south, west, north, east
            case maxZoom = "max_zoom"
        }

        /// The draft, and what could not be read as numbers.
        var draft: (MapAreaDraft, [FieldError]) {
            var errors: [FieldError] = []
            func number(_ text: String?, _ field: String) -> Double? {
                LooseValue.number(
                    text, field: field, label: MapAreaDraft.fieldLabels[field] ?? field, problems: &errors)
            }
            let draft = MapAreaDraft(
                name: name, south: number(south, "south"), west: number(west, "west"), north: number(north, "north"),
                east: number(east, "east"),
                maximumZoom: LooseValue.integer(maxZoom, field: "max_zoom", label: "Deepest zoom", problems: &errors))
            return (draft, errors)
        }
    }

    func show(request: Request) async throws -> View {
        try await request.view.render("settings/map-areas", try await MapAreasPage.load(request))
    }

    func create(request: Request) async throws -> Response {
        let form = try request.content.decode(AreaForm.self)
        return try await request.handleForm {
            let (draft, errors) = form.draft
            let area = try await request.mapAreas().create(
                draft, typeErrors: errors, source: request.mapAreaTileSource.source)
            let plan = area.plan
            return .redirect(
                to: MapPaths.settingsAreas.path,
                flash: "“\(plan.name)” was saved: \(plan.tileCount) tiles to zoom \(plan.maximumZoom).")
        } redraw: { errors in
            try await request.view.render(
                "settings/map-areas", try await MapAreasPage.load(request, form: form, errors: errors))
        }
    }

    func delete(request: Request) async throws -> Response {
        let area = try await request.deleteMapArea()
        return request.redirect(to: MapPaths.settingsAreas.path, flash: "“\(area.plan.name)” was deleted.")
    }
}

/// `GET /settings/map-areas`.
enum MapAreasPage {
    struct Row: Encodable {
        let id: String
        let name: String
        let summary: String
        let size: String
        let tileCount: Int
        let archiveURL: String
        let deleteURL: String
        /// The area as the page script reads it (`/api/map-areas/{id}`), to keep it on this device.
        let apiURL: String
    }

    struct Context: Encodable {
        let layout: LayoutContext
        let areas: [Row]
        let mapAreaForm: MapAreaFormView
        let mapURL: String
        let settingsURL: String
        let sourceNote: String
    }

    static func load(
        _ request: Request, form: MapAreasWebController.AreaForm? = nil, errors: FieldMessages = [:]
    ) async throws -> Context {
        let areas = try await request.mapAreas().all()
        let rows = areas.map { area in
            Row(
                id: area.uuid.lowercasedText, name: area.plan.name, summary: summary(area.plan),
                size: area.byteCount.map(FileSize.text) ?? "about "
                    + FileSize.text(request.mapAreaTileSource(for: area).estimatedBytes(of: area.plan)),
                tileCount: area.plan.tileCount, archiveURL: MapPaths.archive(area).path,
                deleteURL: MapPaths.deleteArea(area.uuid.lowercasedText).path,
                apiURL: MapPaths.apiArea(area.uuid.lowercasedText).path)
        }
        return Context(
            layout: LayoutContext(title: "Map areas for offline use", section: .settings, session: request.pageSession),
            areas: rows, mapAreaForm: MapAreaFormView(typed: form, errors: errors), mapURL: SitePaths.map.path,
            settingsURL: SitePaths.settings.path,
            sourceNote: sourceNote(request.mapAreaTileSource.source))
    }

    static func sourceNote(_ source: MapTileSource) -> String {
        switch source {
        case .basemap:
            "Areas are drawn from Locify's own map (countries, coasts and towns): the tile server's policy does not allow downloading its tiles for offline use."
        case .tileServer:
            "Areas are taken from the tile server, whose policy the administrator says allows offline use."
        case .basemapFile: "Areas are taken from this server's own map file (its region: tiles beyond it are left out)."
        }
    }

    /// "10 × 10 km to zoom 16, 878 tiles".
    static func summary(_ plan: MapAreaPlan) -> String {
        "\(plan.box.sizeText) to zoom \(plan.maximumZoom), \(plan.tileCount) tiles"
    }

}

/// The fields of the form that saves an area: a name, the deepest zoom and the box's edges (which the
/// map page's script fills from the map's view).
struct MapAreaFormView: Encodable {
    let action: String
    /// The map whose view fills the box (on the map page).
    let mapTarget: String?
    let estimateURL = MapPaths.apiEstimate.path
    /// The map page, which a device keeps afresh once an area is saved or deleted (its outlines).
    let mapPageURL = SitePaths.map.path
    let areasURL = MapPaths.apiAreas.path
    let nameField: FormField
    let zoomField: FormField
    let boxFields: [FormField]

    static let defaultZoom = 16

    init(
        typed: MapAreasWebController.AreaForm? = nil, errors: FieldMessages = [:], box: MapBox? = nil,
        mapTarget: String? = nil
    ) {
        action = MapPaths.settingsAreas.path
        self.mapTarget = mapTarget
        nameField = FormField(
            "name", label: "Name", value: typed?.name, errors: errors,
            hint: "Left empty, the area is named by its size.",
            maxLength: MapAreaDraft.maximumNameLength
        ).identified(as: "area-name")
        let zoom = typed?.maxZoom ?? String(Self.defaultZoom)
        let labels = [
            12: "12 (towns and main roads)", 14: "14 (streets)", 16: "16 (buildings)", 17: "17 (the deepest)",
        ]
        zoomField = FormField(
            "max_zoom", label: "Deepest zoom", control: .select, errors: errors,
            hint: "Every zoom from the whole world down to this one is kept.",
            options: (8...MapAreaDraft.deepestZoom).map {
                SelectOption(value: String($0), label: labels[$0] ?? String($0), isSelected: String($0) == zoom)
            }
        ).identified(as: "area-max-zoom")
        func edge(_ name: String, _ label: String, _ value: Double?) -> FormField {
            FormField(
                name, label: label, control: .number,
                value: typed.map { form in
                    [
                        "south": form.south, "west": form.west, "north": form.north, "east": form.east,
                    ][name] ?? nil
                } ?? value.map { String(format: "%.5f", $0) }, errors: errors, isRequired: true, inputMode: "decimal",
                dataAttributes: [.init(name: "area-edge", value: name)]
            ).identified(as: "area-" + name)
        }
        boxFields = [
            edge("north", "North (latitude)", box?.north), edge("south", "South (latitude)", box?.south),
            edge("west", "West (longitude)", box?.west), edge("east", "East (longitude)", box?.east),
        ]
    }
}
