import Foundation
import Geo

/// How a route through stops is named, as a directions app's save editor pre-fills it: "Start → End"
/// from the ends' names, else the travel mode and the length ("Drive, 12.3 km"). `route` titles its
/// books with it and `export` names the route it writes with it, so the two always agree.
public enum RouteNames {
    /// "Start → End" from the first and last stops' names; nil when either end has no name.
    public static func name(start: String?, end: String?) -> String? {
        guard let start, let end, !start.isEmpty, !end.isEmpty else { return nil }
        return "\(start) → \(end)"
    }

    /// "Drive, 12.3 km": a name from the travel mode and the length in `units`, for a route whose
    /// ends have no name.
    public static func name(mode: TravelMode, length: Metres, units: BookSettings.Units = .kilometres) -> String {
        mode.menuName + ", " + distanceText(length, units: units)
    }

    /// "12.3 km", "7.6 mi": a route's length with one decimal and its unit, as a totals line says it.
    public static func distanceText(_ metres: Metres, units: BookSettings.Units) -> String {
        String(format: "%.1f", metres / units.metres) + " " + units.rawValue
    }

    /// "6h 1m", "25m": a travel time to the minute, as a totals line says it.
    public static func durationText(_ seconds: TimeInterval) -> String {
        let minutes = Int((max(0, seconds) / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
    }
}

extension TravelMode {
    /// The mode as the travel-mode menu names it: "Drive", "Cycle", "Walk".
    public var menuName: String {
        switch self {
        case .drive: "Drive"
        case .cycle: "Cycle"
        case .walk: "Walk"
        }
    }
}

extension BookSettings.Units {
    /// One unit in metres: 1000 for kilometres, 1609.344 (the international mile) for miles.
    public var metres: Metres {
        switch self {
        case .kilometres: 1000
        case .miles: 1609.344
        }
    }
}

extension Route {
    /// The source of a route drawn through handles: "handles, roads by OSRM" when an engine gave
    /// its roads, else "handles". `engineName` reads the engine back.
    public static func handlesSource(roadsBy engine: String?) -> String {
        engine.map { handlesSourcePrefix + $0 } ?? "handles"
    }

    /// The engine that gave the roads of a route drawn through handles ("OSRM"), read from its
    /// source; nil for a recorded track or a route with no road leg.
    public var engineName: String? {
        guard let source, source.hasPrefix(Self.handlesSourcePrefix) else { return nil }
        let name = source.dropFirst(Self.handlesSourcePrefix.count).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    private static let handlesSourcePrefix = "handles, roads by "
}
