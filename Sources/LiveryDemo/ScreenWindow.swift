import CGtk
import Foundation
import LiveryCore

/// The GTK 4 window of the sample screen: one widget per element of `SampleScreen.elements`,
/// named by the element's id (`gtk_widget_set_name`), each with a CSS provider of its own whose
/// sheet `ElementCSS` generates from the values of the component path it shows.
///
/// Layout follows the elements' frames: the window is `SampleScreen.width` × `height` pixels;
/// elements are placed at their frames on a `GtkFixed`, bar button items go into the navigation
/// bar's `GtkHeaderBar` and table rows into the table's `GtkListBox`. From the first overlay
/// element on, elements are children of a `GtkOverlay` over everything before them, in list
/// order, so that the screen is stacked back to front as the list says.
@MainActor
public final class ScreenWindow {
    /// One element's widget and the provider of its sheet.
    private struct ElementView {
        let element: SampleScreen.Element
        let widget: Widget
        let provider: UnsafeMutablePointer<GtkCssProvider>
        var css = ""
    }

    /// Where each element's values come from.
    public let sources: ScreenSources
    /// The values watched, by component path.
    public private(set) var styles: [String: SampleStyle] = [:]
    /// The widgets, once built. Each provider's one reference is this object's, so that a
    /// late update after the window closed reloads a provider no widget uses any more.
    private var views: [ElementView] = []
    /// The names images are shown through.
    private var images = ImageNames()

    /// A window not built yet: `apply(_:)` keeps values until `build(onClose:)`.
    /// - Parameter sources: The paths watched, and which of them each element shows.
    public init(sources: ScreenSources) { self.sources = sources }

    /// Takes new values of some paths and restyles the widgets that show them.
    /// - Parameter update: Path → property → value; the properties not given keep their values.
    public func apply(_ update: [String: [String: Value]]) {
        var renewed = false
        for (path, values) in update {
            styles[path, default: SampleStyle()].values.merge(values) { _, new in new }
            // An image published again is read again, even under the same path (an image edited
            // in place): GTK takes two `url()`s of one file for the same image and would keep
            // showing the old picture, so each publication of it is shown through a new name.
            for case .image(let image?) in values.values {
                images.renew(image)
                renewed = true
            }
        }
        // A renewed image's old name is gone: every widget showing it takes the new one.
        restyle(renewed ? nil : Set(update.keys))
    }

    /// Removes the names `images` made; call when the window has closed.
    public func removeImageNames() { images.removeAll() }

    /// Builds the window and shows it. Call once, after `gtk_init_check`.
    /// - Parameter onClose: Called when the window is asked to close; it closes then.
    public func build(onClose: @escaping @MainActor () -> Void) {
        precondition(views.isEmpty, "the window is built once")
        let window = Self.makeWindow(onClose: onClose)
        for (element, widget) in Self.makeWidgets(in: window) {
            gtk_widget_set_name(widget, element.id)
            views.append(ElementView(element: element, widget: widget, provider: gtk_css_provider_new()))
        }
        attachProviders()
        restyle(nil)
        gtk_window_present(window.as(GtkWindow.self))
    }

