#if !compiler(>=6.2)
/// Before Swift 6.2 every metatype is sendable and the standard library has no
/// `SendableMetatype`: this empty protocol lets `Strategy` and `SweepAxis` say the same on the
/// compilers `Package.swift` accepts (6.0 on).
public protocol SendableMetatype {}
#endif
