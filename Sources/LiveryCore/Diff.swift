/// Resolved values of several components: path → property → value.
public typealias StyleSnapshot = [String: [String: Value]]

/// Differences between two snapshots of the same paths and properties.
public enum StyleDiff {
    /// The values of `new` that differ from `old` (or are missing there), grouped by path; paths
    /// with no change are left out. Values that disappeared are not reported: a subscription's
    /// properties are fixed, so every property present before is present after.
    /// - Parameters:
    ///   - old: The values last sent.
    ///   - new: The values now.
    /// - Returns: Per changed path, only its changed properties.
    public static func changes(from old: StyleSnapshot, to new: StyleSnapshot) -> StyleSnapshot {
        var out: StyleSnapshot = [:]
        for (path, values) in new {
            let before = old[path] ?? [:]
            var changed: [String: Value] = [:]
            for (property, value) in values where before[property] != value { changed[property] = value }
            if !changed.isEmpty { out[path] = changed }
        }
        return out
    }
}
