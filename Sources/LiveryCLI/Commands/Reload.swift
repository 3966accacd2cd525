extension Client {
    /// `livery reload`: the daemon rescans theme directories and overrides.
    func reload() throws -> Int32 {
        _ = try call("Reload")
        return 0
    }
}
