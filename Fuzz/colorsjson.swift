import Foundation

// Target: a pywal or wallust colors.json, read through Foundation's JSONSerialization, through `fuzzImportedScheme` (common.swift).

let colorsjsonFile = URL(fileURLWithPath: fuzzScratch + "/scheme.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func colorsjsonTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzImportedScheme(ColorsJSONFormat(), file: colorsjsonFile, data, size)
    return 0
}
