// Portuguese (as written in Portugal), as organisers write road books: infinitives for what to do
// ("Virar à direita"), the place first and then the way ("Bifurcação, manter à esquerda",
// "Rotunda, 2.ª saída"), "em frente" for straight on, "casa" for a row. Ordinals agree with
// "saída" (`Phrasebook.portugueseOrdinal`).

extension Phrasebook {
    static let portugueseTable: [Key: String] = [
        .turnLeft: "Virar à esquerda", .turnRight: "Virar à direita",
        .turnSharpLeft: "Virar acentuadamente à esquerda", .turnSharpRight: "Virar acentuadamente à direita",
        .bearLeft: "Virar ligeiramente à esquerda", .bearRight: "Virar ligeiramente à direita",
        .keepLeftAtFork: "Bifurcação, manter à esquerda", .keepRightAtFork: "Bifurcação, manter à direita",
        .keepMiddleAtFork: "Bifurcação, em frente",
        .endOfRoadLeft: "No fim da estrada, virar à esquerda", .endOfRoadRight: "No fim da estrada, virar à direita",
        .roundaboutExit: "Rotunda, {ordinal} saída", .roundabout: "Rotunda",
        .uTurn: "Inversão de marcha",
        .straightOn: "Em frente", .straightOnAtCrossroads: "Cruzamento, em frente",
        .keepStraight: "Seguir em frente",
        .leftThenRight: "Esquerda e depois direita", .rightThenLeft: "Direita e depois esquerda",
        .thenTurnLeft: ", depois virar à esquerda", .thenTurnRight: ", depois virar à direita",
        .thenBearLeft: ", depois ligeiramente à esquerda", .thenBearRight: ", depois ligeiramente à direita",
        .thenSharpLeft: ", depois acentuadamente à esquerda", .thenSharpRight: ", depois acentuadamente à direita",
        .thenKeepLeft: ", depois manter à esquerda", .thenKeepRight: ", depois manter à direita",
        .thenStraightOn: ", depois em frente",
        .onto: " para {road}",

        .pageFooter: "página {page} de {pages}",
        .odometerReset: "A ZERO",

        .symbolFuel: "COMBUSTÍVEL", .symbolBridge: "PONTE", .symbolFord: "VAU", .symbolCattleGrid: "PASSAGEM CANADIANA",
        .symbolGate: "CANCELA", .symbolVillage: "ALDEIA", .symbolRailway: "VIA FÉRREA", .symbolHump: "LOMBA",
        .symbolHole: "BURACO", .symbolStones: "PEDRAS", .symbolSand: "AREIA", .symbolDunes: "DUNAS",
        .symbolFork: "BIFURCAÇÃO", .symbolSummit: "CUME", .symbolViewpoint: "MIRADOURO", .symbolWater: "ÁGUA",
        .symbolPolice: "POLÍCIA", .symbolRadar: "RADAR",

        .coverDistance: "DISTÂNCIA", .coverRows: "CASAS", .coverClimb: "DESNÍVEL +", .coverDescent: "DESNÍVEL −",
        .coverHighest: "ALTITUDE MÁX.",
        .coverRoute: "PERCURSO", .coverLegend: "LEGENDA",
        .coverStart: "PARTIDA", .coverFinish: "CHEGADA", .coverNorth: "N",
        .coverRouteSource: "Percurso: {source}", .coverTerrainSource: "Altitudes: {source}",
        .coverNoTerrain: "Sem altitudes para este percurso",
        .coverRouteRemoved: "percurso retirado: uma linha reta entre as casas",
        .coverLegsNoRoadOne: "{count} troço em linha reta (sem estrada)",
        .coverLegsNoRoadOther: "{count} troços em linha reta (sem estrada)",
        .coverLegsWaitingOne: "{count} troço em linha reta à espera da estrada",
        .coverLegsWaitingOther: "{count} troços em linha reta à espera da estrada",

        .profileTitle: "PERFIL",

        .legendStart: "Partida do percurso", .legendFinish: "Chegada do percurso",
        .legendWPM: "Waypoint oculto: não se vê no GPS",
        .legendWPV: "Waypoint visível: vê-se no GPS",
        .legendWPS: "Waypoint de segurança: passar nele, perigo perto",
        .legendWPE: "Waypoint eclipse: GPS oculto na zona",
        .legendWPC: "Waypoint de controlo: com comissários",
        .legendWPN: "Waypoint de navegação",
        .legendWPP: "Waypoint de passagem",
        .legendDSS: "Partida do setor seletivo",
        .legendASS: "Chegada do setor seletivo",
        .legendCP: "Controlo de passagem: parar e carimbar",
        .legendDZ: "Início de zona de velocidade limitada",
        .legendFZ: "Fim da zona de velocidade limitada",
        .legendCaution: "Atenção", .legendDanger: "Perigo", .legendGreatDanger: "Grande perigo: abrandar muito",
        .legendCap: "Rumo (CAP) a seguir",
        .legendRoadLeg: "Percurso pelas estradas", .legendStraightLeg: "Linha reta entre dois pontos",
        .legendAsDrawnLeg: "Traçado desenhado à mão",
        .legendReset: "Pôr o parcial a zero",
        .legendCloseNextRow: "Próxima casa a menos de {distance} m",

        .lexiconTitle: "Léxico",
        .lexiconUnknown: "não está na biblioteca",
        .lexiconOther: "Outros símbolos",
    ]
}
