extension Client {
    /// `livery set ID`: validates, activates and saves a theme; prints nothing.
    func set() throws -> Int32 {
        _ = try call(.setTheme, [.string(inv.positional[0])])
        return 0
    }
}
