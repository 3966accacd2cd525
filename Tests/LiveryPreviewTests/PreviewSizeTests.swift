import LiveryPreview
import XCTest

final class PreviewSizeTests: XCTestCase {
    func testParsesWidthByHeight() throws {
        XCTAssertEqual(try PreviewSize(parsing: "720x1280"), PreviewSize(width: 720, height: 1280))
        XCTAssertEqual(try PreviewSize(parsing: "10×20"), PreviewSize(width: 10, height: 20))
    }

    func testRefusesBadSizes() {
        for text in ["", "x", "0x10", "10x", "-1x5", "9000x10", "8192x8192", "1x2x3", "axb"] {
            XCTAssertThrowsError(try PreviewSize(parsing: text), text)
        }
    }
}
