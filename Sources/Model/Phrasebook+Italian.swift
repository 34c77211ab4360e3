// Italian, as organisers write road books: infinitives for what to do ("Svoltare a destra"), the
// place first and then the way ("Bivio, tenere la sinistra", "Rotatoria, 2ª uscita"), "dritto" for
// straight on, "casella" for a row. Ordinals agree with "uscita" (`Phrasebook.italianOrdinal`).

extension Phrasebook {
    static let italianTable: [Key: String] = [
        .turnLeft: "Svoltare a sinistra", .turnRight: "Svoltare a destra",
        .turnSharpLeft: "Svoltare decisamente a sinistra", .turnSharpRight: "Svoltare decisamente a destra",
        .bearLeft: "Svoltare leggermente a sinistra", .bearRight: "Svoltare leggermente a destra",
        .keepLeftAtFork: "Bivio, tenere la sinistra", .keepRightAtFork: "Bivio, tenere la destra",
        .keepMiddleAtFork: "Bivio, dritto",
        .endOfRoadLeft: "A fine strada, svoltare a sinistra", .endOfRoadRight: "A fine strada, svoltare a destra",
        .roundaboutExit: "Rotatoria, {ordinal} uscita", .roundabout: "Rotatoria",
        .uTurn: "Inversione a U",
        .straightOn: "Dritto", .straightOnAtCrossroads: "Incrocio, dritto",
        .keepStraight: "Proseguire dritto",
        .leftThenRight: "Sinistra e poi destra", .rightThenLeft: "Destra e poi sinistra",
        .thenTurnLeft: ", poi svoltare a sinistra", .thenTurnRight: ", poi svoltare a destra",
        .thenBearLeft: ", poi leggermente a sinistra", .thenBearRight: ", poi leggermente a destra",
        .thenSharpLeft: ", poi decisamente a sinistra", .thenSharpRight: ", poi decisamente a destra",
        .thenKeepLeft: ", poi tenere la sinistra", .thenKeepRight: ", poi tenere la destra",
        .thenStraightOn: ", poi dritto",
        .onto: " su {road}",

        .pageFooter: "pagina {page} di {pages}",
        .odometerReset: "AZZERA",
        .timeHeader: "Tempo", .sectionStart: "PARTENZA", .sectionFinish: "ARRIVO",
        .speedChange: "→ {speed} km/h",

        .symbolFuel: "CARBURANTE", .symbolBridge: "PONTE", .symbolFord: "GUADO", .symbolCattleGrid: "GRIGLIA CANADESE",
        .symbolGate: "CANCELLO", .symbolVillage: "PAESE", .symbolRailway: "FERROVIA", .symbolHump: "DOSSO",
        .symbolHole: "BUCA", .symbolStones: "SASSI", .symbolSand: "SABBIA", .symbolDunes: "DUNE",
        .symbolFork: "BIVIO", .symbolSummit: "VETTA", .symbolViewpoint: "BELVEDERE", .symbolWater: "ACQUA",
        .symbolPolice: "POLIZIA", .symbolRadar: "AUTOVELOX",

        .coverDistance: "DISTANZA", .coverRows: "CASELLE", .coverClimb: "DISLIVELLO +", .coverDescent: "DISLIVELLO −",
        .coverHighest: "QUOTA MAX",
        .coverRoute: "PERCORSO", .coverLegend: "LEGENDA",
        .coverStart: "PARTENZA", .coverFinish: "ARRIVO", .coverNorth: "N",
        .coverRouteSource: "Percorso: {source}", .coverTerrainSource: "Quote: {source}",
        .coverNoTerrain: "Nessuna quota per questo percorso",
        .coverRouteRemoved: "percorso rimosso: una linea retta tra le caselle",
        .coverLegsNoRoadOne: "{count} tratto in linea retta (nessuna strada)",
        .coverLegsNoRoadOther: "{count} tratti in linea retta (nessuna strada)",
        .coverLegsWaitingOne: "{count} tratto in linea retta in attesa della strada",
        .coverLegsWaitingOther: "{count} tratti in linea retta in attesa della strada",

        .profileTitle: "ALTIMETRIA",

        .legendStart: "Partenza del percorso", .legendFinish: "Arrivo del percorso",
        .legendWPM: "Waypoint nascosto: non visibile sul GPS",
        .legendWPV: "Waypoint visibile: mostrato sul GPS",
        .legendWPS: "Waypoint di sicurezza: passarci, pericolo vicino",
        .legendWPE: "Waypoint eclipse: GPS oscurato nei pressi",
        .legendWPC: "Waypoint di controllo: controllo presidiato",
        .legendWPN: "Waypoint di navigazione",
        .legendWPP: "Waypoint di passaggio",
        .legendDSS: "Partenza del settore selettivo",
        .legendASS: "Arrivo del settore selettivo",
        .legendCP: "Controllo di passaggio: fermarsi e timbrare",
        .legendDZ: "Inizio di zona a velocità limitata",
        .legendFZ: "Fine della zona a velocità limitata",
        .legendCaution: "Attenzione", .legendDanger: "Pericolo", .legendGreatDanger: "Grande pericolo: rallentare molto",
        .legendCap: "Rotta (CAP) da seguire",
        .legendRoadLeg: "Percorso lungo le strade", .legendStraightLeg: "Linea retta tra due punti",
        .legendAsDrawnLeg: "Tracciato disegnato a mano",
        .legendReset: "Azzerare il parziale",
        .legendCloseNextRow: "Casella successiva a meno di {distance} m",

        .lexiconTitle: "Lessico",
        .lexiconUnknown: "non è nella libreria",
        .lexiconOther: "Altri simboli",
    ]
}
