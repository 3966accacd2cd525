/// Xiaolin Wu's colour quantizer (MCU's `QuantizerWu`): a 32×32×32 histogram of the opaque
/// colours with cumulative moments, cut recursively into boxes of least variance.
///
/// Sums are exact integers (as MCU's TypeScript keeps them in doubles, without the 32-bit
/// overflow of its Java version on large images); each box's colour is its mean, rounded half
/// up.
public enum QuantizerWu {
    static let indexBits = 5
    static let sideLength = 33
    static let totalSize = 35937

    /// Up to `maxColors` colours standing for the opaque pixels of `pixels`.
    /// - Parameters:
    ///   - pixels: ARGB pixels; translucent ones are ignored.
    ///   - maxColors: the most colours to return.
    /// - Returns: opaque ARGB colours, in the order the boxes were cut.
    public static func quantize(_ pixels: [UInt32], maxColors: Int) -> [UInt32] {
        guard maxColors > 0 else { return [] }
        var cube = Cube()
        cube.constructHistogram(QuantizerMap.quantize(pixels))
        cube.computeMoments()
        let count = cube.createBoxes(maxColors)
        return cube.createResult(count)
    }

    @inline(__always)
    static func index(_ r: Int, _ g: Int, _ b: Int) -> Int {
        (r << (indexBits * 2)) + (r << (indexBits + 1)) + r + (g << indexBits) + g + b
    }

    struct Box {
        var r0 = 0, r1 = 0, g0 = 0, g1 = 0, b0 = 0, b1 = 0, vol = 0
    }

    enum Direction { case red, green, blue }

    /// The histogram and its cumulative moments, and the boxes cut from them.
    struct Cube {
        var weights = [Int](repeating: 0, count: totalSize)
        var momentsR = [Int](repeating: 0, count: totalSize)
        var momentsG = [Int](repeating: 0, count: totalSize)
        var momentsB = [Int](repeating: 0, count: totalSize)
        var moments = [Double](repeating: 0, count: totalSize)
        var cubes: [Box] = []

        mutating func constructHistogram(_ countByColor: [UInt32: Int]) {
            let bitsToRemove = 8 - indexBits
            for (pixel, count) in countByColor {
                let red = ColorMath.red(pixel)
                let green = ColorMath.green(pixel)
                let blue = ColorMath.blue(pixel)
                let i = index(
                    (red >> bitsToRemove) + 1, (green >> bitsToRemove) + 1, (blue >> bitsToRemove) + 1)
                weights[i] += count
                momentsR[i] += count * red
                momentsG[i] += count * green
                momentsB[i] += count * blue
                moments[i] += Double(count * (red * red + green * green + blue * blue))
            }
        }

        mutating func computeMoments() {
            for r in 1..<sideLength {
                var area = [Int](repeating: 0, count: sideLength)
                var areaR = area
                var areaG = area
                var areaB = area
                var area2 = [Double](repeating: 0, count: sideLength)
                for g in 1..<sideLength {
                    var line = 0
                    var lineR = 0
                    var lineG = 0
                    var lineB = 0
                    var line2 = 0.0
                    for b in 1..<sideLength {
                        let i = index(r, g, b)
                        line += weights[i]
                        lineR += momentsR[i]
                        lineG += momentsG[i]
                        lineB += momentsB[i]
                        line2 += moments[i]
                        area[b] += line
                        areaR[b] += lineR
                        areaG[b] += lineG
                        areaB[b] += lineB
                        area2[b] += line2
                        let previous = index(r - 1, g, b)
                        weights[i] = weights[previous] + area[b]
                        momentsR[i] = momentsR[previous] + areaR[b]
                        momentsG[i] = momentsG[previous] + areaG[b]
                        momentsB[i] = momentsB[previous] + areaB[b]
                        moments[i] = moments[previous] + area2[b]
                    }
                }
            }
        }

