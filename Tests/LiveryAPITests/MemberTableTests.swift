import Foundation
import LiveryAPI
import LiveryDBus
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The table of members (`LiveryMethod`, `LiverySignal`, `LiveryProperty`), which the daemon
/// exports and the clients call, is the interface `org.livery.Livery1.xml` describes.
final class MemberTableTests: XCTestCase {
    /// Every element of the interface in the XML as one line, in document order, e.g.
    /// `method Resolve`, `arg path s in`, `property Version s read`.
    private final class Outline: NSObject, XMLParserDelegate {
        var lines: [String] = []
        var inLivery = false

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
            qualifiedName: String?, attributes a: [String: String] = [:]
        ) {
            if element == "interface" { inLivery = a["name"] == LiveryBus.interface }
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

    private func interfaceFile() throws -> [String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LiveryAPI/org.livery.Livery1.xml").standardizedFileURL
        let parser = XMLParser(data: try Data(contentsOf: file))
        let outline = Outline()
        parser.delegate = outline
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return outline.lines
    }

    /// The table in the same outline: methods with their arguments in then out, signals, then
    /// properties, the order the interface file keeps.
    private func table() -> [String] {
        var lines: [String] = []
        for m in LiveryMethod.all {
            lines.append("method \(m.name)")
            lines += m.inputs.map { "arg \($0.name) \($0.signature) in" }
            lines += m.outputs.map { "arg \($0.name) \($0.signature) out" }
        }
        for s in LiverySignal.all {
            lines.append("signal \(s.name)")
            lines += s.arguments.map { "arg \($0.name) \($0.signature) " }
        }
        for p in LiveryProperty.allCases {
            lines.append("property \(p.rawValue) \(p.signature) read")
            if !p.emitsChangedSignal {
                lines.append("annotation org.freedesktop.DBus.Property.EmitsChangedSignal false")
            }
        }
        return lines
    }

    func testTheTableIsTheInterfaceFile() throws {
        let described = try interfaceFile()
        XCTAssertTrue(described.contains("method Watch"), "\(described)")
        XCTAssertEqual(table(), described)
    }

    func testTheSignalTypesNameTheirMembersFromTheTable() {
        XCTAssertEqual(ChangedSignal.member, "Changed")
        XCTAssertEqual(ThemeChangedSignal.member, "ThemeChanged")
    }

    func testPropertiesChangedKeysAreThePropertyNames() {
        XCTAssertEqual(
            LiveryProperty.changed([.serial: .uint32(3), .problems: .strings([])]),
            ["Serial": .uint32(3), "Problems": .strings([])])
    }
}
