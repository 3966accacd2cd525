import Foundation
import LiveryCore

/// The CSS of one element's widget, generated from the values of the component path it shows:
/// `livery-demo` loads it into a style provider of that widget (and of the widgets inside it
/// that are no element of their own) at a priority above the GTK theme's, so that every colour
/// the window shows is one Livery published.
///
/// Each sheet starts with a reset of every node of those widgets: no background, border,
/// shadow, outline or text colour of the GTK theme (Adwaita's blue accent, its greys)
/// survives, no transition or animation runs, outlines (focus rings) take the text colour and
/// text takes the colour of the node above it. The rules of the element's role follow, each
/// colour a value of the element's `SampleStyle`; a missing colour reads as `transparent`.
/// Selectors name the widget by its element id (`#tab-bar`), the name `livery-demo` gives it,
/// and the nodes inside by GTK 4's CSS node names (`scale > trough > highlight`, from the
/// "CSS nodes" section of each widget's GTK documentation). A provider of one widget styles
/// only that widget's nodes, so `#window *` reaches no other element's widget.
public enum ElementCSS {
    /// The sheet of `element`'s widget.
    /// - Parameters:
    ///   - element: An element of `SampleScreen.elements`.
    ///   - style: The values the element shows (`ScreenSources.style(of:in:)`).
    ///   - table: For a table row, the table's values (the row draws its separator).
    /// - Returns: CSS for a `GtkCssProvider`.
    public static func css(for element: SampleScreen.Element, style: SampleStyle, table: SampleStyle? = nil)
        -> String
    {
        let id = "#" + element.id
        return reset(id) + "\n" + role(element, id, style, table ?? SampleStyle())
    }

    private static func role(
        _ element: SampleScreen.Element, _ id: String, _ s: SampleStyle, _ table: SampleStyle
    )
        -> String
    {
        switch element.role {
        case .window:
            return """
                \(id) { background-color: \(color(s, "background-color")); color: \(color(s, "text-color")); \(font(s)) }

                """
        case .navigationBar:
            return """
                \(id) { \(background(s, "bar-tint-color")) color: \(color(s, "title-color")); \
                min-height: 44px; padding: 0 8px; border-style: none; \(font(s)) }
                \(id) .title { color: \(color(s, "title-color")); font-weight: 700; }

                """
        case .barButtonItem:
            return """
                \(id) { color: \(css(s.color("title-color") ?? s.color("tint-color"))); \
                min-width: 64px; min-height: 32px; margin: 6px 0; padding: 0; border-style: none; \(font(s)) }

                """
        case .segmentedControl:
            return segmentedControl(id, s)
        case .progressView:
            let bar =
                "min-height: 6px; margin: 0; border-style: none; border-radius: \(px(s.length("corner-radius")));"
            return """
                \(id) { min-height: 6px; padding: 0; }
                \(id) > trough { background-color: \(color(s, "track-tint-color")); \(bar) }
                \(id) > trough > progress { background-color: \(color(s, "progress-tint-color")); \(bar) }

                """
        case .slider:
            return slider(id, s)
        case .toggleSwitch:
            return toggleSwitch(id, s)
        case .activityIndicator:
            let size = s.text("indicator-style") == "large" ? 32.0 : 20.0
            return """
                \(id) { color: \(color(s, "color")); -gtk-icon-size: \(px(size)); opacity: 1; }

                """
        case .tableView:
            return """
                \(id) { background-color: \(color(s, "background-color")); }

                """
        case .tableRow:
            return tableRow(id, s, table)
        case .button:
            return """
                \(id) { \(background(s, "background-color")) color: \(color(s, "title-color")); \
                border-style: none; border-radius: \(px(s.length("corner-radius"))); \
                opacity: \(number(s.length("alpha", 1))); min-height: 32px; padding: 0; \(font(s)) }

                """
        case .overlay:
            return """
                \(id) { background-color: \(color(s, "background-color")); opacity: \(number(s.length("alpha", 1))); }

                """
        case .tabBar:
            // The selected tab: its title, and a bar along its top edge, in tint-color.
            return """
                \(id) { \(background(s, "bar-tint-color")) \(font(s)) }
                \(id) > button { color: \(color(s, "unselected-item-tint-color")); border-style: none; \
                border-top: 4px solid transparent; border-radius: 0; min-height: 48px; margin: 0; padding: 0; }
                \(id) > button:checked { color: \(color(s, "tint-color")); border-top-color: \(color(s, "tint-color")); }

                """
        }
    }

    /// A segmented control: its segments outlined in tint-color, the selected one filled.
    private static func segmentedControl(_ id: String, _ s: SampleStyle) -> String {
        let tint = color(s, "tint-color")
        let radius = s.length("corner-radius")
        // The segments' outer corners follow the control's, inside its 1 px outline.
        let inner = px(max(radius - 1, 0))
        return """
            \(id) { background-color: \(color(s, "background-color")); color: \(color(s, "text-color")); \
            border: 1px solid \(tint); border-radius: \(px(radius)); \(font(s)) }
            \(id) > button { border-style: none; border-radius: 0; min-height: 30px; margin: 0; padding: 0; }
            \(id) > button:first-child { border-radius: \(inner) 0 0 \(inner); }
            \(id) > button:last-child { border-radius: 0 \(inner) \(inner) 0; }
            \(id) > button + button { border-left: 1px solid \(tint); }
            \(id) > button:checked { background-color: \(color(s, "selected-segment-tint-color")); }

            """
    }