        mutating func createBoxes(_ maxColors: Int) -> Int {
            cubes = [Box](repeating: Box(), count: maxColors)
            var volumeVariance = [Double](repeating: 0, count: maxColors)
            cubes[0].r1 = sideLength - 1
            cubes[0].g1 = sideLength - 1
            cubes[0].b1 = sideLength - 1
            var generatedColorCount = maxColors
            var next = 0
            var i = 1
            while i < maxColors {
                if cut(next, i) {
                    volumeVariance[next] = cubes[next].vol > 1 ? variance(cubes[next]) : 0.0
                    volumeVariance[i] = cubes[i].vol > 1 ? variance(cubes[i]) : 0.0
                } else {
                    volumeVariance[next] = 0.0
                    i -= 1
                }
                next = 0
                var temp = volumeVariance[0]
                if i >= 1 {
                    for j in 1...i where volumeVariance[j] > temp {
                        temp = volumeVariance[j]
                        next = j
                    }
                }
                if temp <= 0.0 {
                    generatedColorCount = i + 1
                    break
                }
                i += 1
            }
            return generatedColorCount
        }

        func createResult(_ colorCount: Int) -> [UInt32] {
            var colors: [UInt32] = []
            for cube in cubes.prefix(colorCount) {
                let weight = volume(cube, weights)
                if weight > 0 {
                    let w = Double(weight)
                    let r = Int(MaterialMath.roundHalfUp(Double(volume(cube, momentsR)) / w))
                    let g = Int(MaterialMath.roundHalfUp(Double(volume(cube, momentsG)) / w))
                    let b = Int(MaterialMath.roundHalfUp(Double(volume(cube, momentsB)) / w))
                    colors.append(ColorMath.argb(red: r, green: g, blue: b))
                }
            }
            return colors
        }

        func variance(_ cube: Box) -> Double {
            let dr = Double(volume(cube, momentsR))
            let dg = Double(volume(cube, momentsG))
            let db = Double(volume(cube, momentsB))
            let xx =
                moments[index(cube.r1, cube.g1, cube.b1)]
                - moments[index(cube.r1, cube.g1, cube.b0)]
                - moments[index(cube.r1, cube.g0, cube.b1)]
                + moments[index(cube.r1, cube.g0, cube.b0)]
                - moments[index(cube.r0, cube.g1, cube.b1)]
                + moments[index(cube.r0, cube.g1, cube.b0)]
                + moments[index(cube.r0, cube.g0, cube.b1)]
                - moments[index(cube.r0, cube.g0, cube.b0)]
            let hypotenuse = dr * dr + dg * dg + db * db
            return xx - hypotenuse / Double(volume(cube, weights))
        }

        mutating func cut(_ oneIndex: Int, _ twoIndex: Int) -> Bool {
            var one = cubes[oneIndex]
            var two = cubes[twoIndex]
            let wholeR = volume(one, momentsR)
            let wholeG = volume(one, momentsG)
            let wholeB = volume(one, momentsB)
            let wholeW = volume(one, weights)
            let whole = (wholeR, wholeG, wholeB, wholeW)
            let maxR = maximize(one, .red, one.r0 + 1, one.r1, whole)
            let maxG = maximize(one, .green, one.g0 + 1, one.g1, whole)
            let maxB = maximize(one, .blue, one.b0 + 1, one.b1, whole)
            let direction: Direction
            if maxR.maximum >= maxG.maximum && maxR.maximum >= maxB.maximum {
                if maxR.cut < 0 {
                    return false
                }
                direction = .red
            } else if maxG.maximum >= maxR.maximum && maxG.maximum >= maxB.maximum {
                direction = .green
            } else {
                direction = .blue
            }
            two.r1 = one.r1
            two.g1 = one.g1
            two.b1 = one.b1
            switch direction {
            case .red:
                one.r1 = maxR.cut
                two.r0 = one.r1
                two.g0 = one.g0
                two.b0 = one.b0
            case .green:
                one.g1 = maxG.cut
                two.r0 = one.r0
                two.g0 = one.g1
                two.b0 = one.b0
            case .blue:
                one.b1 = maxB.cut
                two.r0 = one.r0
                two.g0 = one.g0
                two.b0 = one.b1
            }
            one.vol = (one.r1 - one.r0) * (one.g1 - one.g0) * (one.b1 - one.b0)
            two.vol = (two.r1 - two.r0) * (two.g1 - two.g0) * (two.b1 - two.b0)
            cubes[oneIndex] = one
            cubes[twoIndex] = two
            return true
        }

