import Foundation
import XCTest

@testable import LiveryCore

/// `PywalTemplate` against pywal itself: pywal 3.8.15 (`make test` installs it in
/// `.build/test-venv`) renders each template with `pywal.export.template` over the same colour
/// dictionary, and Livery's bytes must be the same; where pywal reports an error or raises,
/// Livery must refuse with an error.
final class PywalTemplateTests: XCTestCase {
    /// One template and the `colors.json` values it renders with.
    struct Case {
        var template: [UInt8]
        var colors: PywalColors
        init(_ template: String, _ colors: PywalColors = PywalTemplateTests.dark) {
            self.template = Array(template.utf8)
            self.colors = colors
        }
        init(bytes: [UInt8], _ colors: PywalColors = PywalTemplateTests.dark) {
            template = bytes
            self.colors = colors
        }
    }

    static let dark = PywalColors(
        colors: [
            "#1d2021", "#cc241d", "#98971a", "#d79921", "#458588", "#b16286", "#689d6a", "#a89984",
            "#928374", "#fb4934", "#b8bb26", "#fabd2f", "#83a598", "#d3869b", "#8ec07c", "#ebdbb2",
        ], background: "#1d2021", foreground: "#ebdbb2", cursor: "#ebdbb2", wallpaper: "/pictures/sea 1.jpg",
        checksum: "0f343b0931126a20f133d67c2b018a3b", alpha: "90")
    static let light = PywalColors(
        colors: [
            "#fbf1c7", "#9d0006", "#79740e", "#b57614", "#076678", "#8f3f71", "#427b58", "#3c3836",
            "#928374", "#cc241d", "#98971a", "#d79921", "#458588", "#b16286", "#689d6a", "#282828",
        ], background: "#fbf1c7", foreground: "#3c3836", cursor: "#000000")

    static func with(
        _ colors: PywalColors, wallpaper: String? = nil, alpha: String? = nil, checksum: String? = nil
    )
        -> PywalColors
    {
        let v = colors.values
        return PywalColors(
            colors: (0..<16).map { v["color\($0)"]! }, background: v["background"]!,
            foreground: v["foreground"]!,
            cursor: v["cursor"]!, wallpaper: wallpaper ?? v["wallpaper"]!,
            checksum: checksum ?? v["checksum"]!,
            alpha: alpha ?? v["alpha"]!)
    }

    /// Every property and method of pywal's `Color`, on two lines and a third without newline.
    static let everyModifier = """
        {color0} {color1.strip} {color2.rgb} {color3.rgba} {color4.xrgba} {color5.alpha} {color6.red} {color6.green} {color6.blue}
        {background} {foreground} {cursor} {wallpaper} {alpha} {checksum} {background.strip} {cursor.rgb}
        {color7.rgbspace} {color8.hex_argb} {color9.alpha_dec} {color10.alpha_hex} {color11.decimal} {color12.decimal_strip}
        {color13.octal} {color14.octal_strip} {color15.red_hex}{color15.green_hex}{color15.blue_hex} {color1.red_dec},{color1.green_dec},{color1.blue_dec}
        {color2.w3_luminance} {background.w3_luminance} {foreground.w3_luminance} {foreground.hex_color} {color0.alpha_num} {color0.passed_alpha_num}
        {color1.lighten(20)} {color1.darken(33%).strip} {color1.saturate(50)} {color8.foxify(1.25)} {color1.adjust_alpha(50).rgba} {color1.adjust_alpha().alpha}
        {color1.lighten(10.0)} {color1.lighten(0.5)} {color1.darken(150)} {color1.saturate(150)} {color1.lighten(250)} {color3.darken(-20).lighten(5).rgb}
        {color1.adjust_alpha(0.5).alpha} {color1.adjust_alpha(-30).hex_argb} {color1.adjust_alpha(7).rgba} {color1.adjust_alpha(5).lighten(3).alpha}
        {color4.saturate(0)} {color4.saturate(100)} {color0.saturate(80)} {color15.lighten(100)} {color2.darken(100)} {color5.foxify(-2)} {color5.foxify(300)}
        {{color0}} {{{{literal}}}} ${{HOME}} {color0.strip}} {{color1.strip} {color1.lighten(٣٠)} {color6.darken( 12.5x )}
        {color9.adjust_alpha(1.5).alpha_dec} {color9.adjust_alpha(12345678901234567890).rgba} {checksum.decimal} {checksum.octal} {wallpaper.strip} {alpha.alpha_num}
        """

