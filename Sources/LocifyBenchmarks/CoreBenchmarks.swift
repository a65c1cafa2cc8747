import Foundation
import LocifyCore

/// Measures the Core's hot paths, for `locify bench`. Each figure is a rate or a duration measured on
/// this machine; run a release build (`swift run -c release locify bench`) for numbers worth quoting.
public enum CoreBenchmarks {
    public struct Measurement: Sendable {
        public let name: String
        public let value: Double
        public let unit: String
    }

    /// `scale` shrinks every loop (tests pass a small one to check the command works).
    public static func run(
        scale: Double = 1, clock: () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) -> [Measurement] {
        var results: [Measurement] = []
        func iterations(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }
        func rate(_ name: String, count: Int, _ body: () -> Void) {
            let start = clock()
            body()
            let seconds = max(clock() - start, 1e-9)
            results.append(Measurement(name: name, value: Double(count) / seconds, unit: "per second"))
        }

        let data = (try? BundledResource.gazetteerTSV()) ?? Data()
        let loadStart = clock()
        let gazetteer = Gazetteer(tsv: data)
        results.append(
            Measurement(
                name: "gazetteer load (\(gazetteer.places.count) places)", value: (clock() - loadStart) * 1000,
                unit: "ms"))

        let geocoder = GazetteerGeocoder(gazetteer: { gazetteer })
        let queries = [
            GeocodingQuery(text: "Springfield", country: "US", province: "IL"), GeocodingQuery(text: "Zurich"),
            GeocodingQuery(text: "Paris", country: "FR"), GeocodingQuery(text: "Saint-Étienne"),
            GeocodingQuery(text: "10 Main St, Springfield, MA", country: "US"),
            GeocodingQuery(text: "Kyoto", country: "JP"),
        ]
        var found = 0
        let searches = iterations(200_000)
        rate("geocoder searches", count: searches) {
            for index in 0..<searches { found &+= geocoder.results(for: queries[index % queries.count]).count }
        }
        var generator = SystemRandomNumberGenerator()
        let points = (0..<1000).map { _ in
            Coordinate(
                latitude: Double.random(in: -50...60, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator))
        }
        let reverses = iterations(100_000)
        rate("reverse look-ups", count: reverses) {
            for index in 0..<reverses where gazetteer.nearest(to: points[index % points.count]) != nil { found &+= 1 }
        }

        let formats = AddressFormats.bundled
        let regions = formats.byRegion.keys.sorted()
        let sample = AddressValues(
            street: "12 Sample Street", city: "Sampleton", province: "Sample Province", postalCode: "12345")
        var lines = 0
        let formatted = iterations(300_000)
        rate("address formats", count: formatted) {
            for index in 0..<formatted {
                lines &+=
                    formats.byRegion[regions[index % regions.count]]?.lines(for: sample, countryName: "Country").count
                    ?? 0
            }
        }
        let drafts = [
            PostalAddressDraft(street: "10 Downing Street", city: "London", postalCode: "SW1A 2AA", country: "GB"),
            PostalAddressDraft(city: "Zürich", postalCode: "8001", country: "CH", latitude: 47.37, longitude: 8.54),
            PostalAddressDraft(city: "Springfield", province: "IL", postalCode: "62704", country: "US"),
        ]
        let validations = iterations(200_000)
        rate("address validations", count: validations) {
            for index in 0..<validations where (try? drafts[index % drafts.count].validated()) != nil { lines &+= 1 }
        }

        let schedule = ReminderSchedule(
            initialDate: CalendarDate(year: 2000, month: 1, day: 31)!, recurrence: .months(1))
        let today = CalendarDate(year: 2026, month: 11, day: 22)!
        let nexts = iterations(1_000_000)
        rate("next reminder occurrences", count: nexts) {
            for index in 0..<nexts
            where schedule.nextOccurrence(onOrAfter: today.adding(days: index % 400) ?? today) != nil { lines &+= 1 }
        }
        let basemap = try? Basemap(
            countriesGeoJSON: (try? BundledResource.countriesGeoJSON()) ?? Data(),
            gazetteer: { gazetteer })
        let tiles = (0..<64).compactMap { index in
            let zoom = [2, 4, 6, 8][index % 4]
            return Tile(containing: points[index % points.count], zoom: zoom)
        }
        let rendered = iterations(2_000)
        rate("basemap tiles rendered", count: rendered) {
            for index in 0..<rendered { lines &+= basemap?.tile(tiles[index % tiles.count]).utf8.count ?? 0 }
        }
        // Keeps the optimiser from removing the loops.
        if found == -1 || lines == -1 { print(found, lines) }
        return results
    }
}
