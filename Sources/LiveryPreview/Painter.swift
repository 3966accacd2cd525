import CCairo
import Foundation
import LiveryCore

/// Draws the elements of `SampleScreen` on one Cairo context, in canvas points. Solid fills of
/// whole points stay exact colours at integral scales (the tests count them); text and curves
/// are antialiased.
struct Painter {
    let cr: OpaquePointer
    let styles: [String: SampleStyle]
    private(set) var warnings: [PreviewError] = []
    private var images: [String: LoadedImage?] = [:]

    init(cr: OpaquePointer, styles: [String: SampleStyle]) {
        self.cr = cr
        self.styles = styles
    }

    typealias Frame = SampleScreen.Frame

    mutating func draw(_ element: SampleScreen.Element, rowIndex: Int) {
        let style = styles[element.path] ?? SampleStyle()
        let f = element.frame
        switch element.role {
        case .window: break  // filled edge to edge before scaling
        case .navigationBar:
            if !image(style.image("background-image"), in: f) {
                fill(f, style.color("bar-tint-color") ?? .white)
            }
            text(
                element.title ?? "", in: f, color: style.color("title-color") ?? .black, style: style,
                size: 17,
                bold: true, align: .center)
        case .barButtonItem:
            text(
                element.title ?? "", in: f,
                color: style.color("title-color") ?? style.color("tint-color") ?? .black,
                style: style, size: nil, bold: false, align: .center)
        case .segmentedControl: segmentedControl(f, style)
        case .progressView:
            let radius = style.length("corner-radius")
            fill(f, style.color("track-tint-color") ?? .gray, radius: radius)
            var done = f
            done.width = (f.width * SampleScreen.progress).rounded()
            fill(done, style.color("progress-tint-color") ?? .black, radius: radius)
        case .slider: slider(f, style)
        case .toggleSwitch: toggleSwitch(f, style, on: element.isOn)
        case .activityIndicator: activityIndicator(f, style)
        case .tableView: fill(f, style.color("background-color") ?? .white)
        case .tableRow: tableRow(element, style, index: rowIndex)
        case .button: button(element, style)
        case .overlay:
            fill(f, (style.color("background-color") ?? .black).withAlpha(clampedAlpha(style)))
        case .tabBar: tabBar(f, style)
        }
    }

    // MARK: Elements

    private mutating func segmentedControl(_ f: Frame, _ style: SampleStyle) {
        let radius = style.length("corner-radius")
        fill(f, style.color("background-color") ?? .white, radius: radius)
        let segments = SampleScreen.segmentFrames(in: f)
        let tint = style.color("tint-color") ?? .black
        if let selected = segments.first {
            fill(
                inset(selected, 2), style.color("selected-segment-tint-color") ?? .white,
                radius: max(radius - 2, 0))
        }
        for (k, segment) in segments.enumerated() {
            text(
                SampleScreen.segments[k], in: segment,
                color: k == 0 ? tint : (style.color("text-color") ?? .black), style: style, size: 13,
                bold: k == 0,
                align: .center)
        }
        // The outline in the tint, inside the frame (iOS 6's tinted segmented control).
        stroke(inset(f, 0.5), tint, width: 1, radius: radius)
    }

    private func slider(_ f: Frame, _ style: SampleStyle) {
        let track = Frame(x: f.x, y: (f.y + f.height / 2 - 2).rounded(), width: f.width, height: 4)
        let split = (f.x + f.width * SampleScreen.sliderValue).rounded()
        fill(
            Frame(x: split, y: track.y, width: track.x + track.width - split, height: 4),
            style.color("maximum-track-tint-color") ?? .gray, radius: 2)
        fill(
            Frame(x: track.x, y: track.y, width: split - track.x, height: 4),
            style.color("minimum-track-tint-color") ?? .black, radius: 2)
        let d = min(f.height, 28)
        circle(
            center: (split, f.y + f.height / 2), radius: d / 2,
            fill: style.color("thumb-tint-color") ?? .white,
            outline: RGBA.black.withAlpha(0.15))
    }

