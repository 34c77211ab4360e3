import Foundation
import Render
import Testing

/// Where templates and fonts are looked for: an explicit variable alone, else the installed
/// `share/roadbook/`, the checkout around the executable, the current directory.
@Suite struct ResourceFoldersTests {
    @Test("an installed binary looks in its own share folder first, then its ancestors, then the current directory")
    func installedFirst() {
        let list = ResourceFolders.candidates(named: "Templates", environmentVariable: "ROADBOOK_TEMPLATES", environment: [:],
                                              currentDirectory: "/home/u",
                                              executable: URL(fileURLWithPath: "/opt/rb/bin/roadbook"))
        #expect(list.map(\.path) == ["/opt/rb/share/roadbook/Templates", "/opt/rb/bin/Templates", "/opt/rb/Templates",
                                     "/opt/Templates", "/home/u/Templates"])
    }

    @Test("a checkout's build reaches the checkout within its ancestors")
    func checkoutBuild() {
        let list = ResourceFolders.candidates(named: "Fonts", environmentVariable: "ROADBOOK_FONTS", environment: [:],
                                              currentDirectory: "/",
                                              executable: URL(fileURLWithPath: "/src/rb/.build/x86_64-unknown-linux-gnu/release/roadbook"))
        #expect(list.contains(URL(fileURLWithPath: "/src/rb/Fonts", isDirectory: true)))
    }

    @Test("a set variable is the only place looked at; an empty one is ignored")
    func variable() {
        let executable = URL(fileURLWithPath: "/opt/rb/bin/roadbook")
        let set = ResourceFolders.candidates(named: "Fonts", environmentVariable: "ROADBOOK_FONTS",
                                             environment: ["ROADBOOK_FONTS": "/mine/fonts"], currentDirectory: "/",
                                             executable: executable)
        #expect(set.map(\.path) == ["/mine/fonts"])
        let empty = ResourceFolders.candidates(named: "Fonts", environmentVariable: "ROADBOOK_FONTS",
                                               environment: ["ROADBOOK_FONTS": ""], currentDirectory: "/",
                                               executable: executable)
        #expect(empty.first?.path == "/opt/rb/share/roadbook/Fonts")
    }
}
