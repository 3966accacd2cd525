import Foundation
import LiveryCore
import Synchronization

/// `config.yaml` (the light and dark themes and the schedule, `VariantConfig`), the one reader of
/// it in the service: parsed when its file's identity (`SystemCalls.fileIdentity`: size, times,
/// inode) differs from the last parse's, so the `Problems` read of every switch, the variant
/// policy and the scheduler's look each minute cost a `stat` while the file is unchanged.
public final class VariantConfigFile: Sendable {
    /// The file; nil when the service has none.
    public let path: String?
    private let last = Mutex<(identity: String, loaded: Result<VariantConfig, VariantConfig.Errors>?)?>(nil)

    /// The file at `path` (nil: none); nothing is read until asked.
    public init(path: String?) { self.path = path }

    /// The file's contents: nil when there is no file, else the parsed config or its errors.
    public func current() -> Result<VariantConfig, VariantConfig.Errors>? {
        guard let path else { return nil }
        let identity = SystemCalls.fileIdentity(path)
        if let hit = last.withLock({ $0 }), hit.identity == identity { return hit.loaded }
        let loaded = VariantConfig.load(path)
        last.withLock { $0 = (identity, loaded) }
        return loaded
    }

    /// The config when the file parses; an empty one when it is missing or has errors.
    public var valid: VariantConfig {
        if case .success(let config)? = current() { return config }
        return VariantConfig()
    }

    /// Whether the file exists and has errors (its light and dark themes are then not used).
    public var isBroken: Bool {
        if case .failure? = current() { return true }
        return false
    }

    /// The problems of the file, shown in `Problems` until they are fixed: its errors, and a
    /// light or dark theme it names that `catalog` does not have installed.
    func problems(installed catalog: ThemeCatalog) -> [String] {
        guard let path, let loaded = current() else { return [] }
        switch loaded {
        case .failure(let e):
            return e.diagnostics.map { $0.description } + [
                "\(path) has errors: its light and dark themes are not used"
            ]
        case .success(let config):
            return ["light", "dark"].compactMap { variant in
                guard let id = config.theme(for: variant), !catalog.isInstalled(id) else { return nil }
                return "\(path) names '\(id)' as the \(variant) theme, but no theme '\(id)' is installed"
            }
        }
    }
}