    static var cases: [Case] {
        var out = [
            Case(everyModifier),
            Case(
                everyModifier,
                with(light, wallpaper: "/w/light.png", checksum: "5d41402abc4b2a76b9719d911017c592")),
            Case(everyModifier + "\n", with(dark, alpha: "0.8")),
        ]
        for alpha in [" 50 ", "1_0", "150", "-30", "1e1", "0", "-0.0", "٧٥", "inf", "nan", "abc", "1__0"] {
            out.append(
                Case(
                    "{color1.rgba} {color1.alpha} {alpha} {color1.hex_argb} {color1.alpha_hex}\n",
                    with(dark, alpha: alpha)))
        }
        // pywal's first-occurrence rule: an escaped marker earlier on the line, a value holding
        // a marker's text, a marker's text made by a replacement, values with braces.
        out += [
            Case("{{color0}} {color0} {color0}\n"),
            Case("{wallpaper} {color1} {color1}\n", with(dark, wallpaper: "/p/{color1}.png")),
            Case("{color1{wallpaper}5} {color15} {color15}\n", with(dark, wallpaper: "")),
            Case("{wallpaper}{wallpaper}{color3} {color3}\n", with(dark, wallpaper: "{wallpaper}{color3}")),
            Case("{wallpaper} {wallpaper} {wallpaper}\n", with(dark, wallpaper: "{{wallpaper}}}")),
            Case("x{wallpaper}y {alpha} {alpha}\n", with(dark, wallpaper: "}{alpha", alpha: "7")),
            Case("{a{wallpaper}b} {a{alpha}b}\n", with(dark, wallpaper: "{", alpha: "}")),
            Case("{wallpaper}\n", with(dark, wallpaper: " \u{3000}/tmp/x y \u{1F}\t")),
            Case(
                "{wallpaper.strip} {wallpaper.red_hex} {checksum.rgb} {checksum.red}\n",
                with(dark, wallpaper: "ééé", checksum: "#aabbcc")),
            Case(
                "{checksum.decimal} {checksum.octal} {checksum.octal_strip}\n",
                with(dark, checksum: "# -0x_ff_0 ")),
            Case(bytes: Array("a {color0}\r\nb\rc {color1}\r{color2}".utf8)),
            Case(bytes: [0xEF, 0xBB, 0xBF] + Array("{color0} é ü {color1.strip}\n".utf8)),
            Case("no markers at all\n{}\n"),
            Case("{}{ color0 }\n"),
            Case(""),
        ]
        // What pywal refuses.
        for bad in [
            "{HOME}", "{ color0 }", "{color0.strip()}", "{color0.lighten}", "{color0.lighten()}",
            "{color0.lighten(1,2)}", "{color0.bogus}", "{wallpaper.rgb}", "{color0.lighten(1,)}",
            "{color0.lighten(" + String(repeating: "9", count: 400) + ")}", "{checksum.rgb}",
            "{color0.xrgba.strip}",
        ] {
            out.append(Case("ok {color1}\n" + bad + "\n"))
        }
        return out
    }

