import Foundation

/// A road-book symbol, by name: one of the library's (`NoteSymbol.library`, drawn as a pictogram
/// from `Symbols/NAME.svg`) or a name the library does not have, which a book keeps and prints as
/// text. Encoded as the plain name, so books written when symbols were a fixed list of 18 read and
/// write the same JSON.
public struct NoteSymbol: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The name, as in the book file and the pictogram's file name (`ford`, `cattleGrid`).
    public let name: String

    public init(_ name: String) { self.name = name }
    /// Every name makes a symbol; `isKnown` tells the library's from others.
    public init?(rawValue: String) { self.init(rawValue) }
    public var rawValue: String { name }
    public var description: String { name }

    public init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Whether the name is one of the library's.
    public var isKnown: Bool { NoteSymbol.entriesByName[name] != nil }
    /// The library's entry for the name: its group, OpenRally element and meaning; nil for a name
    /// the library does not have.
    public var entry: Entry? { NoteSymbol.entriesByName[name] }

    /// The longest name a book keeps: longer is text pasted by mistake, not a symbol's name.
    public static let maximumNameLength = 64
    /// Whether `name` can be a symbol's name (of the library or of a person's folder): 1 to 64
    /// letters, digits, `-` and `_`. A name is also a file name (`NAME.svg`), so it never holds a
    /// `/`, a dot or a space.
    public static func isWellFormed(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }
}

extension NoteSymbol {
    /// The groups of the library, in the order the lexicon prints them.
    public enum Group: String, CaseIterable, Sendable {
        case danger, waypoint, control, speed, service, water, sand, surface, relief, crossing, landmark, track, note

        /// The group's title in English, when the library's `symbols.json` gives none.
        public var meaning: String {
            switch self {
            case .danger: "Danger"
            case .waypoint: "Waypoints"
            case .control: "Controls"
            case .speed: "Speed"
            case .service: "Services"
            case .water: "Water"
            case .sand: "Sand"
            case .surface: "Surface"
            case .relief: "Relief"
            case .crossing: "Crossings"
            case .landmark: "Landmarks"
            case .track: "Tracks"
            case .note: "Notes"
            }
        }
    }

    /// One symbol of the library.
    public struct Entry: Sendable {
        public let symbol: NoteSymbol
        public let group: Group
        /// The OpenRally v1.0.3 element the symbol is written as (`medical`, `fuel`, `dss`,
        /// `danger`); nil when OpenRally has none.
        public let openRally: String?
        /// What it means, in English.
        public let meaning: String

        init(_ symbol: NoteSymbol, _ group: Group, openRally: String?, _ meaning: String) {
            self.symbol = symbol
            self.group = group
            self.openRally = openRally
            self.meaning = meaning
        }
    }

    /// The library, in its order: grouped, the groups in `Group`'s order.
    public static let library: [NoteSymbol] = entries.map(\.symbol)

    static let entriesByName: [String: Entry] = Dictionary(uniqueKeysWithValues: entries.map { ($0.symbol.name, $0) })

