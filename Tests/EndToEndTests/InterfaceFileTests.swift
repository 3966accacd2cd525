import Foundation
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The interface a running daemon introspects as is the one
/// `Sources/LiveryAPI/org.livery.Livery1.xml` describes: same methods, arguments, signatures,
/// signals and properties.
final class InterfaceFileTests: EndToEndTestCase {
    /// Every element of an introspection document as one line, in document order, e.g.
    /// `method Resolve`, `arg path s in`, `property Version s read`, `annotation … false`.
    final class Outline: NSObject, XMLParserDelegate {
        var lines: [String] = []
        var inLivery = false

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
            qualifiedName: String?,
            attributes a: [String: String] = [:]
        ) {
            if element == "interface" { inLivery = a["name"] == "org.livery.Livery1" }
            guard inLivery else { return }
            switch element {
            case "method", "signal": lines.append("\(element) \(a["name"] ?? "")")
            case "arg": lines.append("arg \(a["name"] ?? "") \(a["type"] ?? "") \(a["direction"] ?? "")")
            case "property":
                lines.append("property \(a["name"] ?? "") \(a["type"] ?? "") \(a["access"] ?? "")")
            case "annotation": lines.append("annotation \(a["name"] ?? "") \(a["value"] ?? "")")
            default: break
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
        ) {
            if element == "interface" { inLivery = false }
        }
    }

    func outline(_ data: Data) throws -> [String] {
        let parser = XMLParser(data: data)
        let outline = Outline()
        parser.delegate = outline
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return outline.lines
    }

    func testTheExportedInterfaceIsTheInterfaceFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LiveryAPI/org.livery.Livery1.xml").standardizedFileURL
        let described = try outline(Data(contentsOf: file))
        XCTAssertFalse(described.isEmpty)
        try startDaemon()
        let r = try run(
            Locations.tool("gdbus"),
            [
                "introspect", "--xml", "--address", address, "--dest", Locations.busName, "--object-path",
                Locations.objectPath,
            ])
        XCTAssertEqual(r.status, 0, "\(r)")
        let exported = try outline(Data(r.stdout.utf8))
        XCTAssertTrue(exported.contains("method Resolve"), "\(r.stdout)")
        XCTAssertEqual(exported, described)
    }
}
