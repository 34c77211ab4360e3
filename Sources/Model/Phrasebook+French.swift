// French, as organisers write road books: infinitives for what to do ("Tourner à gauche"), the
// place first and then the way ("Bifurcation, prendre à gauche", "Rond-point, 2e sortie"), a
// no-break space before a colon. Ordinals agree with "sortie" (`Phrasebook.frenchOrdinal`).

extension Phrasebook {
    static let frenchTable: [Key: String] = [
        .turnLeft: "Tourner à gauche", .turnRight: "Tourner à droite",
        .turnSharpLeft: "Tourner franchement à gauche", .turnSharpRight: "Tourner franchement à droite",
        .bearLeft: "Prendre légèrement à gauche", .bearRight: "Prendre légèrement à droite",
        .keepLeftAtFork: "Bifurcation, prendre à gauche", .keepRightAtFork: "Bifurcation, prendre à droite",
        .keepMiddleAtFork: "Bifurcation, tout droit",
        .endOfRoadLeft: "Au bout de la route, tourner à gauche", .endOfRoadRight: "Au bout de la route, tourner à droite",
        .roundaboutExit: "Rond-point, {ordinal} sortie", .roundabout: "Rond-point",
        .uTurn: "Demi-tour",
        .straightOn: "Tout droit", .straightOnAtCrossroads: "Carrefour, tout droit",
        .keepStraight: "Continuer tout droit",
        .leftThenRight: "À gauche puis à droite", .rightThenLeft: "À droite puis à gauche",
        .thenTurnLeft: ", puis tourner à gauche", .thenTurnRight: ", puis tourner à droite",
        .thenBearLeft: ", puis légèrement à gauche", .thenBearRight: ", puis légèrement à droite",
        .thenSharpLeft: ", puis franchement à gauche", .thenSharpRight: ", puis franchement à droite",
        .thenKeepLeft: ", puis prendre à gauche", .thenKeepRight: ", puis prendre à droite",
        .thenStraightOn: ", puis tout droit",
        .onto: " sur {road}",

        .pageFooter: "page {page} sur {pages}",
        .odometerReset: "RAZ",
        .timeHeader: "Temps", .sectionStart: "DÉPART", .sectionFinish: "ARRIVÉE",
        .speedChange: "→ {speed} km/h",

        .symbolFuel: "CARBURANT", .symbolBridge: "PONT", .symbolFord: "GUÉ", .symbolCattleGrid: "PASSAGE CANADIEN",
        .symbolGate: "BARRIÈRE", .symbolVillage: "VILLAGE", .symbolRailway: "VOIE FERRÉE", .symbolHump: "BOSSE",
        .symbolHole: "TROU", .symbolStones: "PIERRES", .symbolSand: "SABLE", .symbolDunes: "DUNES",
        .symbolFork: "BIFURCATION", .symbolSummit: "SOMMET", .symbolViewpoint: "POINT DE VUE", .symbolWater: "EAU",
        .symbolPolice: "POLICE", .symbolRadar: "RADAR",

        .coverDistance: "DISTANCE", .coverRows: "CASES", .coverClimb: "DÉNIVELÉ +", .coverDescent: "DÉNIVELÉ −",
        .coverHighest: "ALTITUDE MAX.",
        .coverRoute: "PARCOURS", .coverLegend: "LÉGENDE",
        .coverStart: "DÉPART", .coverFinish: "ARRIVÉE", .coverNorth: "N",
        .coverRouteSource: "Parcours\u{00A0}: {source}", .coverTerrainSource: "Altitudes\u{00A0}: {source}",
        .coverNoTerrain: "Pas d’altitudes pour ce parcours",
        .coverRouteRemoved: "parcours retiré\u{00A0}: une ligne droite entre les cases",
        .coverLegsNoRoadOne: "{count} tronçon en ligne droite (pas de route)",
        .coverLegsNoRoadOther: "{count} tronçons en ligne droite (pas de route)",
        .coverLegsWaitingOne: "{count} tronçon en ligne droite en attendant la route",
        .coverLegsWaitingOther: "{count} tronçons en ligne droite en attendant la route",

        .profileTitle: "PROFIL",

        .legendStart: "Départ du parcours", .legendFinish: "Arrivée du parcours",
        .legendWPM: "Waypoint masqué\u{00A0}: caché sur le GPS",
        .legendWPV: "Waypoint visible\u{00A0}: affiché sur le GPS",
        .legendWPS: "Waypoint de sécurité\u{00A0}: y passer, danger proche",
        .legendWPE: "Waypoint éclipse\u{00A0}: GPS masqué aux abords",
        .legendWPC: "Waypoint de contrôle\u{00A0}: commissaires présents",
        .legendWPN: "Waypoint de navigation",
        .legendWPP: "Waypoint de passage",
        .legendDSS: "Départ du secteur sélectif",
        .legendASS: "Arrivée du secteur sélectif",
        .legendCP: "Contrôle de passage\u{00A0}: arrêt pour pointage",
        .legendDZ: "Début de zone à vitesse limitée",
        .legendFZ: "Fin de la zone à vitesse limitée",
        .legendCaution: "Attention", .legendDanger: "Danger", .legendGreatDanger: "Grand danger\u{00A0}: ralentir fortement",
        .legendCap: "Cap au compas (CAP) à suivre",
        .legendRoadLeg: "Itinéraire par les routes", .legendStraightLeg: "Ligne droite entre deux points",
        .legendAsDrawnLeg: "Tracé dessiné à la main",
        .legendReset: "Remettre le trip à zéro",
        .legendCloseNextRow: "Case suivante à moins de {distance} m",

        .lexiconTitle: "Lexique",
        .lexiconUnknown: "absent de la bibliothèque",
        .lexiconOther: "Autres symboles",
    ]
}
