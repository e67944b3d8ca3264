import Testing
import Vow

@Suite struct CoreSmokeTests {
    @Test func mapsOnTheDefaultQueue() throws {
        #expect(try value(of: Promise.value(1).map { $0 + 1 }) == 2)
    }
}
