/// The sample screen of the UIAppearance example Livery's model comes from (a navigation bar
/// with bar button items, a segmented control, a progress view, a slider, switches, an activity
/// indicator, a table, a button in each state, an overlay and a tab bar): which
/// component path is drawn where, and which of its properties the drawing reads. `livery preview`
/// draws it with Cairo and `livery-demo` builds it from GTK widgets; both read this one
/// description, so that the picture and the window cannot drift apart.
///
/// Frames are in points of a canvas `SampleScreen.width` × `SampleScreen.height` (a phone's
/// portrait screen), origin top left, y down. A renderer scales the whole canvas to its output size.
public enum SampleScreen {
    /// Canvas width in points.
    public static let width = 360.0
    /// Canvas height in points.
    public static let height = 640.0

    /// A rectangle on the canvas, in points.
    public struct Frame: Sendable, Equatable {
        public var x, y, width, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        /// The frame moved by (`dx`, `dy`) points.
        public func offset(_ dx: Double, _ dy: Double) -> Frame {
            Frame(x: x + dx, y: y + dy, width: width, height: height)
        }
    }

    /// What an element shows; a renderer draws each role its own way.
    public enum Role: String, Sendable, CaseIterable {
        /// The whole canvas: `background-color`, and the inherited font.
        case window
        /// The bar at the top: `bar-tint-color` fill, title in `title-color`.
        case navigationBar
        /// A bar button item: its title in `title-color` (the bar's `tint-color` when none).
        case barButtonItem
        /// Three segments, the first selected: `background-color` track, `selected-segment-tint-color`
        /// selected segment, `tint-color` outline, `text-color` titles.
        case segmentedControl
        /// A bar at 60 %: `track-tint-color` track, `progress-tint-color` progress.
        case progressView
        /// A slider at 40 %: `minimum-track-tint-color` left of the thumb,
        /// `maximum-track-tint-color` right of it, `thumb-tint-color` thumb.
        case slider
        /// A switch: `on-tint-color` track when on (`selected` state), `thumb-tint-color` thumb.
        case toggleSwitch
        /// A spinner in `color`.
        case activityIndicator
        /// A list: `background-color`, rows `row-height` tall, `separator-color` lines inset by
        /// `separator-insets`.
        case tableView
        /// One row of the list: `background-color`, its title in `text-color`.
        case tableRow
        /// A button: `background-image` (else `background-color`), `corner-radius`,
        /// title in `title-color`, `alpha`.
        case button
        /// A layer over part of the screen: `background-color` at `alpha`.
        case overlay
        /// The bar at the bottom: `bar-tint-color` fill, selected tab in `tint-color`, the others
        /// in `unselected-item-tint-color`.
        case tabBar
    }

    /// One drawn component.
    public struct Element: Sendable, Equatable {
        /// A name unique on the screen (`button-highlighted`), for tests and widget names.
        public var id: String
        public var role: Role
        /// The component path whose values the element shows (`Window/NavigationBar/BarButtonItem`).
        public var path: String
        public var frame: Frame
        /// The text the element shows, if any (a title, a row's label).
        public var title: String?
        /// Whether the element is on (a switch), selected (a row, a tab) or the like.
        public var isOn: Bool

        public init(
            _ id: String, _ role: Role, _ path: String, _ frame: Frame, title: String? = nil,
            isOn: Bool = false
        ) {
            (self.id, self.role, self.path, self.frame, self.title, self.isOn) = (
                id, role, path, frame, title, isOn
            )
        }

        /// The properties the element's drawing reads, in the order a renderer uses them.
        public var properties: [String] { SampleScreen.properties(of: role) }
    }

    /// The properties each role reads (every one is in `themes/schema.json`).
    public static func properties(of role: Role) -> [String] {
        switch role {
        case .window: ["background-color", "text-color", "font-family", "font-size", "font-weight"]
        case .navigationBar:
            ["bar-tint-color", "background-image", "title-color", "tint-color", "font-family"]
        case .barButtonItem: ["title-color", "tint-color", "font-family", "font-size"]
        case .segmentedControl:
            [
                "background-color", "selected-segment-tint-color", "tint-color", "text-color",
                "corner-radius",
                "font-family", "font-size",
            ]
        case .progressView: ["track-tint-color", "progress-tint-color", "corner-radius"]
        case .slider: ["maximum-track-tint-color", "minimum-track-tint-color", "thumb-tint-color"]
        case .toggleSwitch: ["on-tint-color", "thumb-tint-color", "tint-color", "alpha"]
        case .activityIndicator: ["color", "indicator-style"]
        case .tableView: ["background-color", "row-height", "separator-color", "separator-insets"]
        case .tableRow: ["background-color", "text-color", "font-family", "font-size"]
        case .button:
            [
                "background-image", "background-color", "corner-radius", "title-color", "alpha",
                "font-family",
                "font-size", "font-weight",
            ]
        case .overlay: ["background-color", "alpha"]
        case .tabBar:
            ["bar-tint-color", "background-image", "tint-color", "unselected-item-tint-color", "font-family"]
        }
    }

