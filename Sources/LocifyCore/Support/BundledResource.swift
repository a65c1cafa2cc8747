import Foundation

/// Reads the data shipped in the package's resources.
public enum BundledResource {
    struct Missing: Error, CustomStringConvertible {
        let fileName: String
        var description: String { "\(fileName) is missing from the LocifyCore bundle" }
    }

    /// The raw bytes of a bundled file, memory-mapped where the system allows it.
    public static func data(named name: String, extension fileExtension: String = "json") throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: fileExtension) else {
            throw Missing(fileName: "\(name).\(fileExtension)")
        }
        return try Data(contentsOf: url, options: .mappedIfSafe)
    }

    /// The GeoNames places, one per line (`Gazetteer(tsv:)` reads them).
    public static func gazetteerTSV() throws -> Data {
        try data(named: "cities1000", extension: "tsv")
    }

    /// The Natural Earth country outlines (`Basemap(countriesGeoJSON:)` reads them).
    public static func countriesGeoJSON() throws -> Data {
        try data(named: "countries-110m", extension: "geojson")
    }

    static func decode<Value: Decodable>(_ type: Value.Type, named name: String) throws -> Value {
        try JSONDecoder().decode(type, from: data(named: name))
    }
}
