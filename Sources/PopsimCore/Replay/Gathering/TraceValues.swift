/// The texts and settings of a trace's rows, each kept once: what `PackedEntry.value` points at.
/// A screen, a button or a `set` value read a million times is one String.
///
/// Contract: ids count from 0 in the order values are first seen; `byteCount` is what the table
/// holds, for the memory plan.
///
/// Its tables sit in one box, shared by copies until one of them changes (a user handed out holds
/// a copy: copying the eight arrays and tables cost ~480 instructions, and as much to let go).
public struct TraceValues: Sendable {
    /// What it holds.
    struct Table {
        private var texts: [String] = []
        private var textIndex = NameTable()
        private var settings: [(VariableID, StateValue)] = []
        /// Per setting, its `set` action, made once through the vocabulary (`ActionKind.action`).
        private var settingActions: [Action?] = []
        private var settingIndex = NameTable()
        /// A setting's key: the variable's index (4 bytes), then the value's text.
        private var key: [UInt8] = []
        /// Settings by the `name=value` text a row wrote them as (a second row of it is one lookup).
        private var written = NameTable()
        private(set) var byteCount = 0

        var isEmpty: Bool { texts.isEmpty && settings.isEmpty }

        func text(_ id: Int32) -> String? {
            id >= 0 && Int(id) < texts.count ? texts[Int(id)] : nil
        }

        func settingAction(_ id: Int32) -> Action? {
            id >= 0 && Int(id) < settingActions.count ? settingActions[Int(id)] : nil
        }

        func setting(_ id: Int32) -> (VariableID, StateValue)? {
            id >= 0 && Int(id) < settings.count ? settings[Int(id)] : nil
        }

        @inline(__always)
        func settingVariable(_ id: Int32) -> Int32? {
            id >= 0 && Int(id) < settings.count ? Int32(truncatingIfNeeded: settings[Int(id)].0.index) : nil
        }

        mutating func intern(bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            let next = Int32(texts.count)
            if let id = textIndex.insert(bytes, id: next) { return id }
            texts.append(String(decoding: bytes, as: UTF8.self))
            byteCount += bytes.count + 48
            return next
        }

        mutating func intern(_ text: String) -> Int32 {
            var text = text
            return text.withUTF8 { intern(bytes: $0) }
        }

        mutating func intern(setting variable: VariableID, raw: UnsafeBufferPointer<UInt8>, make: () -> StateValue?) -> Int32? {
            key.removeAll(keepingCapacity: true)
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: variable.index).littleEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: raw)
            let next = Int32(settings.count)
            let found = key.withUnsafeBufferPointer { settingIndex.lookup($0) }
            if let found { return found }
            guard let value = make() else { return nil }
            key.withUnsafeBufferPointer { _ = settingIndex.insert($0, id: next) }
            settings.append((variable, value))
            settingActions.append(ActionKind.set.action(.state([(variable, value)]), then: []))
            byteCount += key.count + 64
            return next
        }

        @inline(__always)
        func setting(written text: UnsafeBufferPointer<UInt8>) -> Int32? { written.lookup(text) }

        mutating func remember(written text: UnsafeBufferPointer<UInt8>, as id: Int32) {
            written.insert(text, id: id)
            byteCount += text.count + 24
        }

        mutating func carry(_ entry: PackedEntry, from old: TraceValues) -> PackedEntry {
            var e = entry
            if e.holdsSetting, let setting = old.setting(e.value) {
                var raw = TraceValues.raw(setting.1)
                e.value = raw.withUTF8 { intern(setting: setting.0, raw: $0) { setting.1 } } ?? -1
            } else if let text = old.text(e.value) {
                e.value = intern(text)
            }
            return e
        }
    }

    /// The table, behind a constant pointer (a class's `var` is checked for exclusive access on
    /// every use). `@unchecked Sendable`, audited: copy-on-write, as an Array's own storage — it
    /// is changed only through `table()`, when no other value holds the box, so no two threads
    /// ever touch one that is changing (a user handed to another thread holds a copy).
    private final class Box: @unchecked Sendable {
        let table: UnsafeMutablePointer<Table>
        init(_ t: Table) {
            table = .allocate(capacity: 1)
            table.initialize(to: t)
        }
        deinit {
            table.deinitialize(count: 1)
            table.deallocate()
        }
    }

    private var box = Box(Table())

    public init() {}

    /// The table to change: its own box first, if another value holds this one.
    @inline(__always)
    private mutating func table() -> UnsafeMutablePointer<Table> {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.table.pointee) }
        return box.table
    }

    public var byteCount: Int { box.table.pointee.byteCount }
    public var isEmpty: Bool { box.table.pointee.isEmpty }

    public func text(_ id: Int32) -> String? { box.table.pointee.text(id) }

    /// The `set` action of setting `id`.
    public func settingAction(_ id: Int32) -> Action? { box.table.pointee.settingAction(id) }

    public func setting(_ id: Int32) -> (VariableID, StateValue)? { box.table.pointee.setting(id) }

    /// The variable of setting `id`, without a copy of its value (a row's hot path).
    @inline(__always)
    func settingVariable(_ id: Int32) -> Int32? { box.table.pointee.settingVariable(id) }

    /// The id of a text given as bytes.
    public mutating func intern(bytes: UnsafeBufferPointer<UInt8>) -> Int32 { table().pointee.intern(bytes: bytes) }

    public mutating func intern(_ text: String) -> Int32 { table().pointee.intern(text) }

    /// The id of the setting of `variable` to the value `raw` reads as; the value is made once,
    /// by `make`, the first time (nil: `raw` is not a value of the variable's type).
    public mutating func intern(setting variable: VariableID, raw: UnsafeBufferPointer<UInt8>, make: () -> StateValue?) -> Int32? {
        table().pointee.intern(setting: variable, raw: raw, make: make)
    }

    /// The setting a row's `name=value` text was read as before, if it was.
    @inline(__always)
    public func setting(written text: UnsafeBufferPointer<UInt8>) -> Int32? { box.table.pointee.setting(written: text) }

    /// Remembers that `text` reads as setting `id`.
    public mutating func remember(written text: UnsafeBufferPointer<UInt8>, as id: Int32) { table().pointee.remember(written: text, as: id) }

    /// `entry` with its value taken from `old` into this table.
    public mutating func carry(_ entry: PackedEntry, from old: TraceValues) -> PackedEntry { table().pointee.carry(entry, from: old) }

    /// A setting's value as a trace writes it (what `intern(setting:raw:make:)` reads back).
    public static func raw(_ value: StateValue) -> String {
        switch value {
        case .string(let s): s
        case .integer(let n): String(n)
        case .boolean(let b): b ? "true" : "false"
        }
    }
}
