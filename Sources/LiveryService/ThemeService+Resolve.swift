import Foundation
import LiveryCore
import Synchronization

/// What resolving reads: values of one path, many, a batch, an explanation, within the limits.
extension ThemeService {
    /// Every property of `path`'s type for `app` in `cascade`, as `Watch` and `Changed` carry
    /// them.
    /// - Throws: as `resolve`.
    static func values(of path: String, app: String?, in cascade: Cascade) throws(ServiceError)
        -> [String: Value]
    {
        let pairs = try resolve(path, properties: [], app: app, in: cascade)
        return Dictionary(pairs.map { ($0.property, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every installed theme that can be made active, sorted by id: abstract themes (`abstract:
    /// true`, there only to be inherited) are left out once checked.
    /// Values resolved for one component, with the theme generation they came from: a
    /// collection of (property, value) pairs in the order asked.
    public struct Resolution: RandomAccessCollection, Sendable {
        /// (property, value) pairs in the order asked, each name once.
        public let values: [(property: String, value: Value)]
        /// The compiled theme they were resolved in (`Cascade.generation`): replies cached
        /// under it are valid while `generation` is the same object.
        public let generation: AnyObject & Sendable

        public var startIndex: Int { values.startIndex }
        public var endIndex: Int { values.endIndex }
        public subscript(i: Int) -> (property: String, value: Value) { values[i] }
    }

    /// The active theme's generation (`Cascade.generation`), the key of caches of its answers.

    /// Resolves properties of one component in the active theme.
    /// - Parameters:
    ///   - path: `Type#name.class:state/…`, at most `Limits.pathBytes` bytes and
    ///     `Limits.pathSegments` segments.
    ///   - properties: names; empty for every property of the type; at most
    ///     `Limits.propertiesPerCall`.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: (property, value) pairs in the order asked, and the generation of the theme
    ///   they were resolved in.
    /// - Throws: `ServiceError` `InvalidPath`, `UnknownProperty` or `LimitExceeded`.
    public func resolve(_ path: String, properties: [String], app: String?) throws(ServiceError) -> Resolution
    {
        let c = activeCascade
        return Resolution(
            values: try ThemeService.resolve(path, properties: properties, app: app, in: c),
            generation: c.generation)
    }

    /// Explains how one property of one component was resolved in the active theme.
    /// - Parameters:
    ///   - path: `Type#name.class:state/…`, within the limits of `resolve`.
    ///   - property: One property name.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: Every matching declaration in cascade order, and the value with its origin.
    /// - Throws: as `resolve`.
    public func explain(_ path: String, property: String, app: String?) throws(ServiceError) -> Explanation {
        let c = activeCascade
        try ThemeService.checkLimits(path, properties: [property], app: app)
        let parsed: ComponentPath
        do { parsed = try ComponentPath(path, schema: c.theme.schema) } catch {
            throw ServiceError(.invalidPath, "\(error)")
        }
        do { return try c.explain(parsed, property: property, app: app) } catch {
            throw ServiceError(.unknownProperty, error.description)
        }
    }

    /// Resolves several paths against one snapshot of the active theme, keyed by the paths as
    /// given (for subscriptions).
    /// - Parameters:
    ///   - paths: Component paths, each within the limits of `resolve`.
    ///   - properties: Names asked for every path; empty for every property of each type.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: Per path, each property's value.
    /// - Throws: as `resolve`.
    public func snapshot(paths: [String], properties: [String], app: String?) throws(ServiceError)
        -> StyleSnapshot
    {
        try collect(paths: paths, properties: properties, app: app, skippingUnresolvable: false)
    }

    /// Like `snapshot`, but leaves out the paths that do not resolve in the active theme (for
    /// subscriptions after a switch: a path may name a component type only the old theme had).
    /// - Parameters: as `snapshot`.
    /// - Returns: Per path that resolves, each property's value.
    public func resolvableSnapshot(paths: [String], properties: [String], app: String?) -> StyleSnapshot {
        (try? collect(paths: paths, properties: properties, app: app, skippingUnresolvable: true)) ?? [:]
    }

    /// `snapshot` and `resolvableSnapshot`: every path against one snapshot of the active theme.
    private func collect(paths: [String], properties: [String], app: String?, skippingUnresolvable: Bool)
        throws(ServiceError) -> StyleSnapshot
    {
        let c = activeCascade
        var out: StyleSnapshot = [:]
        for path in paths {
            let pairs: [(property: String, value: Value)]
            do { pairs = try ThemeService.resolve(path, properties: properties, app: app, in: c) } catch {
                if skippingUnresolvable { continue }
                throw error
            }
            out[path] = Dictionary(
                pairs.map { ($0.property, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        return out
    }

    /// Resolves a batch against one snapshot of the active theme, so that a switch cannot fall
    /// between two items.
    /// - Parameters:
    ///   - items: Paths with the properties asked for each, as in `resolve`.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: Per item, (property, value) pairs in the order asked.
    /// - Throws: as `resolve` (the message naming the item), and `LimitExceeded` past
    ///   `Limits.resolveManyItems` items.
    public func resolveMany(_ items: [(path: String, properties: [String])], app: String?)
        throws(ServiceError)
        -> [[(property: String, value: Value)]]
    {
        guard items.count <= Limits.resolveManyItems else {
            throw ServiceError(
                .limitExceeded, "\(items.count) items; ResolveMany takes at most \(Limits.resolveManyItems)")
        }
        let c = activeCascade
        var out: [[(property: String, value: Value)]] = []
        for (i, item) in items.enumerated() {
            do {
                out.append(try ThemeService.resolve(item.path, properties: item.properties, app: app, in: c))
            } catch {
                throw ServiceError(error.kind, "item \(i): \(error.message)")
            }
        }
        return out
    }

    private static func resolve(_ path: String, properties: [String], app: String?, in c: Cascade)
        throws(ServiceError)
        -> [(property: String, value: Value)]
    {
        try checkLimits(path, properties: properties, app: app)
        let parsed: ComponentPath
        do { parsed = try ComponentPath(path, schema: c.theme.schema) } catch {
            throw ServiceError(.invalidPath, "\(error)")
        }
        // A name asked twice is answered once: the reply is a dictionary.
        var seen = Set<String>()
        let unique = properties.filter { seen.insert($0).inserted }
        do { return try c.resolve(parsed, properties: unique, app: app) } catch {
            switch error {
            case .unknownProperty: throw ServiceError(.unknownProperty, error.description)
            case .unknownType: throw ServiceError(.invalidPath, error.description)
            }
        }
    }

    /// The limits the README states for one path and its property list, and the length of each
    /// property name and of the application id (`Limits.identifierBytes`).
    static func checkLimits(_ path: String, properties: [String], app: String?) throws(ServiceError) {
        guard path.utf8.count <= Limits.pathBytes else {
            throw ServiceError(
                .limitExceeded, "path is \(path.utf8.count) bytes; the limit is \(Limits.pathBytes)")
        }
        let segments = path.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
        guard segments <= Limits.pathSegments else {
            throw ServiceError(
                .limitExceeded, "path has \(segments) segments; the limit is \(Limits.pathSegments)")
        }
        guard properties.count <= Limits.propertiesPerCall else {
            throw ServiceError(
                .limitExceeded,
                "\(properties.count) properties; the limit is \(Limits.propertiesPerCall) per call")
        }
        if let app, app.utf8.count > Limits.identifierBytes {
            throw ServiceError(
                .limitExceeded, "application id is longer than \(Limits.identifierBytes) bytes")
        }
        if let long = properties.first(where: { $0.utf8.count > Limits.identifierBytes }) {
            throw ServiceError(
                .limitExceeded,
                "property name is \(long.utf8.count) bytes; the limit is \(Limits.identifierBytes)")
        }
    }

}
