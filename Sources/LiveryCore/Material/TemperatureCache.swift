import Foundation

/// Colour temperature of the hues around a colour, for analogous and complementary colours
/// that look evenly spaced (MCU's `TemperatureCache`, after Ou, Woodcock and Wright's warm-cool
/// model in L*a*b* LCH).
///
/// The 361 colours of the input's chroma and tone at hues 0...360 (both ends included, as MCU
/// has them) and their temperatures are computed once, at initialisation.
public struct TemperatureCache: Sendable {
    /// The colour the others are relative to.
    public let input: Hct
    /// The input's chroma and tone at each whole hue 0...360, index = hue.
    public let hctsByHue: [Hct]
    /// Raw temperatures of `hctsByHue`, then of `input` (index 361).
    private let temperatures: [Double]
    /// Indices into `hctsByHue` + [input], coldest first; equal temperatures keep hue order
    /// with the input last (MCU sorts stably).
    private let orderByTemperature: [Int]

    /// The temperatures around a colour.
    /// - Parameter input: the colour.
    public init(_ input: Hct) {
        self.input = input
        var hcts: [Hct] = []
        hcts.reserveCapacity(361)
        var hue = 0.0
        while hue <= 360.0 {
            hcts.append(.from(hue: hue, chroma: input.chroma, tone: input.tone))
            hue += 1.0
        }
        hctsByHue = hcts
        let all = hcts + [input]
        let temperatures = all.map(TemperatureCache.rawTemperature)
        self.temperatures = temperatures
        orderByTemperature = all.indices.sorted {
            temperatures[$0] != temperatures[$1] ? temperatures[$0] < temperatures[$1] : $0 < $1
        }
    }

    /// `hctsByHue` and the input, coldest first.
    public var hctsByTemp: [Hct] {
        orderByTemperature.map { $0 == hctsByHue.count ? input : hctsByHue[$0] }
    }

    /// The warmest of `hctsByTemp`.
    public var warmest: Hct { hct(at: orderByTemperature[orderByTemperature.count - 1]) }

    /// The coldest of `hctsByTemp`.
    public var coldest: Hct { hct(at: orderByTemperature[0]) }

    private var warmestTemperature: Double { temperatures[orderByTemperature[orderByTemperature.count - 1]] }
    private var coldestTemperature: Double { temperatures[orderByTemperature[0]] }

    private func hct(at index: Int) -> Hct {
        index == hctsByHue.count ? input : hctsByHue[index]
    }

    /// Colours of the input's chroma and tone whose temperatures step evenly around the hue
    /// circle, with the input in the middle (MCU's `analogous`).
    /// - Parameters:
    ///   - count: how many colours to return, the input included.
    ///   - divisions: how many even temperature steps the circle is cut into.
    /// - Returns: `count` colours, cooler-side neighbours first, then the input, then the rest.
    public func analogous(count: Int = 5, divisions: Int = 12) -> [Hct] {
        let startHue = Int(MaterialMath.roundHalfUp(input.hue))
        let startHct = hctsByHue[startHue]
        var lastTemp = relativeTemperature(startHct)
        var allColors = [startHct]

        var absoluteTotalTempDelta = 0.0
        for i in 0..<360 {
            let hue = MaterialMath.sanitizeDegrees(startHue + i)
            let temp = relativeTemperature(hctsByHue[hue])
            absoluteTotalTempDelta += abs(temp - lastTemp)
            lastTemp = temp
        }

        var hueAddend = 1
        let tempStep = absoluteTotalTempDelta / Double(divisions)
        var totalTempDelta = 0.0
        lastTemp = relativeTemperature(startHct)
        while allColors.count < divisions {
            let hue = MaterialMath.sanitizeDegrees(startHue + hueAddend)
            let hct = hctsByHue[hue]
            let temp = relativeTemperature(hct)
            totalTempDelta += abs(temp - lastTemp)

            var indexSatisfied = totalTempDelta >= Double(allColors.count) * tempStep
            var indexAddend = 1
            // Large temperature steps may satisfy several indices with one hue.
            while indexSatisfied && allColors.count < divisions {
                allColors.append(hct)
                indexSatisfied = totalTempDelta >= Double(allColors.count + indexAddend) * tempStep
                indexAddend += 1
            }
            lastTemp = temp
            hueAddend += 1
            if hueAddend > 360 {
                while allColors.count < divisions {
                    allColors.append(hct)
                }
                break
            }
        }

        var answers = [input]
        let increaseHueCount = Int((Double(count - 1) / 2.0).rounded(.down))
        if increaseHueCount >= 1 {
            for i in 1...increaseHueCount {
                answers.insert(allColors[wrapped(-i, allColors.count)], at: 0)
            }
        }
        let decreaseHueCount = count - increaseHueCount - 1
        if decreaseHueCount >= 1 {
            for i in 1...decreaseHueCount {
                answers.append(allColors[wrapped(i, allColors.count)])
            }
        }
        return answers
    }

