/// Weighted k-means in L*a*b* (MCU's `QuantizerWsmeans`): each distinct colour is a point
/// weighted by its pixel count; clusters start at the given colours and move to their points'
/// weighted means.
///
/// Seeding and limits follow MCU's Java version, the one whose randomness is specified: a
/// `java.util.Random` seeded with 0x42688 gives each distinct colour (in order of first
/// appearance) its initial cluster with `nextInt(clusterCount)`; without starting clusters,
/// the same generator first draws each random cluster as L* = 100u, a* = 201u − 100,
/// b* = 201u − 100 (`nextDouble()`, MCU's TypeScript formula). At most 10 iterations; a point
/// moves only when its distance improves by more than 3 ΔE, and a point skips clusters at 4×
/// its current squared distance or more from its cluster (measured, as in MCU, on each
/// cluster's distances sorted ascending). The same input gives the same clusters everywhere.
public enum QuantizerWsmeans {
    static let maxIterations = 10
    static let minMovementDistance = 3.0

    /// Clusters `inputPixels` into at most `maxColors` colours.
    /// - Parameters:
    ///   - inputPixels: ARGB pixels (alpha is not looked at).
    ///   - startingClusters: initial cluster colours (Wu's result in `QuantizerCelebi`).
    ///   - maxColors: the most clusters.
    /// - Returns: each non-empty cluster's colour → its pixel count; a cluster whose colour
    ///   an earlier cluster already has is dropped, as MCU does.
    public static func quantize(
        _ inputPixels: [UInt32], startingClusters: [UInt32], maxColors: Int
    ) -> [UInt32: Int] {
        var random = JavaRandom(seed: 0x42688)
        let (points, counts) = uniquePoints(inputPixels)
        let pointCount = points.count

        var clusterCount = min(maxColors, pointCount)
        if !startingClusters.isEmpty {
            clusterCount = min(clusterCount, startingClusters.count)
        }
        guard clusterCount > 0 else { return [:] }

        var clusters = ContiguousArray(startingClusters.prefix(clusterCount).map(ColorMath.lab))
        if startingClusters.isEmpty {
            for _ in 0..<clusterCount {
                let l = random.nextDouble() * 100.0
                let a = random.nextDouble() * (100.0 - (-100.0) + 1) + -100
                let b = random.nextDouble() * (100.0 - (-100.0) + 1) + -100
                clusters.append(SIMD3(l, a, b))
            }
        }

        var clusterIndices = ContiguousArray<Int>(repeating: 0, count: pointCount)
        for i in 0..<pointCount {
            clusterIndices[i] = Int(random.nextInt(Int32(clusterCount)))
        }

        // Row i holds cluster i's distances to the others, sorted ascending after each
        // update; MCU writes new distances by position into the previously sorted rows
        // (the diagonal starts at -1), and this reproduces it.
        var distances = ContiguousArray<Double>(repeating: -1, count: clusterCount * clusterCount)
        var pixelCountSums = ContiguousArray<Int>(repeating: 0, count: clusterCount)
        var sums = ContiguousArray<SIMD3<Double>>(repeating: .zero, count: clusterCount)

        for iteration in 0..<maxIterations {
            for i in 0..<clusterCount {
                for j in (i + 1)..<max(i + 1, clusterCount) {
                    let distance = squaredDistance(clusters[i], clusters[j])
                    distances[j * clusterCount + i] = distance
                    distances[i * clusterCount + j] = distance
                }
                distances.withUnsafeMutableBufferPointer { buffer in
                    var row = UnsafeMutableBufferPointer(
                        rebasing: buffer[(i * clusterCount)..<((i + 1) * clusterCount)])
                    row.sort()
                }
            }

            let pointsMoved = reassign(
                points, to: &clusterIndices, clusters: clusters, distances: distances,
                clusterCount: clusterCount)

            if pointsMoved == 0 && iteration != 0 {
                break
            }

            recentre(
                &clusters, &pixelCountSums, &sums, points: points, counts: counts,
                clusterIndices: clusterIndices)
        }

        var argbToPopulation: [UInt32: Int] = [:]
        for i in 0..<clusterCount {
            let count = pixelCountSums[i]
            if count == 0 {
                continue
            }
            let cluster = clusters[i]
            let argb = ColorMath.argb(lab: cluster[0], cluster[1], cluster[2])
            if argbToPopulation[argb] == nil {
                argbToPopulation[argb] = count
            }
        }
        return argbToPopulation
    }

