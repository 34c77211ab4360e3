// Spanish, as organisers write road books: infinitives for what to do ("Girar a la derecha"), the
// place first and then the way ("Bifurcación, tomar a la izquierda", "Rotonda, 2.ª salida"), "recto"
// for straight on, "viñeta" for a row. Ordinals agree with "salida" (`Phrasebook.spanishOrdinal`).

extension Phrasebook {
    static let spanishTable: [Key: String] = [
        .turnLeft: "Girar a la izquierda", .turnRight: "Girar a la derecha",
        .turnSharpLeft: "Giro cerrado a la izquierda", .turnSharpRight: "Giro cerrado a la derecha",
        .bearLeft: "Girar ligeramente a la izquierda", .bearRight: "Girar ligeramente a la derecha",
        .keepLeftAtFork: "Bifurcación, tomar a la izquierda", .keepRightAtFork: "Bifurcación, tomar a la derecha",
        .keepMiddleAtFork: "Bifurcación, recto",
        .endOfRoadLeft: "Al final del camino, girar a la izquierda",
        .endOfRoadRight: "Al final del camino, girar a la derecha",
        .roundaboutExit: "Rotonda, {ordinal} salida", .roundabout: "Rotonda",
        .uTurn: "Cambio de sentido",
        .straightOn: "Recto", .straightOnAtCrossroads: "Cruce, recto",
        .keepStraight: "Seguir recto",
        .leftThenRight: "Izquierda y luego derecha", .rightThenLeft: "Derecha y luego izquierda",
        .thenTurnLeft: ", luego girar a la izquierda", .thenTurnRight: ", luego girar a la derecha",
        .thenBearLeft: ", luego ligeramente a la izquierda", .thenBearRight: ", luego ligeramente a la derecha",
        .thenSharpLeft: ", luego giro cerrado a la izquierda", .thenSharpRight: ", luego giro cerrado a la derecha",
        .thenKeepLeft: ", luego tomar a la izquierda", .thenKeepRight: ", luego tomar a la derecha",
        .thenStraightOn: ", luego recto",
        .onto: " por {road}",

        .pageFooter: "página {page} de {pages}",
        .odometerReset: "A CERO",

        .symbolFuel: "COMBUSTIBLE", .symbolBridge: "PUENTE", .symbolFord: "VADO", .symbolCattleGrid: "PASO CANADIENSE",
        .symbolGate: "CANCELA", .symbolVillage: "PUEBLO", .symbolRailway: "VÍA FÉRREA", .symbolHump: "LOMO",
        .symbolHole: "BACHE", .symbolStones: "PIEDRAS", .symbolSand: "ARENA", .symbolDunes: "DUNAS",
        .symbolFork: "BIFURCACIÓN", .symbolSummit: "CIMA", .symbolViewpoint: "MIRADOR", .symbolWater: "AGUA",
        .symbolPolice: "POLICÍA", .symbolRadar: "RADAR",

        .coverDistance: "DISTANCIA", .coverRows: "VIÑETAS", .coverClimb: "DESNIVEL +", .coverDescent: "DESNIVEL −",
        .coverHighest: "ALTITUD MÁX.",
        .coverRoute: "RECORRIDO", .coverLegend: "LEYENDA",
        .coverStart: "SALIDA", .coverFinish: "LLEGADA", .coverNorth: "N",
        .coverRouteSource: "Recorrido: {source}", .coverTerrainSource: "Altitudes: {source}",
        .coverNoTerrain: "Sin altitudes para este recorrido",
        .coverRouteRemoved: "recorrido retirado: una línea recta entre las viñetas",
        .coverLegsNoRoadOne: "{count} tramo en línea recta (sin camino)",
        .coverLegsNoRoadOther: "{count} tramos en línea recta (sin camino)",
        .coverLegsWaitingOne: "{count} tramo en línea recta a la espera del camino",
        .coverLegsWaitingOther: "{count} tramos en línea recta a la espera del camino",

        .profileTitle: "PERFIL",

        .legendStart: "Salida del recorrido", .legendFinish: "Llegada del recorrido",
        .legendWPM: "Waypoint oculto: no se ve en el GPS",
        .legendWPV: "Waypoint visible: se ve en el GPS",
        .legendWPS: "Waypoint de seguridad: pasar por él, peligro cerca",
        .legendWPE: "Waypoint eclipse: GPS oculto en la zona",
        .legendWPC: "Waypoint de control: con comisarios",
        .legendWPN: "Waypoint de navegación",
        .legendWPP: "Waypoint de paso",
        .legendDSS: "Salida del sector selectivo",
        .legendASS: "Llegada del sector selectivo",
        .legendCP: "Control de paso: parar y sellar",
        .legendDZ: "Inicio de zona de velocidad limitada",
        .legendFZ: "Fin de la zona de velocidad limitada",
        .legendCaution: "Precaución", .legendDanger: "Peligro", .legendGreatDanger: "Gran peligro: frenar mucho",
        .legendCap: "Rumbo (CAP) a seguir",
        .legendRoadLeg: "Ruta por las carreteras", .legendStraightLeg: "Línea recta entre dos puntos",
        .legendAsDrawnLeg: "Trazado dibujado a mano",
        .legendReset: "Poner el parcial a cero",
        .legendCloseNextRow: "Siguiente viñeta a menos de {distance} m",

        .lexiconTitle: "Léxico",
        .lexiconUnknown: "no está en la biblioteca",
        .lexiconOther: "Otros símbolos",
    ]
}