    /// An undecorated window of the canvas's size, which GTK destroys when it is closed.
    private static func makeWindow(onClose: @escaping @MainActor () -> Void) -> Widget {
        let window = gtk_window_new()!
        gtk_window_set_title(window.as(GtkWindow.self), "Livery")
        gtk_window_set_decorated(window.as(GtkWindow.self), 0)
        gtk_window_set_resizable(window.as(GtkWindow.self), 0)
        gtk_window_set_default_size(
            window.as(GtkWindow.self), Int32(SampleScreen.width), Int32(SampleScreen.height))
        let closeRequest: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let onClose = ClosureBox<@MainActor () -> Void>.unretained(data).function
            MainActor.assumeIsolated { onClose() }
            return 0  // let the window close
        }
        connect(
            window, "close-request", trampoline: unsafeBitCast(closeRequest, to: GCallback.self),
            box: ClosureBox(onClose))
        return window
    }

    /// Every element's widget, in `SampleScreen.elements`' order, laid out in `window` (the
    /// window element's widget is the window itself).
    private static func makeWidgets(in window: Widget) -> [(SampleScreen.Element, Widget)] {
        let layers = gtk_overlay_new()!
        let fixed = gtk_fixed_new()!
        gtk_overlay_set_child(layers.opaque, fixed)
        gtk_window_set_child(window.as(GtkWindow.self), layers)
        var overlaid = false
        var navigationBar: Widget?
        var table: Widget?
        var out: [(SampleScreen.Element, Widget)] = []
        for element in SampleScreen.elements {
            let widget: Widget
            switch element.role {
            case .window:
                widget = window
            case .barButtonItem:
                guard let bar = navigationBar else {
                    preconditionFailure("\(element.id) comes before its bar")
                }
                widget = gtk_button_new_with_label(element.title ?? "")
                let start = element.frame.x < SampleScreen.width / 2
                (start ? gtk_header_bar_pack_start : gtk_header_bar_pack_end)(bar.opaque, widget)
            case .tableRow:
                guard let table else { preconditionFailure("\(element.id) comes before its table") }
                widget = row(element)
                gtk_list_box_append(table.opaque, widget)
                if element.isOn { gtk_list_box_select_row(table.opaque, widget.as(GtkListBoxRow.self)) }
            default:
                widget = makeWidget(element)
                widget.setSize(element.frame.width, element.frame.height)
                // An overlay and the elements after it lie over those before, as the GtkOverlay's
                // children, placed by their margins.
                overlaid = overlaid || element.role == .overlay
                if overlaid {
                    gtk_widget_set_halign(widget, GTK_ALIGN_START)
                    gtk_widget_set_valign(widget, GTK_ALIGN_START)
                    gtk_widget_set_margin_start(widget, Int32(element.frame.x.rounded()))
                    gtk_widget_set_margin_top(widget, Int32(element.frame.y.rounded()))
                    gtk_overlay_add_overlay(layers.opaque, widget)
                } else {
                    gtk_fixed_put(fixed.as(GtkFixed.self), widget, element.frame.x, element.frame.y)
                }
                if element.role == .navigationBar { navigationBar = widget }
                if element.role == .tableView { table = widget }
            }
            out.append((element, widget))
        }
        return out
    }

    /// A list row with the element's title, its text starting at the row's leading edge.
    private static func row(_ element: SampleScreen.Element) -> Widget {
        let row = gtk_list_box_row_new()!
        let label = gtk_label_new(element.title)!
        gtk_label_set_xalign(label.opaque, 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_list_box_row_set_child(row.as(GtkListBoxRow.self), label)
        return row
    }

    /// The widget of an element placed at its frame (not the window, a bar button item or a row).
    private static func makeWidget(_ element: SampleScreen.Element) -> Widget {
        switch element.role {
        case .navigationBar:
            let bar = gtk_header_bar_new()!
            gtk_header_bar_set_show_title_buttons(bar.opaque, 0)
            let title = gtk_label_new(element.title)!
            gtk_widget_add_css_class(title, "title")
            gtk_header_bar_set_title_widget(bar.opaque, title)
            return bar
        case .segmentedControl:
            return toggleRow(SampleScreen.segments)
        case .progressView:
            let bar = gtk_progress_bar_new()!
            gtk_progress_bar_set_fraction(bar.opaque, SampleScreen.progress)
            return bar
        case .slider:
            let scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.01)!
            gtk_scale_set_draw_value(scale.as(GtkScale.self), 0)
            gtk_range_set_value(scale.as(GtkRange.self), SampleScreen.sliderValue)
            return scale
        case .toggleSwitch:
            let toggle = gtk_switch_new()!
            gtk_switch_set_active(toggle.opaque, element.isOn ? 1 : 0)
            gtk_widget_set_valign(toggle, GTK_ALIGN_START)
            return toggle
        case .activityIndicator:
            let spinner = gtk_spinner_new()!
            gtk_spinner_start(spinner.opaque)
            return spinner
        case .tableView:
            let list = gtk_list_box_new()!
            gtk_list_box_set_selection_mode(list.opaque, GTK_SELECTION_SINGLE)
            return list
        case .button:
            return button(element)
        case .overlay:
            let dim = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
            gtk_widget_set_can_target(dim, 0)  // clicks go to what it dims
            return dim
        case .tabBar:
            return toggleRow(SampleScreen.tabs)
        case .window, .barButtonItem, .tableRow:
            preconditionFailure("\(element.role) is not placed at its frame")
        }
    }

    /// A button in the state its path names: `:highlighted` pressed, `:selected` a toggle button
    /// that is on, `:disabled` insensitive.
    private static func button(_ element: SampleScreen.Element) -> Widget {
        let states =
            element.path.split(separator: "/").last.map { $0.split(separator: ":").dropFirst() } ?? []
        let button: Widget
        if states.contains("selected") {
            button = gtk_toggle_button_new_with_label(element.title)
            gtk_toggle_button_set_active(button.as(GtkToggleButton.self), 1)
        } else {
            button = gtk_button_new_with_label(element.title)
        }
        if states.contains("highlighted") { gtk_widget_set_state_flags(button, GTK_STATE_FLAG_ACTIVE, 0) }
        if states.contains("disabled") { gtk_widget_set_sensitive(button, 0) }
        return button
    }

    /// A row of equal toggle buttons of which one is on, the first: segments or tabs.
    private static func toggleRow(_ titles: [String]) -> Widget {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_set_homogeneous(box.as(GtkBox.self), 1)
        var first: Widget?
        for title in titles {
            let toggle = gtk_toggle_button_new_with_label(title)!
            gtk_widget_set_hexpand(toggle, 1)
            if let first {
                gtk_toggle_button_set_group(toggle.as(GtkToggleButton.self), first.as(GtkToggleButton.self))
            } else {
                first = toggle
                gtk_toggle_button_set_active(toggle.as(GtkToggleButton.self), 1)
            }
            gtk_box_append(box.as(GtkBox.self), toggle)
        }
        return box
    }

    /// Adds each element's provider to its widget and to the widgets inside it that are no
    /// element of their own (a header bar's boxes and title, a scale's trough and slider, a
    /// button's label): GTK 4 applies a widget's providers to that widget's nodes only.
    private func attachProviders() {
        let elementWidgets = Set(views.map(\.widget))
        for view in views {
            let provider = view.provider
            let id = view.element.id
            let parsingError:
                @convention(c) (gpointer?, OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void =
                    {
                        _, section, error, data in
                        let report = ClosureBox<(String) -> Void>.unretained(data).function
                        let location = section.map { gtk_css_section_get_start_location($0).pointee }
                        let at = location.map { "\($0.lines + 1):\($0.line_chars + 1): " } ?? ""
                        report(at + (error.map { String(cString: $0.pointee.message) } ?? "unknown error"))
                    }
            connect(
                provider, "parsing-error", trampoline: unsafeBitCast(parsingError, to: GCallback.self),
                box: ClosureBox<(String) -> Void> { message in
                    warn("the CSS of #\(id): \(message)")
                })
            var pending = [view.widget]
            while let widget = pending.popLast() {
                gtk_style_context_add_provider(
                    gtk_widget_get_style_context(widget), OpaquePointer(provider),
                    UInt32(GTK_STYLE_PROVIDER_PRIORITY_USER))
                pending += widget.children.filter { !elementWidgets.contains($0) }
            }
        }
    }

    /// Reloads the sheets of the widgets that show any of `paths` (nil: all); GTK restyles and
    /// redraws what changed.
    private func restyle(_ paths: Set<String>?) {
        for k in views.indices {
            let element = views[k].element
            if let paths, paths.isDisjoint(with: sources.paths(of: element)) { continue }
            var style = sources.style(of: element, in: styles)
            for (property, value) in style.values {
                if case .image(let image?) = value { style.values[property] = .image(images.name(of: image)) }
            }
            let css = ElementCSS.css(
                for: element, style: style,
                table: sources.table(of: element, in: styles))
            guard css != views[k].css else { continue }
            views[k].css = css
            gtk_css_provider_load_from_data(views[k].provider, css, -1)
        }
    }
}

/// Each image's current name: a symbolic link to it in a directory of the process's own, made
/// anew each time the image is published, so that its `url()` differs from the last one and GTK
/// loads the file again.
private struct ImageNames {
    private var directory: String?
    private var links: [String: String] = [:]
    private var count = 0

    /// The name `image` is shown through (itself until it is first renewed).
    func name(of image: String) -> String { links[image] ?? image }

    /// Gives `image` a new name; on failure (no temporary directory) it keeps its own.
    mutating func renew(_ image: String) {
        if directory == nil {
            var template = Array((NSTemporaryDirectory() + "/livery-demo-XXXXXX").utf8CString)
            if template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil {
                directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        guard let directory else { return }
        count += 1
        let link = directory + "/\(count)-" + (image as NSString).lastPathComponent
        guard symlink(image, link) == 0 else { return }
        if let old = links[image] { unlink(old) }
        links[image] = link
    }

    /// Removes every link and the directory.
    mutating func removeAll() {
        for link in links.values { unlink(link) }
        links = [:]
        if let directory { rmdir(directory) }
        directory = nil
    }
}
