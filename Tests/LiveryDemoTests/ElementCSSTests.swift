import Foundation
import LiveryCore
import LiveryDemo
import XCTest

/// The sheets of livery-demo's widgets name no colour but the values they were made from.
final class ElementCSSTests: XCTestCase {
    /// A style in which every property an element reads has a value, each colour a different one.
    private func style(of element: SampleScreen.Element, first: Int) -> SampleStyle {
        var values: [String: Value] = [:]
        for (k, property) in element.properties.enumerated() {
            values[property] =
                property.hasSuffix("color") ? .color(RGBA(red8: first + k, green8: 1, blue8: 2)) : nil
        }
        values["corner-radius"] = .length(8)
        values["alpha"] = .number(0.5)
        values["background-image"] = .image("/themes/my forest/back (1).png")
        values["separator-insets"] = .insets(0, 16, 0, 4)
        values["font-family"] = .string("DejaVu \"Sans\"")
        values["font-weight"] = .keyword("semibold")
        return SampleStyle(values)
    }

    func testEverySheetNamesOnlyColoursOfItsValues() throws {
        let table = try XCTUnwrap(SampleScreen.elements.first { $0.role == .tableView })
        let tableStyle = style(of: table, first: 200)
        for (n, element) in SampleScreen.elements.enumerated() {
            let own = style(of: element, first: n * 10)
            let css = ElementCSS.css(
                for: element, style: own, table: element.role == .tableRow ? tableStyle : nil)
            var allowed = Set(own.values.values.compactMap { if case .color(let c) = $0 { c } else { nil } })
            if element.role == .tableRow {
                allowed.formUnion(
                    tableStyle.values.values.compactMap { if case .color(let c) = $0 { c } else { nil } })
            }
            let named = css.matches(of: /rgba\((\d+), (\d+), (\d+), ([0-9.]+)\)/).map {
                RGBA(
                    red8: Int($0.1)!, green8: Int($0.2)!, blue8: Int($0.3)!,
                    alpha8: Int((Double($0.4)! * 255).rounded()))
            }
            XCTAssertFalse(named.isEmpty, "\(element.id) shows no colour:\n\(css)")
            for c in named {
                XCTAssertTrue(allowed.contains(c), "\(element.id): \(c) is none of its values:\n\(css)")
            }
            // No other way of writing a colour: hex, rgb(), hsl() or a name.
            let hex = css.matches(of: /#[0-9a-fA-F]{3,8}\b/).map { String($0.0) }.filter {
                $0 != "#" + element.id
            }
            XCTAssertEqual(hex, [], element.id)
            for word in ["rgb(", "hsl", "white", "black", "@", "alpha(", "mix("] {
                XCTAssertFalse(css.contains(word), "\(element.id) has '\(word)':\n\(css)")
            }
            XCTAssertTrue(css.contains("transition: none; animation: none;"), element.id)
        }
    }

    func testImagesAreFileURLsStretchedOverTheWidget() throws {
        let button = try XCTUnwrap(SampleScreen.elements.first { $0.id == "button-normal" })
        let css = ElementCSS.css(for: button, style: style(of: button, first: 0))
        XCTAssertTrue(
            css.contains(
                #"background-image: url("file:///themes/my%20forest/back%20%281%29.png"); background-size: 100% 100%;"#
            ),
            css)
        XCTAssertTrue(css.contains(#"font-family: "DejaVu \"Sans\""; "#), css)
        XCTAssertTrue(css.contains("font-weight: 600;"), css)
        XCTAssertTrue(css.contains("opacity: 0.5;"), css)
    }

    func testAMissingColourIsTransparent() throws {
        let tabBar = try XCTUnwrap(SampleScreen.elements.first { $0.role == .tabBar })
        let css = ElementCSS.css(for: tabBar, style: SampleStyle())
        XCTAssertTrue(css.contains("#tab-bar > button:checked { color: transparent;"), css)
    }
}
