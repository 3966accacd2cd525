/// Resolved values of several components: path → property → value.
public typealias StyleSnapshot = [String: [String: Value]]

/// Differences between two snapshots of the same paths and properties.
public enum StyleDiff {
    /// The values of `new` that differ from `old` (or are missing there), grouped by path; paths
    /// with no change are left out. Values that disappeared are not reported: a subscription's
    /// properties are fixed, so every property present before is present after.
    /// An image named in `editedImages` counts as changed even when its path is the same, since
    /// its file changed on disk.
    /// - Parameters:
    ///   - old: The values last sent.
    ///   - new: The values now.
    ///   - editedImages: Absolute paths of images whose files changed since `old`.
    /// - Returns: Per changed path, only its changed properties.
    public static func changes(from old: StyleSnapshot, to new: StyleSnapshot, editedImages: Set<String> = [])
        -> StyleSnapshot
    {
        var out: StyleSnapshot = [:]
        for (path, values) in new {
            let before = old[path] ?? [:]
            var changed: [String: Value] = [:]
            for (property, value) in values where before[property] != value || edited(value, editedImages) {
                changed[property] = value
            }
            if !changed.isEmpty { out[path] = changed }
        }
        return out
    }

    private static func edited(_ value: Value, _ images: Set<String>) -> Bool {
        guard !images.isEmpty, case .image(let path?) = value else { return false }
        return images.contains(path)
    }
}
