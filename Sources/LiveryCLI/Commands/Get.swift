extension Client {
    /// `livery get [--json]`: the active theme's id.
    func get() throws -> Int32 {
        let active = try property(.activeTheme).string ?? ""
        if inv.json { printJSON(["theme": active]) } else { output.out(active + "\n") }
        return 0
    }
}