    /// The table's rows: titles, and which one is selected.
    public static let rows = [("Wi-Fi", false), ("Bluetooth", true), ("Notifications", false)]
    /// The tab bar's tabs; the first is selected.
    public static let tabs = ["Home", "Search", "Library", "Settings"]
    /// The segmented control's segments; the first is selected.
    public static let segments = ["Day", "Week", "Month"]
    /// The progress view's progress, 0 to 1.
    public static let progress = 0.6
    /// The slider's value, 0 to 1.
    public static let sliderValue = 0.4
    /// Height of the table in points; rows are stacked from its top at the theme's `row-height`,
    /// as many as fit.
    public static let tableFrame = Frame(x: 0, y: 212, width: width, height: 140)

    /// Every element, back to front (the overlay after what it covers, the bars last).
    public static let elements: [Element] = {
        var e: [Element] = [
            Element("window", .window, "Window", Frame(x: 0, y: 0, width: width, height: height))
        ]
        e.append(
            Element(
                "navigation-bar", .navigationBar, "Window/NavigationBar",
                Frame(x: 0, y: 0, width: width, height: 44), title: "Livery"))
        e.append(
            Element(
                "bar-button-edit", .barButtonItem, "Window/NavigationBar/BarButtonItem",
                Frame(x: 8, y: 6, width: 64, height: 32), title: "Edit"))
        e.append(
            Element(
                "bar-button-add", .barButtonItem, "Window/NavigationBar/BarButtonItem",
                Frame(x: width - 72, y: 6, width: 64, height: 32), title: "Add"))
        e.append(
            Element(
                "segmented-control", .segmentedControl, "Window/SegmentedControl",
                Frame(x: 16, y: 60, width: width - 32, height: 32)))
        e.append(
            Element(
                "progress-view", .progressView, "Window/ProgressView",
                Frame(x: 16, y: 110, width: width - 32, height: 6)
            ))
        e.append(
            Element("slider", .slider, "Window/Slider", Frame(x: 16, y: 128, width: width - 32, height: 28)))
        e.append(
            Element(
                "switch-on", .toggleSwitch, "Window/Switch:selected",
                Frame(x: 16, y: 168, width: 52, height: 32),
                isOn: true))
        e.append(
            Element("switch-off", .toggleSwitch, "Window/Switch", Frame(x: 84, y: 168, width: 52, height: 32))
        )
        e.append(
            Element(
                "activity-indicator", .activityIndicator, "Window/ActivityIndicatorView",
                Frame(x: width - 52, y: 168, width: 32, height: 32)))
        e.append(Element("table", .tableView, "Window/TableView", tableFrame))
        for (title, selected) in rows {
            e.append(
                Element(
                    "row-" + title.lowercased().filter(\.isLetter), .tableRow,
                    "Window/TableView/TableViewCell" + (selected ? ":selected" : ""), tableFrame,
                    title: title,
                    isOn: selected))
        }
        let buttonWidth = (width - 48) / 2
        for (k, state) in ["normal", "highlighted", "selected", "disabled"].enumerated() {
            let frame = Frame(
                x: 16 + Double(k % 2) * (buttonWidth + 16), y: 368 + Double(k / 2) * 44, width: buttonWidth,
                height: 32)
            e.append(
                Element(
                    "button-" + state, .button, "Window/Button" + (state == "normal" ? "" : ":" + state),
                    frame,
                    title: state.prefix(1).uppercased() + state.dropFirst()))
        }
        // The overlay dims a card drawn on the window below it: a row, a button, the window's colour.
        e.append(
            Element(
                "overlay-button", .button, "Window/Button",
                Frame(x: 16, y: 488, width: buttonWidth, height: 32),
                title: "Behind"))
        e.append(
            Element("overlay", .overlay, "Window/Overlay", Frame(x: 0, y: 468, width: width, height: 104)))
        e.append(
            Element(
                "tab-bar", .tabBar, "Window/TabBar", Frame(x: 0, y: height - 56, width: width, height: 56)))
        return e
    }()

    /// The distinct component paths of the screen, in drawing order: what a client watches.
    public static let paths: [String] = {
        var seen = Set<String>()
        return elements.map(\.path).filter { seen.insert($0).inserted }
    }()

