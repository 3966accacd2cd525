import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

/// The typed decoding of the replies the client reads, from `DBusValue`s built by hand in the
/// shapes the README's "D-Bus API" gives.
final class ReplyDecodingTests: XCTestCase {
    func testListThemesDecodesIdNameAndMetadata() {
        let reply: [DBusValue] = [
            .array(
                element: "(ssa{sv})",
                [
                    .structure([
                        .string("forest"), .string("Forest"),
                        .dict([
                            "variant": .string("dark"), "format": .string("native"), "valid": .boolean(false),
                            "errors": .strings(["t.css:1:1: error: x"]), "inherits": .string("default"),
                        ]),
                    ])
                ])
        ]
        let themes = ThemeListing.list(decoding: reply)
        XCTAssertEqual(themes.count, 1)
        XCTAssertEqual(themes[0].id, "forest")
        XCTAssertEqual(themes[0].name, "Forest")
        XCTAssertEqual(themes[0].variant, "dark")
        XCTAssertEqual(themes[0].valid, false)
        XCTAssertEqual(themes[0].errors, ["t.css:1:1: error: x"])
        XCTAssertEqual(themes[0].inherits, "default")
        XCTAssertNil(themes[0].accentColor)
        // Not sent: a theme counts as checked.
        XCTAssertEqual(themes[0].checked, true)
    }

    func testResolveDecodesValuesInTheOrderSent() {
        let values = PropertyValues(
            decoding: .dictionary(
                key: "s", value: "v",
                [
                    DBusDictEntry(key: .string("row-height"), value: .variant(.double(80))),
                    DBusDictEntry(key: .string("tint-color"), value: .variant(.string("#008000ff"))),
                ]))
        XCTAssertEqual(values.properties, ["row-height", "tint-color"])
        XCTAssertEqual(values["tint-color"], .string("#008000ff"))
        XCTAssertNil(values["alpha"])
    }

    func testExplainDecodesADeclaration() {
        let entry = ExplainEntry(
            decoding: .dict([
                "kind": .string("declaration"), "origin": .string("a.css:2:3"), "selector": .string("Button"),
                "layer": .string("user"), "specificity": .structure([.uint32(1), .uint32(2), .uint32(3)]),
                "value": .double(4), "winner": .boolean(true), "reason": .string(""), "omitted": .uint32(7),
                "app": .string("org.example.Mail"),
            ]))
        XCTAssertEqual(entry.kind, .declaration)
        XCTAssertEqual(entry.origin, "a.css:2:3")
        XCTAssertEqual(entry.layer, "user")
        XCTAssertEqual(
            [entry.specificity.ids, entry.specificity.classes, entry.specificity.types], [1, 2, 3])
        XCTAssertEqual(entry.value, .double(4))
        XCTAssertTrue(entry.winner)
        XCTAssertEqual(entry.omitted, 7)
        XCTAssertEqual(entry.app, "org.example.Mail")
    }

    func testExplainDecodesAnInitialValue() {
        let entry = ExplainEntry(decoding: .dict(["kind": .string("initial"), "value": .string("normal")]))
        XCTAssertEqual(entry.kind, .initial)
        XCTAssertEqual(entry.value, .string("normal"))
    }

    func testGetAllDecodesTheProperties() {
        let p = DaemonProperties(decoding: [
            .dict([
                "ActiveTheme": .string("forest"), "Serial": .uint32(3), "Version": .string("0.1.0"),
                "Problems": .strings(["p"]),
            ])
        ])
        XCTAssertEqual(p.activeTheme, "forest")
        XCTAssertEqual(p.serial, 3)
        XCTAssertEqual(p.version, "0.1.0")
        XCTAssertEqual(p.problems, ["p"])
    }

