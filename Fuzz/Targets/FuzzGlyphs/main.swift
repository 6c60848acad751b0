import FuzzDriver

/// The function libFuzzer calls with each input (also under this name, should libFuzzer's own main be linked).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzGlyphs(start, count) }

fuzzMain(testOneInput)