    private func toggleSwitch(_ f: Frame, _ style: SampleStyle, on: Bool) {
        group(alpha: clampedAlpha(style)) {
            let r = f.height / 2
            if on {
                fill(f, style.color("on-tint-color") ?? .black, radius: r)
            } else {
                // Off: the track's outline in the tint (iOS 6's switch), the window showing through.
                stroke(inset(f, 1), style.color("tint-color") ?? .gray, width: 2, radius: r - 1)
            }
            let thumb = r - 2
            circle(
                center: (on ? f.x + f.width - r : f.x + r, f.y + r), radius: thumb,
                fill: style.color("thumb-tint-color") ?? .white, outline: RGBA.black.withAlpha(0.15))
        }
    }

    private func activityIndicator(_ f: Frame, _ style: SampleStyle) {
        let color = style.color("color") ?? .gray
        let large = style.text("indicator-style") == "large"
        let outer = (large ? 1.0 : 0.7) * min(f.width, f.height) / 2
        let cx = f.x + f.width / 2
        let cy = f.y + f.height / 2
        let spokes = 12
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cr, large ? 3 : 2.5)
        for k in 0..<spokes {
            let angle = Double(k) * 2 * Double.pi / Double(spokes) - Double.pi / 2
            set(color.withAlpha(1 - Double(k) / Double(spokes) * 0.85))
            cairo_move_to(cr, cx + cos(angle) * outer * 0.5, cy + sin(angle) * outer * 0.5)
            cairo_line_to(cr, cx + cos(angle) * outer, cy + sin(angle) * outer)
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }

    private func tableRow(_ element: SampleScreen.Element, _ style: SampleStyle, index: Int) {
        let table = styles["Window/TableView"] ?? SampleStyle()
        let frames = SampleScreen.rowFrames(rowHeight: table.length("row-height", 44))
        guard index < frames.count else { return }
        let f = frames[index]
        if let background = style.color("background-color") { fill(f, background) }
        text(
            element.title ?? "", in: Frame(x: f.x + 16, y: f.y, width: f.width - 32, height: f.height),
            color: style.color("text-color") ?? .black, style: style, size: nil, bold: false, align: .left)
        // The separator under the row, one point high, inset as the table says.
        let insets = table.insets("separator-insets")
        if let separator = table.color("separator-color") {
            fill(
                Frame(
                    x: f.x + insets.left, y: f.y + f.height - 1,
                    width: max(f.width - insets.left - insets.right, 0),
                    height: 1), separator)
        }
    }

