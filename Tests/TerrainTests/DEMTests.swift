import Testing
@testable import Terrain
