extension Client {
    /// `livery toggle`: switches to the other variant and prints the new theme's id.
    func toggle() throws -> Int32 {
        let id = try call("Toggle").first?.string ?? ""
        output.out(id + "\n")
        return 0
    }
}
