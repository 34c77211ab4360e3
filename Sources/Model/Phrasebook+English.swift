// English: the reference table. Every other language has the same keys, and each of its texts
// the same placeholders as the English one (docs/languages.md).

extension Phrasebook {
    static let englishTable: [Key: String] = [
        .turnLeft: "Turn left", .turnRight: "Turn right",
        .turnSharpLeft: "Turn sharp left", .turnSharpRight: "Turn sharp right",
        .bearLeft: "Bear left", .bearRight: "Bear right",
        .keepLeftAtFork: "Keep left at fork", .keepRightAtFork: "Keep right at fork",
        .keepMiddleAtFork: "Keep straight on at fork",
        .endOfRoadLeft: "End of road, turn left", .endOfRoadRight: "End of road, turn right",
        .roundaboutExit: "Roundabout, {ordinal} exit", .roundabout: "Roundabout",
        .uTurn: "U-turn",
        .straightOn: "Straight on", .straightOnAtCrossroads: "Straight on at crossroads",
        .keepStraight: "Keep straight on",
        .leftThenRight: "Left then right", .rightThenLeft: "Right then left",
        .thenTurnLeft: ", then turn left", .thenTurnRight: ", then turn right",
        .thenBearLeft: ", then bear left", .thenBearRight: ", then bear right",
        .thenSharpLeft: ", then turn sharp left", .thenSharpRight: ", then turn sharp right",
        .thenKeepLeft: ", then keep left", .thenKeepRight: ", then keep right", .thenStraightOn: ", then straight on",
        .onto: " onto {road}",

        .pageFooter: "page {page} of {pages}",
        .odometerReset: "RESET",

        .symbolFuel: "FUEL", .symbolBridge: "BRIDGE", .symbolFord: "FORD", .symbolCattleGrid: "CATTLE GRID",
        .symbolGate: "GATE", .symbolVillage: "VILLAGE", .symbolRailway: "RAILWAY", .symbolHump: "HUMP",
        .symbolHole: "HOLE", .symbolStones: "STONES", .symbolSand: "SAND", .symbolDunes: "DUNES",
        .symbolFork: "FORK", .symbolSummit: "SUMMIT", .symbolViewpoint: "VIEW", .symbolWater: "WATER",
        .symbolPolice: "POLICE", .symbolRadar: "RADAR",

        .coverDistance: "DISTANCE", .coverRows: "ROWS", .coverClimb: "CLIMB", .coverDescent: "DESCENT",
        .coverHighest: "HIGHEST",
        .coverRoute: "ROUTE", .coverLegend: "LEGEND",
        .coverStart: "START", .coverFinish: "FINISH", .coverNorth: "N",
        .coverRouteSource: "Route: {source}", .coverTerrainSource: "Terrain: {source}",
        .coverNoTerrain: "No terrain for this route",
        .coverRouteRemoved: "route removed: a straight line through the notes",
        .coverLegsNoRoadOne: "{count} leg straight (no road)", .coverLegsNoRoadOther: "{count} legs straight (no road)",
        .coverLegsWaitingOne: "{count} leg used straight while waiting",
        .coverLegsWaitingOther: "{count} legs used straight while waiting",

        .profileTitle: "ELEVATION",

        .legendStart: "Start of the route", .legendFinish: "Finish of the route",
        .legendWPM: "Masked waypoint: hidden on the GPS",
        .legendWPV: "Visible waypoint: shown on the GPS",
        .legendWPS: "Safety waypoint: pass it, danger near",
        .legendWPE: "Eclipse waypoint: GPS masked nearby",
        .legendWPC: "Control waypoint: manned control",
        .legendWPN: "Navigation waypoint",
        .legendWPP: "Passage waypoint",
        .legendDSS: "Start of the selective section",
        .legendASS: "Arrival of the selective section",
        .legendCP: "Checkpoint: stop for the time card",
        .legendDZ: "Start of a speed-limited zone",
        .legendFZ: "End of the speed-limited zone",
        .legendCaution: "Caution", .legendDanger: "Danger", .legendGreatDanger: "Great danger: slow right down",
        .legendCap: "Compass heading (CAP) to follow",
        .legendRoadLeg: "Route along the roads", .legendStraightLeg: "Straight line between two points",
        .legendAsDrawnLeg: "Line as drawn by hand",
        .legendReset: "Set the trip meter to zero",
        .legendCloseNextRow: "Next row closer than {distance} m",

        .lexiconTitle: "Lexicon",
        .lexiconUnknown: "not in the library",
        .lexiconOther: "Other symbols",
    ]
}