    /// pywal's rendering of each case: its bytes, or nil when pywal logged an error or raised.
    func pywal(_ cases: [Case]) throws -> [[UInt8]?] {
        let python = repositoryRoot.appendingPathComponent(".build/test-venv/bin/python").path
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: python), "pywal's venv is missing: make deps-test")
        let script = """
            import base64, json, logging, os, sys, tempfile
            from pywal import export, util
            class Count(logging.Handler):
                errors = 0
                def emit(self, record):
                    if record.levelno >= logging.ERROR: Count.errors += 1
            logging.getLogger().addHandler(Count())
            out = []
            d = tempfile.mkdtemp()
            for case in json.load(sys.stdin):
                template = os.path.join(d, "t"); target = os.path.join(d, "out")
                with open(template, "wb") as f: f.write(base64.b64decode(case["template"]))
                if os.path.exists(target): os.remove(target)
                c = case["colors"]
                util.Color.alpha_num = c["alpha"]
                colors = export.flatten_colors({"wallpaper": c["wallpaper"], "checksum": c["checksum"],
                    "alpha": c["alpha"], "special": {k: c[k] for k in ("background", "foreground", "cursor")},
                    "colors": {"color%d" % i: c["color%d" % i] for i in range(16)}})
                Count.errors = 0
                try:
                    export.template(colors, template, target)
                    ok = Count.errors == 0 and os.path.exists(target)
                except Exception:
                    ok = False
                out.append(base64.b64encode(open(target, "rb").read()).decode() if ok else None)
            print(json.dumps(out))
            """
        let input = try JSONSerialization.data(
            withJSONObject: cases.map {
                ["template": Data($0.template).base64EncodedString(), "colors": $0.colors.values]
            })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        process.environment = ["PYTHONUTF8": "1", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]
        let (stdin, stdout) = (Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "pywal's renderer failed")
        let results = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [Any])
        return results.map { ($0 as? String).flatMap { Data(base64Encoded: $0) }.map { Array($0) } }
    }

    func testEveryCaseRendersAsPywalRendersIt() throws {
        let cases = PywalTemplateTests.cases
        let expected = try pywal(cases)
        XCTAssertEqual(expected.count, cases.count)
        var rendered = 0
        var refused: [Int] = []
        for (i, (c, want)) in zip(cases, expected).enumerated() {
            let shown = String(decoding: c.template.prefix(80), as: UTF8.self)
            let got = Result { () throws(Diagnostic) in
                try PywalTemplate(c.template, name: "t").render(c.colors)
            }
            switch (got, want) {
            case (.success(let g), let w?):
                XCTAssertEqual(
                    String(decoding: g, as: UTF8.self), String(decoding: w, as: UTF8.self),
                    "case \(i): \(shown)")
                XCTAssertEqual(g, w, "case \(i): \(shown)")
                rendered += 1
            case (.failure, nil): refused.append(i)
            case (.success(let g), nil):
                XCTFail(
                    "case \(i): pywal refuses \(shown), Livery wrote \(String(decoding: g, as: UTF8.self))")
            case (.failure(let e), let w?):
                // pywal writes a method's `repr` there (`<bound method Color.lighten of <pywal.util.Color
                // object at 0x7f…>>`, an address that changes each run): Livery refuses it.
                if String(decoding: w, as: UTF8.self).contains("<bound method") {
                    refused.append(i)
                } else {
                    XCTFail("case \(i): pywal renders \(shown), Livery refused: \(e)")
                }
            }
        }
        // The modifier templates, the alpha values pywal reads and the quirks render; the alphas
        // that are not numbers (nan, abc, 1__0), a marker with spaces and the twelve refusals do not.
        XCTAssertEqual(refused, [12, 13, 14, 28] + Array((cases.count - 12)..<cases.count), "\(refused)")
        XCTAssertEqual(rendered, cases.count - 16)
    }
}

/// pywal's first-occurrence rule in linear time: `render` against pywal's loop step for step
/// (`renderNaive`), and the work beyond copying bounded by the text and output, on the shapes
/// that make pywal's loop quadratic.
final class PywalTemplateCostTests: XCTestCase {
    /// Lines of many markers whose values hold braces, so that replacements make new
    /// marker-like texts before the markers still to come, nested ever deeper.
    func shapes(_ n: Int) -> [(String, PywalColors)] {
        let d = PywalTemplateTests.dark
        return [
            (
                String(repeating: "{wallpaper}", count: n) + String(repeating: " {color3}", count: n) + "\n",
                PywalTemplateTests.with(d, wallpaper: "{wallpaper}{color3}")
            ),
            (
                String(repeating: "{wallpaper}", count: n) + "\n",
                PywalTemplateTests.with(d, wallpaper: "{wallpaper}")
            ),
            (String(repeating: "{{color0}} ", count: n) + String(repeating: "{color0} ", count: n) + "\n", d),
            (
                String(repeating: "{c{wallpaper}0} {alpha}", count: n)
                    + String(repeating: " {color0}", count: n),
                PywalTemplateTests.with(d, wallpaper: "olor", alpha: "{color0}")
            ),
            (
                String(repeating: "{x{wallpaper}}", count: n) + "\n",
                PywalTemplateTests.with(d, wallpaper: "}{")
            ),
        ]
    }

    func testRenderIsPywalsLoopOnQuadraticShapes() throws {
        for (i, (text, colors)) in shapes(60).enumerated() {
            let t = try PywalTemplate(Array(text.utf8), name: "t")
            XCTAssertEqual(
                String(decoding: try t.render(colors), as: UTF8.self),
                String(decoding: try t.renderNaive(colors), as: UTF8.self), "shape \(i)")
        }
    }

    func testTheWorkIsLinearInTheTextAndOutput() throws {
        for (i, (text, colors)) in shapes(20_000).enumerated() {
            let t = try PywalTemplate(Array(text.utf8), name: "t")
            var work = 0
            let out = try t.render(colors, work: &work)
            // Each byte is read at most once as a pair's text; labelling again is O(log n) a
            // token, amortised: a small multiple of the sizes, where pywal's loop is n times them.
            XCTAssertLessThan(work, 8 * (text.utf8.count + out.count), "shape \(i)")
        }
    }
}
