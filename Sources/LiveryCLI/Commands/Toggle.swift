extension Client {
    /// `livery toggle`: switches to the other variant and prints the new theme's id.
    func toggle() throws -> Int32 {
        let id = try call(.toggle).first?.string ?? ""
        output.out(id + "\n")
        return 0
    }
}

extension Client {
    /// `livery dark`, `livery light`: `SetVariant`, and prints the theme's id.
    func setVariant(_ variant: String) throws -> Int32 {
        let id = try call(.setVariant, [.string(variant)]).first?.string ?? ""
        output.out(id + "\n")
        return 0
    }
}
