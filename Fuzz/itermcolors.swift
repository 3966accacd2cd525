import Foundation

// Target: an iTerm2 .itermcolors property list (XML or binary), read through Foundation's PropertyListSerialization, through `fuzzImportedScheme` (common.swift).

let itermcolorsFile = URL(fileURLWithPath: fuzzScratch + "/scheme.itermcolors")

@_cdecl("LLVMFuzzerTestOneInput")
public func itermcolorsTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzImportedScheme(ItermFormat(), file: itermcolorsFile, data, size)
    return 0
}