        func maximize(
            _ cube: Box, _ direction: Direction, _ first: Int, _ last: Int,
            _ whole: (r: Int, g: Int, b: Int, w: Int)
        ) -> (cut: Int, maximum: Double) {
            let bottomR = bottom(cube, direction, momentsR)
            let bottomG = bottom(cube, direction, momentsG)
            let bottomB = bottom(cube, direction, momentsB)
            let bottomW = bottom(cube, direction, weights)
            var maximum = 0.0
            var cut = -1
            var i = first
            while i < last {
                defer { i += 1 }
                var halfR = bottomR + top(cube, direction, i, momentsR)
                var halfG = bottomG + top(cube, direction, i, momentsG)
                var halfB = bottomB + top(cube, direction, i, momentsB)
                var halfW = bottomW + top(cube, direction, i, weights)
                if halfW == 0 {
                    continue
                }
                var temp = sumOfSquares(halfR, halfG, halfB) / Double(halfW)
                halfR = whole.r - halfR
                halfG = whole.g - halfG
                halfB = whole.b - halfB
                halfW = whole.w - halfW
                if halfW == 0 {
                    continue
                }
                temp += sumOfSquares(halfR, halfG, halfB) / Double(halfW)
                if temp > maximum {
                    maximum = temp
                    cut = i
                }
            }
            return (cut, maximum)
        }

        /// r² + g² + b² in doubles, as MCU's TypeScript computes it (no integer overflow).
        @inline(__always)
        func sumOfSquares(_ r: Int, _ g: Int, _ b: Int) -> Double {
            let r = Double(r)
            let g = Double(g)
            let b = Double(b)
            return r * r + g * g + b * b
        }

        func volume(_ cube: Box, _ moment: [Int]) -> Int {
            moment[index(cube.r1, cube.g1, cube.b1)] - moment[index(cube.r1, cube.g1, cube.b0)]
                - moment[index(cube.r1, cube.g0, cube.b1)] + moment[index(cube.r1, cube.g0, cube.b0)]
                - moment[index(cube.r0, cube.g1, cube.b1)] + moment[index(cube.r0, cube.g1, cube.b0)]
                + moment[index(cube.r0, cube.g0, cube.b1)] - moment[index(cube.r0, cube.g0, cube.b0)]
        }

        func bottom(_ cube: Box, _ direction: Direction, _ moment: [Int]) -> Int {
            switch direction {
            case .red:
                return -moment[index(cube.r0, cube.g1, cube.b1)]
                    + moment[index(cube.r0, cube.g1, cube.b0)]
                    + moment[index(cube.r0, cube.g0, cube.b1)]
                    - moment[index(cube.r0, cube.g0, cube.b0)]
            case .green:
                return -moment[index(cube.r1, cube.g0, cube.b1)]
                    + moment[index(cube.r1, cube.g0, cube.b0)]
                    + moment[index(cube.r0, cube.g0, cube.b1)]
                    - moment[index(cube.r0, cube.g0, cube.b0)]
            case .blue:
                return -moment[index(cube.r1, cube.g1, cube.b0)]
                    + moment[index(cube.r1, cube.g0, cube.b0)]
                    + moment[index(cube.r0, cube.g1, cube.b0)]
                    - moment[index(cube.r0, cube.g0, cube.b0)]
            }
        }

        func top(_ cube: Box, _ direction: Direction, _ position: Int, _ moment: [Int]) -> Int {
            switch direction {
            case .red:
                return moment[index(position, cube.g1, cube.b1)]
                    - moment[index(position, cube.g1, cube.b0)]
                    - moment[index(position, cube.g0, cube.b1)]
                    + moment[index(position, cube.g0, cube.b0)]
            case .green:
                return moment[index(cube.r1, position, cube.b1)]
                    - moment[index(cube.r1, position, cube.b0)]
                    - moment[index(cube.r0, position, cube.b1)]
                    + moment[index(cube.r0, position, cube.b0)]
            case .blue:
                return moment[index(cube.r1, cube.g1, position)]
                    - moment[index(cube.r1, cube.g0, position)]
                    - moment[index(cube.r0, cube.g1, position)]
                    + moment[index(cube.r0, cube.g0, position)]
            }
        }
    }
}
