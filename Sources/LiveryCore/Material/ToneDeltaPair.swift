/// Which of a ``ToneDeltaPair``'s roles is lighter, darker, or nearer to or farther from the
/// surfaces (lighter in light schemes, darker in dark ones).
enum TonePolarity {
    case darker, lighter, nearer, farther
}

/// Two dynamic colours whose tones must differ by at least `delta`, `roleA` on the `polarity`
/// side of `roleB` (MCU's `ToneDeltaPair`). With `stayTogether` both leave the 50...59 zone
/// together, so that the pair never straddles it.
struct ToneDeltaPair {
    let roleA: DynamicColor
    let roleB: DynamicColor
    let delta: Double
    let polarity: TonePolarity
    let stayTogether: Bool
}
