import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Golden images of vertical and formatted labels")
struct LabelTextGoldenTests {
    @Test("The Tokyo area in vertical Japanese (GeoNames names; Tokyo Bay with brackets, Latin and digits)")
    func tokyoVertical() throws {
        #expect(try GoldenCase.check("labels/tokyo-vertical").failure == nil)
    }

    @Test("East Asian countries labelled in Latin over Japanese (Natural Earth NAME and NAME_JA, format sections)")
    func bilingual() throws {
        #expect(try GoldenCase.check("labels/east-asia-bilingual").failure == nil)
    }
}
