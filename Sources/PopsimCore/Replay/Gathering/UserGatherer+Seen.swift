/// What a gatherer's rows said besides their users' actions: the values `set` rows gave each
/// state variable and the rows each mapped event matched — what `TraceWarning` checks the
/// catalog's conditions and the mapping against.
extension UserGatherer {
    @inline(never)
    mutating func countSetting(_ id: Int32) {
        guard id >= 0 else { return }
        if Int(id) >= settingRows.count { settingRows += Array(repeating: 0, count: Int(id) + 1 - settingRows.count) }
        settingRows[Int(id)] &+= 1
    }

    @inline(never)
    mutating func countEvent(_ e: Int32) {
        if Int(e) >= mappedRows.count { mappedRows += Array(repeating: 0, count: Int(e) + 1 - mappedRows.count) }
        mappedRows[Int(e)] &+= 1
    }

    /// The settings its rows made, each with its rows: (variable, value, rows).
    public var settingsSeen: [(variable: Int, value: StateValue, rows: Int)] {
        settingRows.enumerated().compactMap { id, n in
            guard n > 0, let s = values.setting(Int32(id)) else { return nil }
            return (s.0.index, s.1, n)
        }
    }
}
