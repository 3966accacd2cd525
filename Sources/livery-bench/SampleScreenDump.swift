import Foundation
import LiveryCore

/// `livery-bench --sample-screen FILE --themes-dir DIR...`: the input of the gallery benchmark's
/// baseline (`bench/gallery/`), written untimed: the sample screen's description (canvas,
/// elements with their roles, paths, frames and titles, the rows, tabs, segments and values) and,
/// for every theme of the search path, its metadata, palette and the values each screen path
/// resolves to, as `livery gallery` resolves them. Colours are sRGB floats `[r, g, b, a]`, so
/// that the baseline draws the very values Livery draws.
/// - Returns: The exit status: 0, or 1 when the file cannot be written.
func dumpSampleScreen(to file: String, searchPath: [String], schema: Schema) -> Int32 {
    let catalog = ThemeCatalog(searchPath: searchPath)
    var themes: [[String: Any]] = []
    for id in catalog.ids {
        var entry: [String: Any] = ["id": id]
        let (theme, diagnostics) = catalog.compile(id, schema: schema)
        if let theme {
            entry["name"] = theme.metadata.name
            entry["variant"] = theme.metadata.variant
            entry["format"] = theme.metadata.format
            entry["palette"] = theme.palette.mapValues { String($0.hex.prefix(7)) }
            do {
                let styles = try SampleScreen.resolve(Cascade(theme: theme))
                entry["styles"] = styles.mapValues { $0.values.mapValues(json) }
            } catch {
                entry["error"] = "\(error)"
            }
        } else {
            entry["error"] =
                diagnostics.first { $0.severity == .error }?.rendered ?? "theme '\(id)' has errors"
        }
        themes.append(entry)
    }
    let screen: [String: Any] = [
        "canvas": ["width": SampleScreen.width, "height": SampleScreen.height],
        "rows": SampleScreen.rows.map { [$0.0, $0.1] as [Any] },
        "tabs": SampleScreen.tabs, "segments": SampleScreen.segments,
        "progress": SampleScreen.progress, "slider-value": SampleScreen.sliderValue,
        "table-frame": frame(SampleScreen.tableFrame),
        "elements": SampleScreen.elements.map { e -> [String: Any] in
            var d: [String: Any] = [
                "id": e.id, "role": e.role.rawValue, "path": e.path, "frame": frame(e.frame), "on": e.isOn,
            ]
            if let title = e.title { d["title"] = title }
            return d
        },
    ]
    do {
        let data = try JSONSerialization.data(
            withJSONObject: ["screen": screen, "themes": themes], options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: file))
    } catch {
        say("livery-bench: cannot write \(file): \(error)")
        return 1
    }
    say("\(file): \(themes.count) themes")
    return 0
}

private func frame(_ f: SampleScreen.Frame) -> [Double] { [f.x, f.y, f.width, f.height] }

/// A value as JSON: a colour `[r, g, b, a]`, a length or number, `{"image": path}` (null path
/// for none), a string or keyword, `{"insets": [t, r, b, l]}`, `{"size": [w, h]}`,
/// `{"duration": s}`.
private func json(_ value: Value) -> Any {
    switch value {
    case .color(let c): [c.red, c.green, c.blue, c.alpha]
    case .image(let path): ["image": path.map { $0 as Any } ?? NSNull()]
    case .length(let v), .number(let v): v
    case .duration(let v): ["duration": v]
    case .keyword(let k): k
    case .string(let s): s
    case .size(let w, let h): ["size": [w, h]]
    case .insets(let t, let r, let b, let l): ["insets": [t, r, b, l]]
    }
}
