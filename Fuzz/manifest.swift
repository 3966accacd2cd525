import Foundation

// Target: a plugin manifest (`plugin.yaml`), parsed by `PluginManifest.parse` (libyaml
// underneath). It must never crash or hang; a manifest it accepts keeps the contract's bounds
// (every timeout positive and at most the maximum, every export with a template and an output,
// every hook with a command), and one it refuses says where, at a line and column inside the
// text (lines counted as YAML counts them: LF, CR, CR LF, NEL, LS, PS).

@_cdecl("LLVMFuzzerTestOneInput")
public func manifestTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch PluginManifest.parse(text, file: "plugin.yaml") {
    case .success(let manifest):
        for e in manifest.exports {
            if (e.template.isEmpty && e.repository == nil) || e.output.isEmpty {
                fatalError("fuzz: an export without template (or repository) or output")
            }
            if !(e.timeout > 0 && e.timeout <= PluginManifest.maximumTimeout) {
                fatalError("fuzz: an export's timeout \(e.timeout) is out of bounds")
            }
        }
        for f in manifest.formats {
            if f.match.isEmpty || f.run.isEmpty || f.match.contains(where: { $0.isEmpty || $0.contains("/") })
            {
                fatalError("fuzz: a format without patterns or a command, or a pattern with '/'")
            }
        }
        for h in manifest.hooks {
            if h.run.isEmpty { fatalError("fuzz: a hook without a command") }
            if !(h.timeout > 0 && h.timeout <= PluginManifest.maximumTimeout) {
                fatalError("fuzz: a hook's timeout \(h.timeout) is out of bounds")
            }
        }
    case .failure(let errors):
        checkYAMLDiagnostics(errors.diagnostics, in: text, what: "manifest")
    }
    return 0
}