    /// Each distinct pixel once, in order of first appearance, as an L*a*b* point, with how many
    /// times it occurs.
    static func uniquePoints(_ pixels: [UInt32]) -> (ContiguousArray<SIMD3<Double>>, ContiguousArray<Int>) {
        var pixelToIndex: [UInt32: Int] = [:]
        pixelToIndex.reserveCapacity(min(pixels.count, 1 << 16))
        var points = ContiguousArray<SIMD3<Double>>()
        var counts = ContiguousArray<Int>()
        for pixel in pixels {
            if let index = pixelToIndex[pixel] {
                counts[index] += 1
            } else {
                pixelToIndex[pixel] = points.count
                points.append(ColorMath.lab(pixel))
                counts.append(1)
            }
        }
        return (points, counts)
    }

    /// Moves each point to the nearest cluster when that is more than `minMovementDistance`
    /// nearer than its own, skipping clusters whose distance to its own cluster is at least
    /// four times the point's (the triangle inequality says they cannot be nearer), as MCU does;
    /// returns how many points moved.
    static func reassign(
        _ points: ContiguousArray<SIMD3<Double>>, to clusterIndices: inout ContiguousArray<Int>,
        clusters: ContiguousArray<SIMD3<Double>>, distances: ContiguousArray<Double>, clusterCount: Int
    ) -> Int {
        var pointsMoved = 0
        for i in 0..<points.count {
            let point = points[i]
            let previousClusterIndex = clusterIndices[i]
            let previousDistance = squaredDistance(point, clusters[previousClusterIndex])
            var minimumDistance = previousDistance
            var newClusterIndex = -1
            let row = previousClusterIndex * clusterCount
            for j in 0..<clusterCount {
                if distances[row + j] >= 4 * previousDistance {
                    continue
                }
                let distance = squaredDistance(point, clusters[j])
                if distance < minimumDistance {
                    minimumDistance = distance
                    newClusterIndex = j
                }
            }
            if newClusterIndex != -1 {
                let distanceChange = abs(minimumDistance.squareRoot() - previousDistance.squareRoot())
                if distanceChange > minMovementDistance {
                    pointsMoved += 1
                    clusterIndices[i] = newClusterIndex
                }
            }
        }
        return pointsMoved
    }

    /// Each cluster's new centre: the mean of its points weighted by their pixel counts (the
    /// origin for a cluster with none), and its pixel count.
    static func recentre(
        _ clusters: inout ContiguousArray<SIMD3<Double>>, _ pixelCountSums: inout ContiguousArray<Int>,
        _ sums: inout ContiguousArray<SIMD3<Double>>, points: ContiguousArray<SIMD3<Double>>,
        counts: ContiguousArray<Int>, clusterIndices: ContiguousArray<Int>
    ) {
        let clusterCount = clusters.count
        let pointCount = points.count
        for i in 0..<clusterCount {
            pixelCountSums[i] = 0
            sums[i] = .zero
        }
        for i in 0..<pointCount {
            let clusterIndex = clusterIndices[i]
            let point = points[i]
            let count = counts[i]
            let weight = Double(count)
            pixelCountSums[clusterIndex] += count
            sums[clusterIndex] = SIMD3(
                sums[clusterIndex][0] + point[0] * weight,
                sums[clusterIndex][1] + point[1] * weight,
                sums[clusterIndex][2] + point[2] * weight)
        }
        for i in 0..<clusterCount {
            let count = pixelCountSums[i]
            if count == 0 {
                clusters[i] = .zero
                continue
            }
            let total = Double(count)
            clusters[i] = SIMD3(sums[i][0] / total, sums[i][1] / total, sums[i][2] / total)
        }
    }

    /// The squared Euclidean distance in L*a*b*, MCU's `LabPointProvider.distance`.
    @inline(__always)
    static func squaredDistance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let dL = a[0] - b[0]
        let dA = a[1] - b[1]
        let dB = a[2] - b[2]
        return dL * dL + dA * dA + dB * dB
    }
}

/// MCU's image quantizer (`QuantizerCelebi`, after Celebi's "Improving the Performance of
/// K-Means for Color Quantization"): Wu's quantizer picks the starting clusters, weighted
/// k-means in L*a*b* refines them.
public enum QuantizerCelebi {
    /// The colours of an image and how many pixels each stands for.
    /// - Parameters:
    ///   - pixels: ARGB pixels; Wu's stage ignores translucent ones.
    ///   - maxColors: the most colours to return (128 for a theme's source).
    /// - Returns: colour → pixel count; empty when `maxColors` is 0 or there are no pixels.
    public static func quantize(_ pixels: [UInt32], maxColors: Int) -> [UInt32: Int] {
        guard maxColors > 0, !pixels.isEmpty else { return [:] }
        let wu = QuantizerWu.quantize(pixels, maxColors: maxColors)
        return QuantizerWsmeans.quantize(pixels, startingClusters: wu, maxColors: maxColors)
    }
}