    func testWatchAndChangedDecode() {
        let current: DBusValue = .dictionary(
            key: "s", value: "a{sv}",
            [DBusDictEntry(key: .string("Window/TabBar"), value: .dict(["tint-color": .string("#008000ff")]))]
        )
        let reply = WatchReply(decoding: [.structure([.uint32(5), current])])
        XCTAssertEqual(reply?.serial, 5)
        XCTAssertEqual(reply?.values.components.first?.path, "Window/TabBar")
        XCTAssertEqual(reply?.values.components.first?.values["tint-color"], .string("#008000ff"))
        XCTAssertEqual(
            WatchReply(decoding: [.uint32(5), current]), reply, "the struct's fields alone decode too")
        XCTAssertNil(WatchReply(decoding: [.uint32(5)]))
        let changed = ChangedSignal(
            decoding: [
                .string("Window/TabBar"), .string(""), .uint32(9),
                .dict(["tint-color": .string("#800000ff")]),
            ])
        XCTAssertEqual(changed?.serial, 9)
        XCTAssertEqual(changed?.path, "Window/TabBar")
        XCTAssertEqual(changed?.values["tint-color"], .string("#800000ff"))
        XCTAssertNil(ChangedSignal(decoding: [.uint32(5), .uint32(9), current, current]), "the old shape")
        // The match rule selects the path and the application (none: empty).
        XCTAssertEqual(
            ChangedSignal.rule(path: "Window/TabBar", app: nil),
            "type='signal',sender='org.livery.Livery1',interface='org.livery.Livery1',member='Changed',path='/org/livery/Livery1',arg0='Window/TabBar',arg1=''"
        )
        XCTAssertTrue(ChangedSignal.rule(path: "a'b", app: "m").hasSuffix("arg0='a'\\''b',arg1='m'"))
        let theme = ThemeChangedSignal(decoding: [.string("crimson"), .uint32(2)])
        XCTAssertEqual(theme, ThemeChangedSignal(theme: "crimson", serial: 2))
    }

    func testValuesDecodeAsTheTypeTheirPropertyHas() {
        let values: [(Value, ValueType)] = [
            (.color(RGBA(red8: 0, green8: 128, blue8: 0)), .color), (.image("/t/back1.png"), .image),
            (.image(nil), .image), (.length(44), .length), (.number(0.5), .number),
            (.duration(0.2), .duration),
            (.keyword("bold"), .keyword), (.string("sans-serif"), .string), (.size(3, 4), .size),
            (.insets(0, 16, 0, 0), .insets),
        ]
        for (value, type) in values {
            XCTAssertEqual(Value(decoding: value.dbusValue, type: type), value, "\(type)")
            XCTAssertEqual(
                Value(decoding: .variant(value.dbusValue), type: type), value, "\(type) in a variant")
        }
        XCTAssertEqual(
            Value(decoding: .string("#800000"), type: .color), .color(RGBA(red8: 128, green8: 0, blue8: 0)))
        XCTAssertNil(Value(decoding: .string("800000ff"), type: .color), "no #")
        XCTAssertNil(Value(decoding: .string("#80000g"), type: .color))
        XCTAssertNil(Value(decoding: .double(1), type: .color))
        XCTAssertNil(Value(decoding: .string("44"), type: .length))
        XCTAssertNil(Value(decoding: .structure([.double(1), .double(2), .double(3)]), type: .insets))
        XCTAssertNil(Value(decoding: .structure([.double(1), .string("2")]), type: .size))
    }

    func testPropertyValuesTypedBySchemaLeaveOutWhatTheSchemaDoesNotRead() throws {
        let schema = try Schema(
            json: Data(
                ##"""
                {"states": ["normal"], "types": {"View": {"properties": ["tint-color", "alpha"]}},
                 "properties": {"tint-color": {"type": "color", "initial": "#000"},
                                "alpha": {"type": "number", "initial": "1"}}}
                """##.utf8))
        let values = PropertyValues([
            PropertyValue("tint-color", .string("#008000ff")), PropertyValue("alpha", .string("half")),
            PropertyValue("unknown", .double(1)),
        ])
        XCTAssertEqual(values.typed(by: schema), ["tint-color": .color(RGBA(red8: 0, green8: 128, blue8: 0))])
    }

    func testLiveryErrorNamesCarryTheirKind() {
        XCTAssertEqual(
            LiveryErrorKind.unknownTheme.errorName.rawValue, "org.livery.Livery1.Error.UnknownTheme")
        XCTAssertEqual(
            LiveryErrorKind(errorName: ErrorName(rawValue: "org.livery.Livery1.Error.InvalidPath")),
            .invalidPath)
        XCTAssertNil(LiveryErrorKind(errorName: .invalidArgs))
    }
}