    private mutating func button(_ element: SampleScreen.Element, _ style: SampleStyle) {
        let f = element.frame
        let radius = style.length("corner-radius")
        let alpha = clampedAlpha(style)
        // The whole button fades at its `alpha`, not each part (a group painted at it).
        if alpha < 1 { cairo_push_group(cr) }
        cairo_save(cr)
        roundedRectangle(f, radius)
        cairo_clip(cr)
        if !image(style.image("background-image"), in: f), let background = style.color("background-color") {
            fill(f, background)
        }
        cairo_restore(cr)
        text(
            element.title ?? "", in: f, color: style.color("title-color") ?? .black, style: style, size: nil,
            bold: false, align: .center)
        if alpha < 1 {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, alpha)
        }
    }

    private mutating func tabBar(_ f: Frame, _ style: SampleStyle) {
        if !image(style.image("background-image"), in: f) {
            fill(f, style.color("bar-tint-color") ?? .white)
        }
        let selected = style.color("tint-color") ?? .black
        let unselected = style.color("unselected-item-tint-color") ?? .gray
        for (k, tab) in SampleScreen.tabFrames(in: f).enumerated() {
            let color = k == 0 ? selected : unselected
            // The tab's icon: a square of whole points, so that its colour is exact in the picture.
            fill(
                Frame(x: (tab.x + tab.width / 2 - 12).rounded(), y: tab.y + 6, width: 24, height: 24), color,
                radius: 6)
            text(
                SampleScreen.tabs[k], in: Frame(x: tab.x, y: tab.y + 32, width: tab.width, height: 18),
                color: color,
                style: style, size: 10, bold: k == 0, align: .center)
        }
    }

    // MARK: Images

    /// Draws the image at `path` stretched over `f`; false when there is none or it cannot be drawn.
    private mutating func image(_ path: String?, in f: Frame) -> Bool {
        guard let path, let loaded = load(path) else { return false }
        if let why = loaded.draw(cr, in: f) {
            // Said once, and not tried again for the other elements that name it.
            warnings.append(.image(path, why))
            images[path] = .some(nil)
            return false
        }
        return true
    }

    private mutating func load(_ path: String) -> LoadedImage? {
        if let cached = images[path] { return cached }
        do {
            let loaded = try LoadedImage(path: path)
            images[path] = loaded
            return loaded
        } catch {
            warnings.append(error)
            images[path] = .some(nil)
            return nil
        }
    }

    // MARK: Primitives

    enum Alignment { case left, center }

    private func set(_ c: RGBA) { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha) }

    private func clampedAlpha(_ style: SampleStyle) -> Double { min(max(style.length("alpha", 1), 0), 1) }

    private func inset(_ f: Frame, _ d: Double) -> Frame {
        Frame(x: f.x + d, y: f.y + d, width: max(f.width - 2 * d, 0), height: max(f.height - 2 * d, 0))
    }

    /// Runs `body` into a group painted at `alpha` (the component's `alpha`: the whole of it, not
    /// each part, fades).
    private func group(alpha: Double, _ body: () -> Void) {
        guard alpha < 1 else { return body() }
        cairo_push_group(cr)
        body()
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, alpha)
    }

    private func roundedRectangle(_ f: Frame, _ radius: Double) {
        let r = min(max(radius, 0), min(f.width, f.height) / 2)
        guard r > 0 else { return cairo_rectangle(cr, f.x, f.y, f.width, f.height) }
        cairo_new_sub_path(cr)
        cairo_arc(cr, f.x + f.width - r, f.y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, f.x + f.width - r, f.y + f.height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, f.x + r, f.y + f.height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, f.x + r, f.y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    func fill(_ f: Frame, _ color: RGBA, radius: Double = 0) {
        roundedRectangle(f, radius)
        set(color)
        cairo_fill(cr)
    }

    private func stroke(_ f: Frame, _ color: RGBA, width: Double, radius: Double) {
        roundedRectangle(f, radius)
        set(color)
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }

    private func circle(center: (Double, Double), radius: Double, fill color: RGBA, outline: RGBA) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, center.0, center.1, radius, 0, 2 * Double.pi)
        set(color)
        cairo_fill_preserve(cr)
        set(outline)
        cairo_set_line_width(cr, 0.5)
        cairo_stroke(cr)
    }

    /// Draws one line of text in the element's inherited font (`font-family`, `font-size`,
    /// `font-weight`), Cairo's toy text through fontconfig, clipped to `f`.
    private func text(
        _ s: String, in f: Frame, color: RGBA, style: SampleStyle, size: Double?, bold: Bool, align: Alignment
    ) {
        guard !s.isEmpty else { return }
        let window = styles["Window"] ?? SampleStyle()
        let family = style.text("font-family") ?? window.text("font-family") ?? "sans-serif"
        let weight = style.text("font-weight") ?? window.text("font-weight") ?? "regular"
        let heavy = bold || ["semibold", "bold", "heavy", "black"].contains(weight)
        let points = size ?? min(max(style.length("font-size", window.length("font-size", 15)), 1), 200)
        cairo_save(cr)
        cairo_rectangle(cr, f.x, f.y, f.width, f.height)
        cairo_clip(cr)
        cairo_select_font_face(
            cr, family, CAIRO_FONT_SLANT_NORMAL, heavy ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, points)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, s, &extents)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let x = align == .center ? f.x + (f.width - extents.x_advance) / 2 : f.x
        let y = f.y + (f.height + font.ascent - font.descent) / 2
        cairo_move_to(cr, x, y)
        set(color)
        cairo_show_text(cr, s)
        cairo_restore(cr)
    }
}
