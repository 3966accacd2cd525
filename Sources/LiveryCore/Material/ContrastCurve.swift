/// The contrast ratio a dynamic colour asks of its background at each contrast level: `low` at -1,
/// `normal` at 0, `medium` at 0.5 and `high` at 1, linear in between (MCU's `ContrastCurve`).
struct ContrastCurve {
    let low: Double
    let normal: Double
    let medium: Double
    let high: Double

    init(_ low: Double, _ normal: Double, _ medium: Double, _ high: Double) {
        self.low = low
        self.normal = normal
        self.medium = medium
        self.high = high
    }

    /// The value at `contrastLevel` (-1...1; levels beyond hold the end values).
    func get(_ contrastLevel: Double) -> Double {
        if contrastLevel <= -1.0 { return low }
        if contrastLevel < 0.0 { return MaterialMath.lerp(low, normal, (contrastLevel - (-1)) / 1) }
        if contrastLevel < 0.5 { return MaterialMath.lerp(normal, medium, (contrastLevel - 0) / 0.5) }
        if contrastLevel < 1.0 { return MaterialMath.lerp(medium, high, (contrastLevel - 0.5) / 0.5) }
        return high
    }
}
