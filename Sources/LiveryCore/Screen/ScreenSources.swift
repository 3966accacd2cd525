/// The component paths a client of the sample screen watches (`livery-demo`), and which of them
/// each element's values come from; `SampleScreen.resolve` (`livery preview`) reads the same
/// paths, so that the picture and the window show the same values.
///
/// `Watch` gives every property of a path's type. Some elements read inherited properties their
/// type does not have: the text colour and font of the window, a table row or the bars
/// (`text-color` and `font-*` are `Label`'s), which the cascade hands down to the text inside
/// them. Those are read from the path of that text: the type's part of type `Label` when it has
/// one (`Window/Button/Label#title`), else a `Label` inside it
/// (`Window/TableView/TableViewCell/Label`).
public struct ScreenSources: Sendable {
    /// What to watch: `SampleScreen.paths`, then the text paths, without repeats.
    public let paths: [String]
    /// An element's path → the path of its text, for the paths whose type lacks a property read.
    private let textPaths: [String: String]
    /// The table's path, whose values a row's separator reads.
    private let tablePath: String?

    /// The sources of `SampleScreen.elements` under `schema`.
    /// - Parameter schema: The schema of the daemon's themes; a path it cannot read has no
    ///   text path (its values are those `Watch` gives).
    public init(schema: Schema) {
        var read: [String: Set<String>] = [:]
        for element in SampleScreen.elements { read[element.path, default: []].formUnion(element.properties) }
        var textPaths: [String: String] = [:]
        for path in SampleScreen.paths {
            guard let type = (try? ComponentPath(path, schema: schema))?.nodes.last?.type,
                !read[path, default: []].isSubset(of: schema.properties(of: type))
            else { continue }
            let part = schema.chain(of: type).lazy.compactMap { schema.types[$0] }
                .flatMap(\.parts).first { schema.isType($0.type, kindOf: "Label") }
            textPaths[path] = path + "/" + (part.map { "\($0.type)#\($0.name)" } ?? "Label")
        }
        self.textPaths = textPaths
        var seen = Set<String>()
        paths = (SampleScreen.paths + SampleScreen.paths.compactMap { textPaths[$0] }).filter {
            seen.insert($0).inserted
        }
        tablePath = SampleScreen.elements.first { $0.role == .tableView }?.path
    }

    /// The path of the text inside `path` whose values stand in for the properties `path`'s type
    /// lacks, or nil when its type has every property its elements read.
    public func textPath(of path: String) -> String? { textPaths[path] }

    /// The paths whose values the sheet of `element` reads: its own, its text's, and for a row
    /// the table's.
    public func paths(of element: SampleScreen.Element) -> [String] {
        var out = [element.path]
        if let text = textPaths[element.path] { out.append(text) }
        if element.role == .tableRow, let tablePath { out.append(tablePath) }
        return out
    }

    /// The values `element` shows: those of its own path, and of its text's path the
    /// properties its own path does not have.
    /// - Parameter styles: Values by path, as watched.
    public func style(of element: SampleScreen.Element, in styles: [String: SampleStyle]) -> SampleStyle {
        var style = styles[element.path] ?? SampleStyle()
        if let text = textPaths[element.path], let inner = styles[text] {
            style.values.merge(inner.values) { own, _ in own }
        }
        return style
    }

    /// The values of the table, for a row's separator; nil for any other element.
    public func table(of element: SampleScreen.Element, in styles: [String: SampleStyle]) -> SampleStyle? {
        element.role == .tableRow ? tablePath.flatMap { styles[$0] } : nil
    }
}
