/// Points (1/72 inch) per millimetre.
public let pointsPerMillimetre = 72.0 / 25.4

/// A rectangle on a page in points, origin at the top left, y growing down (as in Cairo).
public struct Rect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The rectangle shrunk by `d` points on every side.
    public func inset(by d: Double) -> Rect {
        Rect(x: x + d, y: y + d, width: max(0, width - 2 * d), height: max(0, height - 2 * d))
    }

    /// True when `other` lies entirely inside this rectangle (edges may touch).
    public func contains(_ other: Rect) -> Bool {
        let e = 1e-9
        return other.x >= x - e && other.y >= y - e && other.maxX <= maxX + e && other.maxY <= maxY + e
    }
}

/// Page size in points.
public struct PageSize: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// ISO A5 portrait, 148 × 210 mm.
    public static let a5 = PageSize(width: 148 * pointsPerMillimetre, height: 210 * pointsPerMillimetre)
}

/// Margins of a page in points.
public struct Margins: Sendable, Equatable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public init(all: Double) { self.init(top: all, left: all, bottom: all, right: all) }
}
