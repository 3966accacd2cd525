extension Client {
    /// `livery reload`: the daemon rescans theme directories and overrides.
    func reload() throws -> Int32 {
        _ = try call(.reload)
        return 0
    }
}
