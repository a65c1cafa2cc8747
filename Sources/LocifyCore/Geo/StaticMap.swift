import Foundation

extension Basemap {
    /// A picture of the basemap `width` × `height` pixels centred on `center` at `zoom`, with a pin on
    /// it: one SVG, drawn from the basemap's own tiles, for previews that must show without JavaScript.
    public func staticMap(
        center: Coordinate, zoom: Int, width: Int, height: Int, palette: Palette = .light
    ) -> String {
        let n = 1 << zoom
        let world = Tile.worldPosition(of: center, zoom: zoom)
        let left = world.x * 256 - Double(width) / 2
        let top = world.y * 256 - Double(height) / 2
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)">
            """
        let firstColumn = Int((left / 256).rounded(.down))
        let lastColumn = Int(((left + Double(width)) / 256).rounded(.down))
        let firstRow = max(0, Int((top / 256).rounded(.down)))
        let lastRow = min(n - 1, Int(((top + Double(height)) / 256).rounded(.down)))
        if firstRow <= lastRow {
            for column in firstColumn...lastColumn {
                for row in firstRow...lastRow {
                    // Columns past either edge of the world wrap round to its other side.
                    guard let tile = Tile(zoom: zoom, x: ((column % n) + n) % n, y: row) else { continue }
                    let drawn = self.tile(tile, palette: palette)
                    let x = Self.number(Double(column * 256) - left)
                    let y = Self.number(Double(row * 256) - top)
                    svg += drawn.replacingOccurrences(
                        of: #"<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256""#,
                        with: #"<svg x="\#(x)" y="\#(y)" width="256" height="256""#)
                }
            }
        }
        let pinX = Self.number(Double(width) / 2)
        let pinY = Self.number(Double(height) / 2)
        svg += """
            <g transform="translate(\(pinX) \(pinY))"><path d="M0 0 C-3 -9 -11 -13 -11 -21 A11 11 0 1 1 11 -21 \
            C11 -13 3 -9 0 0Z" fill="#d63b3b" stroke="#fff" stroke-width="2"/><circle cy="-21" r="4" fill="#fff"/></g>\
            </svg>
            """
        return svg
    }
}
