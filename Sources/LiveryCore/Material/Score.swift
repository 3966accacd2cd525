/// Ranks an image's colours for use as a theme's source colour (MCU's `Score`): a colour
/// scores by how much of the image lies within 15° of its hue (the "excited proportion") and
/// by its chroma, then colours are picked best first, as far apart in hue as can still give
/// `desired` of them (90° down to 15°).
public enum Score {
    static let targetChroma = 48.0
    static let weightProportion = 0.7
    static let weightChromaAbove = 0.3
    static let weightChromaBelow = 0.1
    static let cutoffChroma = 5.0
    static let cutoffExcitedProportion = 0.01

    /// The colours best suited as a theme's source, best first.
    ///
    /// Colours are visited in ascending ARGB order (as MCU's C++ `std::map` does) and equal
    /// scores keep that order, so the ranking depends on nothing but the input.
    /// - Parameters:
    ///   - colorsToPopulation: opaque ARGB colours and how many pixels have each.
    ///   - desired: the most colours to return.
    ///   - fallbackColorARGB: returned alone when no colour is suitable (Google Blue).
    ///   - filter: whether to drop near-greys (chroma < 5) and hues with 1% or less of the
    ///     image within 15°.
    /// - Returns: 1...`desired` colours.
    public static func score(
        _ colorsToPopulation: [UInt32: Int], desired: Int = 4,
        fallbackColorARGB: UInt32 = 0xff42_85f4, filter: Bool = true
    ) -> [UInt32] {
        let entries = colorsToPopulation.sorted { $0.key < $1.key }
        var colorsHct: [Hct] = []
        colorsHct.reserveCapacity(entries.count)
        var huePopulation = [Int](repeating: 0, count: 360)
        var populationSum = 0.0
        for (argb, population) in entries {
            let hct = Hct(argb: argb)
            colorsHct.append(hct)
            huePopulation[Int(hct.hue.rounded(.down))] += population
            populationSum += Double(population)
        }

        // Hues with more of the image within 15° get a larger proportion.
        var hueExcitedProportions = [Double](repeating: 0.0, count: 360)
        for hue in 0..<360 {
            let proportion = Double(huePopulation[hue]) / populationSum
            for i in (hue - 14)..<(hue + 16) {
                hueExcitedProportions[MaterialMath.sanitizeDegrees(i)] += proportion
            }
        }

        var scored: [(hct: Hct, score: Double, order: Int)] = []
        for (order, hct) in colorsHct.enumerated() {
            let hue = MaterialMath.sanitizeDegrees(Int(MaterialMath.roundHalfUp(hct.hue)))
            let proportion = hueExcitedProportions[hue]
            if filter && (hct.chroma < cutoffChroma || proportion <= cutoffExcitedProportion) {
                continue
            }
            let proportionScore = proportion * 100.0 * weightProportion
            let chromaWeight = hct.chroma < targetChroma ? weightChromaBelow : weightChromaAbove
            let chromaScore = (hct.chroma - targetChroma) * chromaWeight
            scored.append((hct, proportionScore + chromaScore, order))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.order < $1.order }

        var chosen: [Hct] = []
        for differenceDegrees in stride(from: 90, through: 15, by: -1) {
            chosen.removeAll(keepingCapacity: true)
            for entry in scored {
                let tooClose = chosen.contains {
                    MaterialMath.differenceDegrees(entry.hct.hue, $0.hue) < Double(differenceDegrees)
                }
                if !tooClose {
                    chosen.append(entry.hct)
                }
                if chosen.count >= desired { break }
            }
            if chosen.count >= desired { break }
        }
        return chosen.isEmpty ? [fallbackColorARGB] : chosen.map(\.argb)
    }
}