    /// The frames of the table's rows, from the table's top at `rowHeight` points each, those
    /// that fit in the table.
    public static func rowFrames(rowHeight: Double) -> [Frame] {
        let h = max(rowHeight, 1)
        var frames: [Frame] = []
        for k in rows.indices {
            let y = tableFrame.y + Double(k) * h
            guard y + h <= tableFrame.y + tableFrame.height + 0.5 else { break }
            frames.append(Frame(x: tableFrame.x, y: y, width: tableFrame.width, height: h))
        }
        return frames
    }

    /// The frames of the tab bar's tabs inside `bar`, equal widths.
    public static func tabFrames(in bar: Frame) -> [Frame] {
        let w = bar.width / Double(tabs.count)
        return tabs.indices.map { Frame(x: bar.x + Double($0) * w, y: bar.y, width: w, height: bar.height) }
    }

    /// The frames of the segmented control's segments inside `control`, equal widths.
    public static func segmentFrames(in control: Frame) -> [Frame] {
        let w = control.width / Double(segments.count)
        return segments.indices.map {
            Frame(x: control.x + Double($0) * w, y: control.y, width: w, height: control.height)
        }
    }
}

/// The values one element shows, by property name: read from a `Cascade` (`livery preview`) or
/// from `Watch` and `Changed` (`livery-demo`), with typed accessors that fall back when a value is
/// missing or of another type.
public struct SampleStyle: Sendable, Equatable {
    public var values: [String: Value]

    public init(_ values: [String: Value] = [:]) { self.values = values }

    /// The colour of `property`, or nil when it is not a colour.
    public func color(_ property: String) -> RGBA? {
        if case .color(let c) = values[property] { return c }
        return nil
    }

    /// The length or number of `property` in points, or `fallback`.
    public func length(_ property: String, _ fallback: Double = 0) -> Double {
        switch values[property] {
        case .length(let v), .number(let v): v.isFinite ? v : fallback
        default: fallback
        }
    }

    /// The image path of `property`, or nil for `none`.
    public func image(_ property: String) -> String? {
        if case .image(let p) = values[property] { return p }
        return nil
    }

    /// The string or keyword of `property`, or nil.
    public func text(_ property: String) -> String? {
        switch values[property] {
        case .string(let s), .keyword(let s): s
        default: nil
        }
    }

    /// The insets of `property` (top, right, bottom, left), zero when none.
    public func insets(_ property: String) -> (top: Double, right: Double, bottom: Double, left: Double) {
        if case .insets(let t, let r, let b, let l) = values[property] { return (t, r, b, l) }
        return (0, 0, 0, 0)
    }
}

extension SampleScreen {
    /// Every element's values under `cascade`, by component path, as a client watching
    /// `ScreenSources.paths` sees them: the properties of the path's type from the path, the
    /// others its elements read (text colour and font) from its text's path.
    /// - Parameters:
    ///   - cascade: The theme's cascade.
    ///   - app: The application id whose `@app` blocks apply, if any.
    /// - Returns: One `SampleStyle` per path of `paths`, holding the properties its elements read.
    /// - Throws: `Cascade.Failure` when the theme's schema lacks a type or property of the screen
    ///   (a theme that `@component`-redefines nothing never does).
    public static func resolve(_ cascade: Cascade, app: String? = nil) throws(Cascade.Failure)
        -> [String: SampleStyle]
    {
        let schema = cascade.theme.schema
        let sources = ScreenSources(schema: schema)
        var wanted: [String: [String]] = [:]
        for element in elements {
            for p in element.properties where !(wanted[element.path]?.contains(p) ?? false) {
                wanted[element.path, default: []].append(p)
            }
        }
        func parse(_ text: String) throws(Cascade.Failure) -> ComponentPath {
            do { return try ComponentPath(text, schema: schema) } catch { throw .unknownType(text) }
        }
        var styles: [String: SampleStyle] = [:]
        for (text, properties) in wanted {
            let path = try parse(text)
            let own = Set(schema.properties(of: path.nodes.last!.type))
            let textPath = try sources.textPath(of: text).map { t throws(Cascade.Failure) in try parse(t) }
            // The path's own properties in one resolve, the rest in one of its text's path.
            let fromText = textPath == nil ? [] : properties.filter { !own.contains($0) }
            let fromPath = properties.filter { !fromText.contains($0) }
            var values: [String: Value] = [:]
            // (An empty list would ask for every property of the type.)
            if !fromPath.isEmpty {
                for (name, value) in try cascade.resolve(path, properties: fromPath, app: app) {
                    values[name] = value
                }
            }
            if let textPath, !fromText.isEmpty {
                for (name, value) in try cascade.resolve(textPath, properties: fromText, app: app) {
                    values[name] = value
                }
            }
            styles[text] = SampleStyle(values)
        }
        return styles
    }
}
