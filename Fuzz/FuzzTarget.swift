// libFuzzer entry point: any bytes through load, every strategy, every renderer (Exercise).
// Built by Fuzz/run with Sources/PopsimTestSupport/Exercise.swift against the PopsimCore and
// PopsimReports modules (swiftc -sanitize=fuzzer,address).
// A crash, a sanitizer report or a strategy breaking the engine's rules is a finding; each one
// goes to Fuzz/regressions/ as a file, which `swift test` replays.

import PopsimReports

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let findings = Exercise.everything(Array(UnsafeBufferPointer(start: data, count: size)))
    if let first = findings.first { fatalError("finding: \(first)") }
    return 0
}