    /// The library's entries. Names, groups, OpenRally elements and meanings are fixed here; the
    /// pictograms and the meanings in other languages are in `Symbols/` (`symbols.json`).
    public static let entries: [Entry] = [
        Entry(.danger1, .danger, openRally: "danger", "Danger, take care"),
        Entry(.danger2, .danger, openRally: "danger", "Danger, slow down"),
        Entry(.danger3, .danger, openRally: "danger", "Great danger, very slow"),
        Entry(.dss, .waypoint, openRally: "dss", "Start of selective section"),
        Entry(.ass, .waypoint, openRally: "ass", "Arrival of selective section"),
        Entry(.wpm, .waypoint, openRally: "wpm", "Masked waypoint"),
        Entry(.wpv, .waypoint, openRally: "wpv", "Visible waypoint"),
        Entry(.wps, .waypoint, openRally: "wps", "Safety waypoint"),
        Entry(.wpe, .waypoint, openRally: "wpe", "Eclipse waypoint"),
        Entry(.wpc, .waypoint, openRally: "wpc", "Control waypoint"),
        Entry(.wpn, .waypoint, openRally: "wpn", "Navigation waypoint"),
        Entry(.wpp, .waypoint, openRally: "wpp", "Passage waypoint"),
        Entry(.checkpoint, .waypoint, openRally: "checkpoint", "Checkpoint"),
        Entry(.dz, .waypoint, openRally: "dz", "Start of speed zone"),
        Entry(.fz, .waypoint, openRally: "fz", "End of speed zone"),
        Entry(.fn, .waypoint, openRally: "fn", "End of neutralisation"),
        Entry(.dt, .waypoint, openRally: "dt", "Start of timed transfer"),
        Entry(.ft, .waypoint, openRally: "ft", "End of timed transfer"),
        Entry(.stop, .control, openRally: "stop", "Stop"),
        Entry(.neutralization, .control, openRally: "neutralization", "Neutralisation"),
        Entry(.timeControl, .control, openRally: "timecontrol", "Time control"),
        Entry(.passageControl, .control, openRally: "passagecontrol", "Passage control"),
        Entry(.reset, .control, openRally: "reset", "Reset the trip meter"),
        Entry(.cap, .control, openRally: "cap", "CAP heading"),
        Entry(.showCoordinates, .control, openRally: "show_coordinates", "Coordinates shown"),
        Entry(.gps, .control, openRally: "gps", "GPS point"),
        Entry(.startOfZone, .control, openRally: "startofzone", "Start of zone"),
        Entry(.speedLimit, .speed, openRally: "speed", "Speed limit"),
        Entry(.slow, .speed, openRally: nil, "Slow down"),
        Entry(.radar, .speed, openRally: nil, "Speed check"),
        Entry(.fuel, .service, openRally: "fuel", "Fuel"),
        Entry(.endFuel, .service, openRally: "endfuel", "End of fuel zone"),
        Entry(.medical, .service, openRally: "medical", "Medical post"),
        Entry(.helicopter, .service, openRally: "helicopter", "Helicopter"),
        Entry(.police, .service, openRally: "police", "Police"),
        Entry(.fire, .service, openRally: "fire", "Fire service"),
        Entry(.spectators, .service, openRally: "spectators", "Spectators"),
        Entry(.media, .service, openRally: "media", "Media"),
        Entry(.radio, .service, openRally: "radio", "Radio point"),
        Entry(.toilets, .service, openRally: "toilets", "Toilets"),
        Entry(.beginTyreService, .service, openRally: "begintireservice", "Start of tyre service"),
        Entry(.endTyreService, .service, openRally: "endtireservice", "End of tyre service"),
        Entry(.startOfAssistance, .service, openRally: "startofassistance", "Start of assistance"),
        Entry(.finishOfAssistance, .service, openRally: "finishofassistance", "End of assistance"),
        Entry(.giveWay, .service, openRally: "giveway", "Give way"),
        Entry(.sensitiveZone, .service, openRally: "sensitivezone", "Sensitive zone"),
        Entry(.ford, .water, openRally: nil, "Ford"),
        Entry(.water, .water, openRally: nil, "Water on the track"),
        Entry(.waterCrossing, .water, openRally: nil, "Water crossing"),
        Entry(.river, .water, openRally: nil, "River"),
        Entry(.lake, .water, openRally: nil, "Lake"),
        Entry(.wetland, .water, openRally: nil, "Marsh"),
        Entry(.mud, .water, openRally: nil, "Mud"),
        Entry(.puddle, .water, openRally: nil, "Puddles"),
        Entry(.sand, .sand, openRally: nil, "Sand"),
        Entry(.dunes, .sand, openRally: nil, "Dunes"),
        Entry(.duneCrest, .sand, openRally: nil, "Dune crest"),
        Entry(.softSand, .sand, openRally: nil, "Soft sand"),
        Entry(.camelGrass, .sand, openRally: nil, "Camel grass"),
        Entry(.powderSand, .sand, openRally: nil, "Powder sand (fesh-fesh)"),
        Entry(.stones, .surface, openRally: nil, "Stones"),
        Entry(.rocks, .surface, openRally: nil, "Rocks"),
        Entry(.gravel, .surface, openRally: nil, "Gravel"),
        Entry(.hole, .surface, openRally: nil, "Hole"),
        Entry(.hump, .surface, openRally: nil, "Hump"),
        Entry(.bumps, .surface, openRally: nil, "Bumps"),
        Entry(.ruts, .surface, openRally: nil, "Ruts"),
        Entry(.washout, .surface, openRally: nil, "Washed-out track"),
        Entry(.erosion, .surface, openRally: nil, "Erosion gully"),
        Entry(.slippery, .surface, openRally: nil, "Slippery"),
        Entry(.dust, .surface, openRally: nil, "Dust"),
        Entry(.grass, .surface, openRally: nil, "Grass"),
        Entry(.tarmacStart, .surface, openRally: nil, "Tarmac begins"),
        Entry(.tarmacEnd, .surface, openRally: nil, "Tarmac ends"),
        Entry(.steps, .relief, openRally: nil, "Step"),
        Entry(.crest, .relief, openRally: nil, "Crest, blind"),
        Entry(.dip, .relief, openRally: nil, "Dip"),
        Entry(.steepClimb, .relief, openRally: nil, "Steep climb"),
        Entry(.steepDescent, .relief, openRally: nil, "Steep descent"),
        Entry(.summit, .relief, openRally: nil, "Summit"),
        Entry(.pass, .relief, openRally: nil, "Mountain pass"),
        Entry(.cliff, .relief, openRally: nil, "Cliff"),
        Entry(.dropOff, .relief, openRally: nil, "Drop-off"),
        Entry(.compression, .relief, openRally: nil, "Compression"),
        Entry(.valley, .relief, openRally: nil, "Valley"),
        Entry(.ridge, .relief, openRally: nil, "Ridge"),
        Entry(.cattleGrid, .crossing, openRally: nil, "Cattle grid"),
        Entry(.gate, .crossing, openRally: nil, "Gate"),
        Entry(.fence, .crossing, openRally: nil, "Fence"),
        Entry(.wall, .crossing, openRally: nil, "Wall"),
        Entry(.bridge, .crossing, openRally: nil, "Bridge"),
        Entry(.railway, .crossing, openRally: nil, "Railway"),
        Entry(.levelCrossing, .crossing, openRally: nil, "Level crossing"),
        Entry(.tunnel, .crossing, openRally: nil, "Tunnel"),
        Entry(.barrier, .crossing, openRally: nil, "Barrier"),
        Entry(.powerLine, .crossing, openRally: nil, "Power line"),
        Entry(.pipeline, .crossing, openRally: nil, "Pipeline"),
        Entry(.dam, .crossing, openRally: nil, "Dam"),
        Entry(.tree, .landmark, openRally: nil, "Lone tree"),
        Entry(.forest, .landmark, openRally: nil, "Trees"),
        Entry(.well, .landmark, openRally: nil, "Well"),
        Entry(.building, .landmark, openRally: nil, "Building"),
        Entry(.ruins, .landmark, openRally: nil, "Ruins"),
        Entry(.village, .landmark, openRally: "village", "Village"),
        Entry(.town, .landmark, openRally: nil, "Town"),
        Entry(.antenna, .landmark, openRally: nil, "Antenna"),
        Entry(.tower, .landmark, openRally: nil, "Tower"),
        Entry(.church, .landmark, openRally: nil, "Church"),
        Entry(.cemetery, .landmark, openRally: nil, "Cemetery"),
        Entry(.cairn, .landmark, openRally: nil, "Cairn"),
        Entry(.sign, .landmark, openRally: nil, "Sign"),
        Entry(.post, .landmark, openRally: nil, "Post"),
        Entry(.farm, .landmark, openRally: nil, "Farm"),
        Entry(.camp, .landmark, openRally: nil, "Camp"),
        Entry(.mine, .landmark, openRally: nil, "Quarry"),
        Entry(.viewpoint, .landmark, openRally: nil, "Viewpoint"),
        Entry(.house, .landmark, openRally: nil, "House"),
        Entry(.fork, .track, openRally: nil, "Fork"),
        Entry(.trackMerges, .track, openRally: nil, "Track joins"),
        Entry(.trackEnds, .track, openRally: nil, "Track ends"),
        Entry(.offTrack, .track, openRally: nil, "Off track"),
        Entry(.parallelTracks, .track, openRally: nil, "Parallel tracks"),
        Entry(.keepLeftOf, .track, openRally: nil, "Keep left of it"),
        Entry(.keepRightOf, .track, openRally: nil, "Keep right of it"),
        Entry(.manyTracks, .track, openRally: nil, "Many tracks"),
        Entry(.faintTrack, .track, openRally: nil, "Faint track"),
        Entry(.crossroads, .track, openRally: nil, "Crossroads"),
        Entry(.tJunction, .track, openRally: nil, "T-junction"),
        Entry(.roadCrossing, .track, openRally: nil, "Road crossing"),
        Entry(.followTrack, .track, openRally: nil, "Follow the track"),
        Entry(.narrow, .track, openRally: nil, "Narrow passage"),
        Entry(.caution, .note, openRally: nil, "Caution"),
        Entry(.followCap, .note, openRally: nil, "Follow the CAP"),
        Entry(.doNotCut, .note, openRally: nil, "Do not cut"),
        Entry(.lookOut, .note, openRally: nil, "Look out, hard to see"),
    ]
}

