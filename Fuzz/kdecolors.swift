import Foundation

// Target: a KDE .colors file (INI), through `fuzzImportedScheme` (common.swift).

let kdecolorsFile = URL(fileURLWithPath: fuzzScratch + "/scheme.colors")

@_cdecl("LLVMFuzzerTestOneInput")
public func kdecolorsTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzImportedScheme(KDEColorsFormat(), file: kdecolorsFile, data, size)
    return 0
}
