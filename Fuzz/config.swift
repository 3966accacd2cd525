import Foundation

// Target: the light/dark configuration (`config.yaml`), parsed by `VariantConfig.parse` (libyaml
// underneath). It must never crash or hang; a configuration it accepts keeps the contract's
// bounds (theme ids valid, a place within ±90°/±180°, times within a day and different), and one
// it refuses says where, at a line and column inside the text.

@_cdecl("LLVMFuzzerTestOneInput")
public func configTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch VariantConfig.parse(text, file: "config.yaml") {
    case .success(let config):
        for id in [config.light, config.dark].compactMap({ $0 }) where !ThemeSource.isValidID(id) {
            fatalError("fuzz: an invalid theme id accepted: \(id)")
        }
        switch config.schedule {
        case .sun(let lat, let lon)?:
            if !(abs(lat) <= 90 && abs(lon) <= 180) { fatalError("fuzz: a place out of bounds") }
        case .times(let light, let dark)?:
            if !(0..<86_400).contains(light) || !(0..<86_400).contains(dark) || light == dark {
                fatalError("fuzz: times out of bounds")
            }
        case nil: break
        }
    case .failure(let errors):
        checkYAMLDiagnostics(errors.diagnostics, in: text, what: "configuration")
    }
    return 0
}