    private func wrapped(_ index: Int, _ count: Int) -> Int {
        var index = index
        while index < 0 { index += count }
        return index >= count ? index % count : index
    }

    /// The colour of the input's chroma and tone on the other side of the temperature range,
    /// at the complementary relative temperature (MCU's `complement`).
    public var complement: Hct {
        let coldestHue = coldest.hue
        let coldestTemp = coldestTemperature
        let warmestHue = warmest.hue
        let range = warmestTemperature - coldestTemp
        let startHueIsColdestToWarmest = TemperatureCache.isBetween(
            input.hue, coldestHue, warmestHue)
        let startHue = startHueIsColdestToWarmest ? warmestHue : coldestHue
        let endHue = startHueIsColdestToWarmest ? coldestHue : warmestHue
        let directionOfRotation = 1.0
        var smallestError = 1000.0
        var answer = hctsByHue[Int(MaterialMath.roundHalfUp(input.hue))]
        let complementRelativeTemp = 1.0 - inputRelativeTemperature
        // With no range every error is NaN and the answer stays the input's hue, as in MCU.
        var hueAddend = 0.0
        while hueAddend <= 360.0 {
            defer { hueAddend += 1.0 }
            let hue = MaterialMath.sanitizeDegrees(startHue + directionOfRotation * hueAddend)
            if !TemperatureCache.isBetween(hue, startHue, endHue) {
                continue
            }
            let index = Int(MaterialMath.roundHalfUp(hue))
            let relativeTemp = (temperatures[index] - coldestTemp) / range
            let error = abs(complementRelativeTemp - relativeTemp)
            if error < smallestError {
                smallestError = error
                answer = hctsByHue[index]
            }
        }
        return answer
    }

    /// A colour's temperature relative to the coldest (0) and warmest (1) of the input's
    /// chroma and tone; 0.5 when they are all the same.
    /// - Parameter hct: the colour.
    public func relativeTemperature(_ hct: Hct) -> Double {
        let range = warmestTemperature - coldestTemperature
        let differenceFromColdest = TemperatureCache.rawTemperature(hct) - coldestTemperature
        if range == 0.0 {
            return 0.5
        }
        return differenceFromColdest / range
    }

    /// The input's relative temperature.
    public var inputRelativeTemperature: Double {
        relativeTemperature(input)
    }

    /// Whether `angle` lies on the arc from `a` to `b` in increasing degrees, ends included.
    static func isBetween(_ angle: Double, _ a: Double, _ b: Double) -> Bool {
        if a < b {
            return a <= angle && angle <= b
        }
        return a <= angle || angle <= b
    }

    /// Ou, Woodcock and Wright's temperature of a colour: below 0 cool, above 0 warm.
    /// - Parameter color: the colour.
    /// - Returns: −0.5 + 0.02 · C*^1.07 · cos(h° − 50°) in L*a*b* LCH.
    public static func rawTemperature(_ color: Hct) -> Double {
        let lab = ColorMath.lab(color.argb)
        let hue = MaterialMath.sanitizeDegrees(atan2(lab[2], lab[1]) * 180.0 / Double.pi)
        let chroma = ((lab[1] * lab[1]) + (lab[2] * lab[2])).squareRoot()
        return -0.5 + 0.02 * pow(chroma, 1.07)
            * cos(MaterialMath.sanitizeDegrees(hue - 50.0) * Double.pi / 180.0)
    }
}