extension NoteSymbol {
    /// Danger, take care.
    public static let danger1 = NoteSymbol("danger1")
    /// Danger, slow down.
    public static let danger2 = NoteSymbol("danger2")
    /// Great danger, very slow.
    public static let danger3 = NoteSymbol("danger3")
    /// Start of selective section.
    public static let dss = NoteSymbol("dss")
    /// Arrival of selective section.
    public static let ass = NoteSymbol("ass")
    /// Masked waypoint.
    public static let wpm = NoteSymbol("wpm")
    /// Visible waypoint.
    public static let wpv = NoteSymbol("wpv")
    /// Safety waypoint.
    public static let wps = NoteSymbol("wps")
    /// Eclipse waypoint.
    public static let wpe = NoteSymbol("wpe")
    /// Control waypoint.
    public static let wpc = NoteSymbol("wpc")
    /// Navigation waypoint.
    public static let wpn = NoteSymbol("wpn")
    /// Passage waypoint.
    public static let wpp = NoteSymbol("wpp")
    /// Checkpoint.
    public static let checkpoint = NoteSymbol("checkpoint")
    /// Start of speed zone.
    public static let dz = NoteSymbol("dz")
    /// End of speed zone.
    public static let fz = NoteSymbol("fz")
    /// End of neutralisation.
    public static let fn = NoteSymbol("fn")
    /// Start of timed transfer.
    public static let dt = NoteSymbol("dt")
    /// End of timed transfer.
    public static let ft = NoteSymbol("ft")
    /// Stop.
    public static let stop = NoteSymbol("stop")
    /// Neutralisation.
    public static let neutralization = NoteSymbol("neutralization")
    /// Time control.
    public static let timeControl = NoteSymbol("timeControl")
    /// Passage control.
    public static let passageControl = NoteSymbol("passageControl")
    /// Reset the trip meter.
    public static let reset = NoteSymbol("reset")
    /// CAP heading.
    public static let cap = NoteSymbol("cap")
    /// Coordinates shown.
    public static let showCoordinates = NoteSymbol("showCoordinates")
    /// GPS point.
    public static let gps = NoteSymbol("gps")
    /// Start of zone.
    public static let startOfZone = NoteSymbol("startOfZone")
    /// Speed limit.
    public static let speedLimit = NoteSymbol("speedLimit")
    /// Slow down.
    public static let slow = NoteSymbol("slow")
    /// Speed check.
    public static let radar = NoteSymbol("radar")
    /// Fuel.
    public static let fuel = NoteSymbol("fuel")
    /// End of fuel zone.
    public static let endFuel = NoteSymbol("endFuel")
    /// Medical post.
    public static let medical = NoteSymbol("medical")
    /// Helicopter.
    public static let helicopter = NoteSymbol("helicopter")
    /// Police.
    public static let police = NoteSymbol("police")
    /// Fire service.
    public static let fire = NoteSymbol("fire")
    /// Spectators.
    public static let spectators = NoteSymbol("spectators")
    /// Media.
    public static let media = NoteSymbol("media")
    /// Radio point.
    public static let radio = NoteSymbol("radio")
    /// Toilets.
    public static let toilets = NoteSymbol("toilets")
    /// Start of tyre service.
    public static let beginTyreService = NoteSymbol("beginTyreService")
    /// End of tyre service.
    public static let endTyreService = NoteSymbol("endTyreService")
    /// Start of assistance.
    public static let startOfAssistance = NoteSymbol("startOfAssistance")
    /// End of assistance.
    public static let finishOfAssistance = NoteSymbol("finishOfAssistance")
    /// Give way.
    public static let giveWay = NoteSymbol("giveWay")
    /// Sensitive zone.
    public static let sensitiveZone = NoteSymbol("sensitiveZone")
    /// Ford.
    public static let ford = NoteSymbol("ford")
    /// Water on the track.
    public static let water = NoteSymbol("water")
    /// Water crossing.
    public static let waterCrossing = NoteSymbol("waterCrossing")
    /// River.
    public static let river = NoteSymbol("river")
    /// Lake.
    public static let lake = NoteSymbol("lake")
    /// Marsh.
    public static let wetland = NoteSymbol("wetland")
    /// Mud.
    public static let mud = NoteSymbol("mud")
    /// Puddles.
    public static let puddle = NoteSymbol("puddle")
    /// Sand.
    public static let sand = NoteSymbol("sand")
    /// Dunes.
    public static let dunes = NoteSymbol("dunes")
    /// Dune crest.
    public static let duneCrest = NoteSymbol("duneCrest")
    /// Soft sand.
    public static let softSand = NoteSymbol("softSand")
    /// Camel grass.
    public static let camelGrass = NoteSymbol("camelGrass")
    /// Powder sand (fesh-fesh).
    public static let powderSand = NoteSymbol("powderSand")
    /// Stones.
    public static let stones = NoteSymbol("stones")
    /// Rocks.
    public static let rocks = NoteSymbol("rocks")
    /// Gravel.
    public static let gravel = NoteSymbol("gravel")
    /// Hole.
    public static let hole = NoteSymbol("hole")
    /// Hump.
    public static let hump = NoteSymbol("hump")
    /// Bumps.
    public static let bumps = NoteSymbol("bumps")
    /// Ruts.
    public static let ruts = NoteSymbol("ruts")
    /// Washed-out track.
    public static let washout = NoteSymbol("washout")
    /// Erosion gully.
    public static let erosion = NoteSymbol("erosion")
    /// Slippery.
    public static let slippery = NoteSymbol("slippery")
    /// Dust.
    public static let dust = NoteSymbol("dust")
    /// Grass.
    public static let grass = NoteSymbol("grass")
    /// Tarmac begins.
    public static let tarmacStart = NoteSymbol("tarmacStart")
    /// Tarmac ends.
    public static let tarmacEnd = NoteSymbol("tarmacEnd")
    /// Step.
    public static let steps = NoteSymbol("steps")
    /// Crest, blind.
    public static let crest = NoteSymbol("crest")
    /// Dip.
    public static let dip = NoteSymbol("dip")
    /// Steep climb.
    public static let steepClimb = NoteSymbol("steepClimb")
    /// Steep descent.
    public static let steepDescent = NoteSymbol("steepDescent")
    /// Summit.
    public static let summit = NoteSymbol("summit")
    /// Mountain pass.
    public static let pass = NoteSymbol("pass")
    /// Cliff.
    public static let cliff = NoteSymbol("cliff")
    /// Drop-off.
    public static let dropOff = NoteSymbol("dropOff")
    /// Compression.
    public static let compression = NoteSymbol("compression")
    /// Valley.
    public static let valley = NoteSymbol("valley")
    /// Ridge.
    public static let ridge = NoteSymbol("ridge")
    /// Cattle grid.
    public static let cattleGrid = NoteSymbol("cattleGrid")
    /// Gate.
    public static let gate = NoteSymbol("gate")
    /// Fence.
    public static let fence = NoteSymbol("fence")
    /// Wall.
    public static let wall = NoteSymbol("wall")
    /// Bridge.
    public static let bridge = NoteSymbol("bridge")
    /// Railway.
    public static let railway = NoteSymbol("railway")
    /// Level crossing.
    public static let levelCrossing = NoteSymbol("levelCrossing")
    /// Tunnel.
    public static let tunnel = NoteSymbol("tunnel")
    /// Barrier.
    public static let barrier = NoteSymbol("barrier")
    /// Power line.
    public static let powerLine = NoteSymbol("powerLine")
    /// Pipeline.
    public static let pipeline = NoteSymbol("pipeline")
    /// Dam.
    public static let dam = NoteSymbol("dam")
    /// Lone tree.
    public static let tree = NoteSymbol("tree")
    /// Trees.
    public static let forest = NoteSymbol("forest")
    /// Well.
    public static let well = NoteSymbol("well")
    /// Building.
    public static let building = NoteSymbol("building")
    /// Ruins.
    public static let ruins = NoteSymbol("ruins")
    /// Village.
    public static let village = NoteSymbol("village")
    /// Town.
    public static let town = NoteSymbol("town")
    /// Antenna.
    public static let antenna = NoteSymbol("antenna")
    /// Tower.
    public static let tower = NoteSymbol("tower")
    /// Church.
    public static let church = NoteSymbol("church")
    /// Cemetery.
    public static let cemetery = NoteSymbol("cemetery")
    /// Cairn.
    public static let cairn = NoteSymbol("cairn")
    /// Sign.
    public static let sign = NoteSymbol("sign")
    /// Post.
    public static let post = NoteSymbol("post")
    /// Farm.
    public static let farm = NoteSymbol("farm")
    /// Camp.
    public static let camp = NoteSymbol("camp")
    /// Quarry.
    public static let mine = NoteSymbol("mine")
    /// Viewpoint.
    public static let viewpoint = NoteSymbol("viewpoint")
    /// House.
    public static let house = NoteSymbol("house")
    /// Fork.
    public static let fork = NoteSymbol("fork")
    /// Track joins.
    public static let trackMerges = NoteSymbol("trackMerges")
    /// Track ends.
    public static let trackEnds = NoteSymbol("trackEnds")
    /// Off track.
    public static let offTrack = NoteSymbol("offTrack")
    /// Parallel tracks.
    public static let parallelTracks = NoteSymbol("parallelTracks")
    /// Keep left of it.
    public static let keepLeftOf = NoteSymbol("keepLeftOf")
    /// Keep right of it.
    public static let keepRightOf = NoteSymbol("keepRightOf")
    /// Many tracks.
    public static let manyTracks = NoteSymbol("manyTracks")
    /// Faint track.
    public static let faintTrack = NoteSymbol("faintTrack")
    /// Crossroads.
    public static let crossroads = NoteSymbol("crossroads")
    /// T-junction.
    public static let tJunction = NoteSymbol("tJunction")
    /// Road crossing.
    public static let roadCrossing = NoteSymbol("roadCrossing")
    /// Follow the track.
    public static let followTrack = NoteSymbol("followTrack")
    /// Narrow passage.
    public static let narrow = NoteSymbol("narrow")
    /// Caution.
    public static let caution = NoteSymbol("caution")
    /// Follow the CAP.
    public static let followCap = NoteSymbol("followCap")
    /// Do not cut.
    public static let doNotCut = NoteSymbol("doNotCut")
    /// Look out, hard to see.
    public static let lookOut = NoteSymbol("lookOut")
}

extension NoteSymbol {
    /// The symbol a waypoint type prints as (`CP` is `checkpoint`).
    public static func of(_ type: WaypointType) -> NoteSymbol {
        type == .cp ? .checkpoint : NoteSymbol(type.rawValue.lowercased())
    }

    /// The symbol of danger level 1, 2 or 3; nil for another level.
    public static func danger(_ level: Int) -> NoteSymbol? {
        switch level {
        case 1: .danger1
        case 2: .danger2
        case 3: .danger3
        default: nil
        }
    }
}

extension Note {
    /// The symbols the note's fields print as, in the order a row draws them: its waypoint type,
    /// the speed limit of a zone's start (DZ), the odometer reset, the CAP heading and the danger.
    /// An FZ row's limit is drawn struck through, not as the speed-limit sign.
    public var fieldSymbols: [NoteSymbol] {
        var symbols: [NoteSymbol] = []
        if let type = waypointType { symbols.append(.of(type)) }
        if waypointType == .dz, speedLimit != nil { symbols.append(.speedLimit) }
        if resetsOdometer { symbols.append(.reset) }
        if cap != nil { symbols.append(.cap) }
        if let danger = NoteSymbol.danger(danger) { symbols.append(danger) }
        return symbols
    }
}
