// swift-tools-version:6.0
// roadbook — turns a route into a printable rally road book.
// Dependencies point down only: docs/architecture.md has the table of targets and what each may
// import, and Tests/ArchitectureTests checks every import against it.
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "roadbook",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "roadbook", targets: ["roadbook"]),
        // Every library target, so a program that embeds roadbook can import any of them.
        .library(name: "RoadbookKit", targets: ["RoadbookCLI", "Serve", "Workflows", "Render", "Layout", "Formats", "BookAssembly",
                                                "Guidance", "RouteEditing", "OSM", "Routing", "Terrain", "HTTP", "XML",
                                                "Archive", "AtomicFile", "Model", "Geo"]),
    ],
    targets: [
        // System libraries from Debian -dev packages (see README: the setup command installs them).
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", path: "Sources/CPango", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat",
                       providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CZip", path: "Sources/CZip", pkgConfig: "libzip",
                       providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CTiff", path: "Sources/CTiff", pkgConfig: "libtiff-4",
                       providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // The symbol library's pictograms are SVG files, drawn by librsvg onto the page's Cairo context.
        .systemLibrary(name: "CRsvg", path: "Sources/CRsvg", pkgConfig: "librsvg-2.0",
                       providers: [.apt(["librsvg2-dev"])]),
        // The local web editor's HTTP server (`roadbook serve`), wrapped in Serve alone.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),

        // Pure layers: no I/O, no C modules.
        .target(name: "Geo", swiftSettings: swift6),
        .target(name: "Model", dependencies: ["Geo"], swiftSettings: swift6),
        // The stages of a book, by what they hold: turns and their words and tulips (Guidance), the
        // route through handles (RouteEditing), and notes placed on a route into a book
        // (BookAssembly, which joins Guidance's turns into its notes and builds from the editor's route).
        .target(name: "Guidance", dependencies: ["Model", "Geo"], swiftSettings: swift6),
        .target(name: "RouteEditing", dependencies: ["Model", "Geo"], swiftSettings: swift6),
        .target(name: "BookAssembly", dependencies: ["Guidance", "RouteEditing", "Model", "Geo"], swiftSettings: swift6),
        .target(name: "Layout", dependencies: ["Model", "Geo"], swiftSettings: swift6),

        // Streaming XML through expat, refusing DOCTYPE and entities: the one parser under GPX and OSM XML.
        .target(name: "XML", dependencies: ["CExpat"], swiftSettings: swift6),

        // OpenStreetMap: PBF and XML readers, the road graph, matching a line onto it, junctions.
        .target(name: "OSM", dependencies: ["Geo", "Model", "CZlib", "XML"], swiftSettings: swift6),

        // Zip archives through libzip, read with a size limit: SRTM tiles (.hgt.zip) and KMZ files.
        .target(name: "Archive", dependencies: ["CZip"], swiftSettings: swift6),

        // HTTP through libcurl; heights from DEM tiles (SRTM .hgt, zipped; GeoTIFF with
        // libtiff) and elevation services.
        .target(name: "HTTP", dependencies: ["CCurl"], swiftSettings: swift6),
        .target(name: "Terrain", dependencies: ["Model", "Geo", "HTTP", "AtomicFile", "Archive", "CTiff"], swiftSettings: swift6),
        .target(name: "Routing", dependencies: ["Model", "Geo", "OSM", "HTTP"], swiftSettings: swift6),

        // I/O layers.
        .target(name: "AtomicFile", swiftSettings: swift6),
        // GeoPackage export writes SQLite through CSQLite, wrapped in Formats alone.
        .target(name: "Formats", dependencies: ["Model", "Geo", "XML", "Archive", "AtomicFile", "CSQLite"], swiftSettings: swift6),
        .target(name: "Render", dependencies: ["Layout", "Model", "Geo", "CCairo", "CPango", "CFontconfig", "CRsvg", "AtomicFile"],
                swiftSettings: swift6),

        // The operations a script or another program calls: build a book, regenerate it, route
        // through handles, fetch terrain. They return values and log messages; they never print.
        .target(name: "Workflows", dependencies: ["Render", "Layout", "Formats", "BookAssembly", "Guidance", "RouteEditing", "OSM",
                                                 "Terrain", "HTTP", "Routing", "AtomicFile", "Model", "Geo"],
                swiftSettings: swift6),

        // The local web editor (`roadbook serve`): an HTTP server on libmicrohttpd, its security
        // checks, and the editor's API as functions from a request to a response over Workflows.
        // Page/ holds the page's static files, served as they are.
        .target(name: "Serve", dependencies: ["Workflows", "Render", "Layout", "Formats", "BookAssembly", "AtomicFile", "Model", "Geo", "CMicroHTTPD"],
                exclude: ["Page"], swiftSettings: swift6),

        // The command line: parsing, printing and exit codes only; every operation lives in Workflows.
        .target(name: "RoadbookCLI", dependencies: ["Workflows", "Model"],
                swiftSettings: swift6),
        // The one target that knows both the command line and the editor's server: it hands
        // Serve's launcher to Roadbook.main for `roadbook serve`.
        .executableTarget(name: "roadbook", dependencies: ["RoadbookCLI", "Serve"], swiftSettings: swift6),
        .executableTarget(name: "roadbook-bench",
                          dependencies: ["Workflows", "Render", "Formats", "BookAssembly", "Guidance", "OSM", "Terrain", "Routing", "HTTP",
                                         "Model", "Geo"],
                          swiftSettings: swift6),

        .target(name: "TestSupport", dependencies: ["RoadbookCLI", "Layout", "Model", "Geo", "OSM", "Render", "Terrain", "HTTP", "CCairo", "CTiff"],
                path: "Tests/TestSupport",
                swiftSettings: swift6),
        .testTarget(name: "OSMTests", dependencies: ["OSM", "BookAssembly", "Guidance", "Render", "Model", "Geo", "TestSupport"],
                    exclude: ["Goldens", "Hostile"], swiftSettings: swift6),
        // Reads docs/architecture.md's target table and every import in Sources/, so the layers
        // written down are the layers of the code.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"], swiftSettings: swift6),
        .testTarget(name: "AtomicFileTests", dependencies: ["AtomicFile"], swiftSettings: swift6),
        // The benchmark's own arithmetic, where a figure it prints rests on more than counting.
        .testTarget(name: "BenchTests", dependencies: ["roadbook-bench", "Geo"], swiftSettings: swift6),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "ModelTests", dependencies: ["Model", "Formats", "TestSupport"], exclude: ["Fixtures"],
                    swiftSettings: swift6),
        .testTarget(name: "FormatsTests", dependencies: ["Formats", "XML", "Model", "Geo", "TestSupport"], exclude: ["Hostile"],
                    swiftSettings: swift6),
        .testTarget(name: "GuidanceTests", dependencies: ["Guidance", "Model", "Geo", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "RouteEditingTests", dependencies: ["RouteEditing", "Model", "Geo", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "BookAssemblyTests", dependencies: ["BookAssembly", "Guidance", "Model", "Geo", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "XMLTests", dependencies: ["XML"], swiftSettings: swift6),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"], swiftSettings: swift6),
        .testTarget(name: "TerrainTests", dependencies: ["Terrain", "HTTP", "BookAssembly", "Formats", "Model", "Geo", "TestSupport"],
                    exclude: ["Hostile"], swiftSettings: swift6),
        .testTarget(name: "RoutingTests", dependencies: ["Routing", "HTTP", "Model", "Geo", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "IntegrationTests", dependencies: ["OSM", "Guidance", "Formats", "Terrain", "HTTP", "Routing", "Workflows", "RoadbookCLI",
                                                           "Model", "Geo", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Layout", "Model", "Geo", "TestSupport"],
                    exclude: ["Goldens", "Hostile", "Fixtures"], swiftSettings: swift6),
        .testTarget(name: "WorkflowsTests", dependencies: ["Workflows", "Formats", "BookAssembly", "Guidance", "RouteEditing", "OSM", "Routing",
                                                        "Render", "Model", "Geo", "TestSupport"],
                    swiftSettings: swift6),
        // Runs the roadbook binary on the hostile-input corpus (Tests/Hostile and every other Hostile/ folder).
        .testTarget(name: "HostileTests", dependencies: ["TestSupport"], swiftSettings: swift6),
        .testTarget(name: "ServeTests", dependencies: ["Serve", "RoadbookCLI", "Workflows", "Formats", "BookAssembly", "HTTP", "Model", "Geo", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "CLITests", dependencies: ["RoadbookCLI", "Workflows", "Formats", "RouteEditing", "Terrain", "Model", "Geo", "TestSupport"],
                    exclude: ["Goldens"], swiftSettings: swift6),
    ]
)
