/// Column names kept unique the way SQLite compares them (ignoring case), for the tables whose columns come from
/// data: `surveys_wide.csv`'s questions, a records table's columns.
struct ColumnNames {
    private var taken: Set<String>

    /// Names already used (the table's fixed columns).
    init(taken: some Sequence<String>) { self.taken = Set(taken.map { $0.lowercased() }) }

    /// `wanted`, or `renamed(wanted)` when that name is taken, or the first free of that with `~2`, `~3`, …; the
    /// name returned is taken from then on.
    mutating func claim(_ wanted: String, renamed: (String) -> String) -> String {
        let base = taken.contains(wanted.lowercased()) ? renamed(wanted) : wanted
        var chosen = base
        var n = 2
        while taken.contains(chosen.lowercased()) {
            chosen = base + "~" + String(n)
            n += 1
        }
        taken.insert(chosen.lowercased())
        return chosen
    }
}
