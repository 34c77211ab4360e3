/// GPX documents for `GPXReaderTests`, kept as literals so the test target needs
/// no resources. Line numbers matter to some tests: each fixture starts on line 1
/// with the XML declaration.
enum FixturesGPX {
    /// GPX 1.0: name on `<gpx>`, a route and a track with 1.0-only elements (`<speed>`, `<course>`).
    static let gpx10 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.0" creator="GPSBabel" xmlns="http://www.topografix.com/GPX/1/0">
          <name>Pyrenees day 1</name>
          <time>2024-05-01T08:00:00Z</time>
          <wpt lat="42.5078" lon="1.5211">
            <ele>1023</ele>
            <name>Andorra la Vella</name>
            <sym>Flag</sym>
          </wpt>
          <rte>
            <name>Planned</name>
            <rtept lat="42.5" lon="1.5"><ele>1000</ele></rtept>
            <rtept lat="42.6" lon="1.6"/>
          </rte>
          <trk>
            <name>Recorded</name>
            <trkseg>
              <trkpt lat="42.50" lon="1.50"><ele>1001.5</ele><time>2024-05-01T08:00:00Z</time><speed>12.5</speed><course>90</course></trkpt>
              <trkpt lat="42.51" lon="1.51"><time>2024-05-01T08:00:10Z</time></trkpt>
            </trkseg>
          </trk>
        </gpx>
        """

    /// GPX 1.1 with OpenRally extensions (trimmed from the OpenRally v1.0.3 example
    /// file), a Garmin extension, and elements of other namespaces inside GPX ones.
    static let gpx11WithExtensions = """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <gpx xmlns="http://www.topografix.com/GPX/1/1" creator="roadbook tests" version="1.1"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
          xmlns:openrally="http://www.openrally.org/xmlschemas/GpxExtensions/v1.0.3">
          <metadata>
            <name>Cross-country stage</name>
            <extensions>
              <openrally:units>metric</openrally:units>
              <openrally:distance>33.86</openrally:distance>
            </extensions>
          </metadata>
          <wpt lat="0" lon="0">
            <name>WPS 1</name>
            <extensions>
              <openrally:distance>0.3</openrally:distance>
              <openrally:danger>3</openrally:danger>
              <openrally:wps open="800" clear="90"/>
              <openrally:name>not the waypoint name</openrally:name>
            </extensions>
          </wpt>
          <wpt lat="-33.5" lon="-70.25">
            <ele>512.25</ele>
            <time>2024-01-05T10:15:30.250+02:00</time>
            <name>CP1</name>
            <cmt>Fuel</cmt>
            <desc>Neutralized fuel stop</desc>
            <link href="https://example.org"><text>info</text></link>
            <sym>Gas Station</sym>
            <type>fuel</type>
            <extensions>
              <openrally:distance>0.5</openrally:distance>
              <openrally:neutralization>900</openrally:neutralization>
              <openrally:fuel/>
            </extensions>
          </wpt>
          <openrally:unknown lat="999"><trkpt lat="1" lon="1"/></openrally:unknown>
          <trk>
            <name>Stage</name>
            <extensions><openrally:name>ignored</openrally:name></extensions>
            <trkseg>
              <trkpt lat="-33.5" lon="-70.25">
                <ele>512</ele>
                <time>2024-01-05T08:15:30Z</time>
                <extensions>
                  <gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension>
                </extensions>
              </trkpt>
              <trkpt lat="-33.6" lon="-70.30"><futureElement>x</futureElement></trkpt>
            </trkseg>
          </trk>
          <extensions><openrally:distance>33.86</openrally:distance></extensions>
        </gpx>
        """

    /// A track broken into three segments (one empty), as a GPS writes after signal loss.
    static let multipleSegments = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk>
            <trkseg>
              <trkpt lat="1" lon="1"/>
              <trkpt lat="1.1" lon="1.1"/>
            </trkseg>
            <trkseg/>
            <trkseg>
              <trkpt lat="2" lon="2"/>
            </trkseg>
          </trk>
          <trk>
            <trkseg><trkpt lat="3" lon="3"/></trkseg>
          </trk>
        </gpx>
        """

    /// Wraps `body` in a GPX 1.1 root; `body` starts on line 3.
    static func gpx11(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
        \(body)
        </gpx>
        """
    }

    /// The classic "billion laughs" document: ten levels of ten-fold entity expansion.
    static let billionLaughs: String = {
        var lines = ["<?xml version=\"1.0\"?>", "<!DOCTYPE gpx [", "  <!ENTITY lol \"lol\">"]
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            lines.append("  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">")
        }
        lines.append("]>")
        lines.append("<gpx xmlns=\"http://www.topografix.com/GPX/1/1\"><name>&lol9;</name></gpx>")
        return lines.joined(separator: "\n")
    }()
}
