/// A popup's integer fields in 8 words and a mask, where eight `Int?` took 16 bytes each: the
/// per-popup cost docs/guarantees.md states (a file may declare a million popups).
struct PopupNumbers: Sendable {
    /// The fields kept here, each a slot of `values`.
    enum Slot: Int {
        case priority, showMs, hideMs, delayMs, minMs, ttlMs, maxShows, duration
    }

    private var values: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Bit `slot` set: that value is there; bit 8: the duration is `forever`.
    private var present: UInt16 = 0
    private static let forever: UInt16 = 1 << 8

    subscript(slot: Slot) -> Int? {
        get { present & Self.bit(slot) == 0 ? nil : value(slot) }
        set {
            if let newValue {
                present |= Self.bit(slot)
                setValue(slot, newValue)
            } else {
                present &= ~Self.bit(slot)
            }
        }
    }

    var duration: DisplayTime? {
        get { present & Self.forever != 0 ? .forever : self[.duration].map(DisplayTime.ms) }
        set {
            present &= ~Self.forever
            switch newValue {
            case .forever?: self[.duration] = nil; present |= Self.forever
            case .ms(let ms)?: self[.duration] = ms
            case nil: self[.duration] = nil
            }
        }
    }

    private static func bit(_ slot: Slot) -> UInt16 { 1 << UInt16(slot.rawValue) }

    private func value(_ slot: Slot) -> Int {
        switch slot {
        case .priority: values.0
        case .showMs: values.1
        case .hideMs: values.2
        case .delayMs: values.3
        case .minMs: values.4
        case .ttlMs: values.5
        case .maxShows: values.6
        case .duration: values.7
        }
    }

    private mutating func setValue(_ slot: Slot, _ value: Int) {
        switch slot {
        case .priority: values.0 = value
        case .showMs: values.1 = value
        case .hideMs: values.2 = value
        case .delayMs: values.3 = value
        case .minMs: values.4 = value
        case .ttlMs: values.5 = value
        case .maxShows: values.6 = value
        case .duration: values.7 = value
        }
    }
}
