import Foundation
import XCTest

/// Resolved values have the D-Bus types the README's "D-Bus API" gives, as a python3-dbus client receives them.
final class ValueEncodingTests: EndToEndTestCase {
    func testEachValueTypeHasItsDBusType() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "values", in: themes,
            sheet: """
                Button {
                  background-color: rgba(0 0 0 / 0.5);
                  content-insets: 1 2 3 4;
                  transition-duration: 600ms;
                  shadow-offset: 3 4;
                  corner-radius: 8px;
                  font-family: "Cantarell";
                  font-weight: bold;
                  alpha: 0.25;
                }

                """)
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("values")
        let r = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            obj = conn.get_object("org.livery.Livery1", "/org/livery/Livery1")
            names = ["background-color", "content-insets", "transition-duration", "shadow-offset", "corner-radius",
                     "font-family", "font-weight", "alpha"]
            values = obj.Resolve("Window/Button", dbus.Array(names, signature="s"), dbus.Dictionary({}, signature="sv"),
                                 dbus_interface="org.livery.Livery1")
            def show(v):
                if isinstance(v, dbus.Struct):
                    return "(" + ",".join(show(x) for x in v) + ")"
                if isinstance(v, dbus.Double):
                    return "d:%g" % v
                if isinstance(v, dbus.String):
                    return "s:%s" % v
                return "%s:%r" % (type(v).__name__, v)
            for name in names:
                print(name, show(values[name]))
            """)
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual(
            r.stdout,
            """
            background-color s:#00000080
            content-insets (d:1,d:2,d:3,d:4)
            transition-duration d:0.6
            shadow-offset (d:3,d:4)
            corner-radius d:8
            font-family s:Cantarell
            font-weight s:bold
            alpha d:0.25

            """, "\(r)")
    }
}
