import Foundation
import Geo
import Model

/// A point on a page in points, origin at the top left, y growing down (as `Rect`).
public struct PagePoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Projects coordinates onto a page: a local equirectangular projection (`LocalFrame`, east and
/// north in metres at the centre of the coordinates' bounding box) scaled uniformly into a
/// rectangle, north up. One scale on both axes, so shapes and the scale bar stay true; near the
/// centre the error is under 0.1 % for a route of 100 km (the frame's radii are those of its
/// centre latitude).
public struct MapProjection: Sendable {
    /// The plane the coordinates are flattened into.
    public let frame: LocalFrame
    /// Page points per metre on the ground.
    public let pointsPerMetre: Double
    /// Where the frame's origin lands on the page.
    public let originOnPage: PagePoint

    /// A projection that fits `coordinates` into `rect`, centred, keeping the aspect ratio.
    /// - Parameters:
    ///   - coordinates: the points to fit; at least one.
    ///   - rect: the page area, in points; must have a positive size.
    ///   - minimumExtent: the smallest ground extent shown, in metres, so a single point or a very
    ///     short route is not magnified without bound.
    /// - Returns: nil when there is nothing to fit or no room. O(n).
    public init?(fitting coordinates: [Coordinate], into rect: Rect, minimumExtent: Metres = 200) {
        guard let first = coordinates.first, rect.width > 0, rect.height > 0 else { return nil }
        // Longitudes relative to the first point, so a route across the antimeridian stays whole.
        var minLat = first.latitude, maxLat = first.latitude, minLon = 0.0, maxLon = 0.0
        for c in coordinates {
            minLat = min(minLat, c.latitude)
            maxLat = max(maxLat, c.latitude)
            let dLon = Self.wrapped(c.longitude - first.longitude)
            minLon = min(minLon, dLon)
            maxLon = max(maxLon, dLon)
        }
        let centre = Coordinate(latitude: (minLat + maxLat) / 2,
                                longitude: Self.wrapped(first.longitude + (minLon + maxLon) / 2))
        let frame = LocalFrame(origin: centre)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for c in coordinates {
            let p = frame.project(c)
            minX = min(minX, p.x)
            maxX = max(maxX, p.x)
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        let width = max(maxX - minX, minimumExtent), height = max(maxY - minY, minimumExtent)
        let scale = min(rect.width / width, rect.height / height)
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        self.frame = frame
        self.pointsPerMetre = scale
        self.originOnPage = PagePoint(x: rect.x + rect.width / 2 - cx * scale, y: rect.y + rect.height / 2 + cy * scale)
    }

    /// Where `coordinate` lands on the page. O(1).
    public func point(for coordinate: Coordinate) -> PagePoint {
        let p = frame.project(coordinate)
        return PagePoint(x: originOnPage.x + p.x * pointsPerMetre, y: originOnPage.y - p.y * pointsPerMetre)
    }

    /// The route line on the page, leaving out vertices closer than `tolerance` points to the
    /// last one kept (the ends are always kept): a long track prints with as many vertices as the
    /// page can show. O(n).
    public func line(through coordinates: [Coordinate], tolerance: Double = 0.5) -> [PagePoint] {
        var points: [PagePoint] = []
        points.reserveCapacity(min(coordinates.count, 4096))
        let t2 = tolerance * tolerance
        for (i, c) in coordinates.enumerated() {
            let p = point(for: c)
            if let last = points.last, i != coordinates.count - 1 {
                let dx = p.x - last.x, dy = p.y - last.y
                if dx * dx + dy * dy < t2 { continue }
            }
            points.append(p)
        }
        return points
    }

    private static func wrapped(_ longitude: Degrees) -> Degrees {
        var l = longitude
        if l > 180 { l -= 360 } else if l < -180 { l += 360 }
        return l
    }
}

/// Round numbers of the form 1, 2 or 5 × 10ⁿ, as on map scale bars and chart axes.
public enum RoundNumber {
    /// The largest round number not above `value` (which must be positive).
    public static func atMost(_ value: Double) -> Double {
        precondition(value > 0 && value.isFinite, "value must be positive")
        let power = pow(10, floor(log10(value)))
        // Compare with a little slack so 2000 is not taken for 1999.9999.
        for m in [5.0, 2.0, 1.0] where m * power <= value * (1 + 1e-9) { return m * power }
        return power
    }

    /// The smallest round number not below `value` (which must be positive).
    public static func atLeast(_ value: Double) -> Double {
        precondition(value > 0 && value.isFinite, "value must be positive")
        let power = pow(10, floor(log10(value)))
        for m in [1.0, 2.0, 5.0, 10.0] where m * power >= value * (1 - 1e-9) { return m * power }
        return 10 * power
    }
}

/// A map scale bar: a round ground length and the page length it is drawn at.
public struct ScaleBar: Sendable, Equatable {
    /// The ground length the bar stands for, in metres (a round number of metres or kilometres,
    /// or of miles for a book in miles).
    public var length: Metres
    /// The bar's length on the page, in points.
    public var drawnLength: Double
    /// For example "500 m", "2 km", "0.5 mi".
    public var label: String

    public init(length: Metres, drawnLength: Double, label: String) {
        self.length = length
        self.drawnLength = drawnLength
        self.label = label
    }

    /// The longest round scale bar that fits in `maximumWidth` points at `pointsPerMetre`.
    /// - Parameter units: kilometres give 1, 2, 5 × 10ⁿ metres; miles give 1, 2, 5 × 10ⁿ miles.
    public static func fitting(maximumWidth: Double, pointsPerMetre: Double, units: BookSettings.Units) -> ScaleBar {
        let groundWidth = maximumWidth / pointsPerMetre
        switch units {
        case .kilometres:
            let metres = RoundNumber.atMost(groundWidth)
            let label = metres >= 1000 ? "\(number(metres / 1000)) km" : "\(number(metres)) m"
            return ScaleBar(length: metres, drawnLength: metres * pointsPerMetre, label: label)
        case .miles:
            let miles = RoundNumber.atMost(groundWidth / DistanceFormat.metresPerMile)
            let metres = miles * DistanceFormat.metresPerMile
            return ScaleBar(length: metres, drawnLength: metres * pointsPerMetre, label: "\(number(miles)) mi")
        }
    }

    /// A round number without trailing zeros: 2, 0.5, 0.05.
    private static func number(_ value: Double) -> String {
        if value >= 1 { return String(Int(value.rounded())) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