    /// A slider: its track either side of the thumb and the thumb.
    private static func slider(_ id: String, _ s: SampleStyle) -> String {
        let track = color(s, "maximum-track-tint-color")
        let bar = "min-height: 4px; margin: 0; border-style: none; border-radius: 2px;"
        return """
            \(id) { min-height: 28px; padding: 0 12px; }
            \(id) > trough { background-color: \(track); \(bar) }
            \(id) > trough > highlight { background-color: \(color(s, "minimum-track-tint-color")); \(bar) }
            \(id) > trough > slider { background-color: \(color(s, "thumb-tint-color")); \
            border: 1px solid \(track); border-radius: 50%; min-width: 24px; min-height: 24px; margin: -11px; }

            """
    }

    /// A switch, off and on.
    private static func toggleSwitch(_ id: String, _ s: SampleStyle) -> String {
        // Off: a clear track and the thumb outlined in tint-color, as UIKit's; on (`:checked`,
        // which the element's switch is when `isOn`): a track of on-tint-color.
        let on = color(s, "on-tint-color")
        return """
            \(id) { background-color: transparent; border: 2px solid \(color(s, "tint-color")); \
            border-radius: 16px; opacity: \(number(s.length("alpha", 1))); }
            \(id):checked { background-color: \(on); border-color: \(on); }
            \(id):not(:checked) > slider { box-shadow: 0 0 0 1px \(color(s, "tint-color")); }
            \(id) > slider { background-color: \(color(s, "thumb-tint-color")); border-style: none; \
            border-radius: 50%; min-width: 24px; min-height: 24px; margin: 2px 0; }
            \(id) > image { color: transparent; -gtk-icon-source: none; }

            """
    }

    /// A table row, with the table's row height and separator.
    private static func tableRow(_ id: String, _ s: SampleStyle, _ table: SampleStyle) -> String {
        let insets = table.insets("separator-insets")
        // The label spans the row inside the separator's insets, its bottom border the
        // separator; its text starts 16 px from the row's edge, or at the inset when larger.
        return """
            \(id) { background-color: \(color(s, "background-color")); color: \(color(s, "text-color")); \
            min-height: \(px(table.length("row-height", 44))); padding: 0; \(font(s)) }
            \(id) > label { margin: 0 \(px(insets.right)) 0 \(px(insets.left)); \
            padding: 0 0 0 \(px(max(16 - insets.left, 0))); border-bottom: 1px solid \(color(table, "separator-color")); }

            """
    }

    // MARK: Pieces

    /// Clears what the GTK theme draws on every node of the element's widgets.
    private static func reset(_ id: String) -> String {
        """
        \(id), \(id) * { transition: none; animation: none; background-color: transparent; \
        background-image: none; border-color: transparent; outline-color: currentColor; box-shadow: none; \
        text-shadow: none; -gtk-icon-shadow: none; filter: none; color: inherit; }
        """
    }

    /// A fill of the colour `property`, under the style's `background-image` stretched over
    /// the whole widget when it has one.
    private static func background(_ s: SampleStyle, _ property: String) -> String {
        var d = "background-color: \(color(s, property));"
        if let path = s.image("background-image") {
            d +=
                " background-image: url(\"\(fileURL(path))\"); background-size: 100% 100%; background-repeat: no-repeat;"
        }
        return d
    }

    /// The style's font: the family, the size in pixels and the weight, those it has.
    private static func font(_ s: SampleStyle) -> String {
        var d: [String] = []
        if let family = s.text("font-family") { d.append("font-family: \(fontFamily(family));") }
        if case .length(let size)? = s.values["font-size"], size > 0 { d.append("font-size: \(px(size));") }
        if let weight = s.text("font-weight").flatMap({ weights[$0] }) { d.append("font-weight: \(weight);") }
        return d.joined(separator: " ")
    }

    /// The schema's `font-weight` keywords as CSS numeric weights (CSS Fonts 4 §2.2).
    static let weights = [
        "thin": 100, "ultralight": 200, "light": 300, "regular": 400, "medium": 500, "semibold": 600,
        "bold": 700, "heavy": 800, "black": 900,
    ]

    /// A family name: CSS's generic families as keywords, any other name as a quoted string.
    static func fontFamily(_ name: String) -> String {
        if ["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"].contains(name) {
            return name
        }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    /// `file://` and the percent-encoded absolute path (RFC 8089), so that no quote, bracket or
    /// space of the path ends the CSS string.
    static func fileURL(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "\"'()\\ ")
        return "file://" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path)
    }

    private static func color(_ s: SampleStyle, _ property: String) -> String { css(s.color(property)) }

    /// `rgba(r, g, b, a)` with 8-bit channels, which GTK draws exactly, or `transparent`.
    static func css(_ c: RGBA?) -> String {
        guard let c else { return "transparent" }
        let alpha = number(Double(RGBA.eightBit(c.alpha)) / 255)
        return "rgba(\(RGBA.eightBit(c.red)), \(RGBA.eightBit(c.green)), \(RGBA.eightBit(c.blue)), \(alpha))"
    }

    private static func px(_ v: Double) -> String { number(v) + "px" }

    /// A number as CSS writes it: no exponent, at most four decimals, within ±1,000,000.
    private static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let rounded = (min(max(v, -1e6), 1e6) * 10_000).rounded() / 10_000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
