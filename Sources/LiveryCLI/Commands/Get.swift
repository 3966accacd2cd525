extension Client {
    /// `livery get [--variant] [--json]`: the active theme's id, or its variant.
    func get() throws -> Int32 {
        if inv.variant {
            let variant = try property(.variant).string ?? ""
            if inv.json { printJSON(["variant": variant]) } else { output.out(variant + "\n") }
            return 0
        }
        let active = try property(.activeTheme).string ?? ""
        if inv.json { printJSON(["theme": active]) } else { output.out(active + "\n") }
        return 0
    }
}
