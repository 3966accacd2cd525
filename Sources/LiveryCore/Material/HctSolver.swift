import Foundation

/// Finds the sRGB colour of a hue, chroma and tone: MCU's exact HCT solver (`HctSolver`).
///
/// It first solves for CAM16 lightness J by Newton's method (five rounds at most); when that
/// answer falls outside the sRGB cube, it bisects the cube's edges and then its critical
/// planes (the linear values halfway between two 8-bit steps) toward the hue, giving the
/// colour of that hue and tone with the most chroma available.
enum HctSolver {
    static let scaledDiscountFromLinrgb: MaterialMath.Matrix3 = (
        SIMD3(0.001200833568784504, 0.002389694492170889, 0.0002795742885861124),
        SIMD3(0.0005891086651375999, 0.0029785502573438758, 0.0003270666104008398),
        SIMD3(0.00010146692491640572, 0.0005364214359186694, 0.0032979401770712076)
    )

    static let linrgbFromScaledDiscount: MaterialMath.Matrix3 = (
        SIMD3(1373.2198709594231, -1100.4251190754821, -7.278681089101213),
        SIMD3(-271.815969077903, 559.6580465940733, -32.46047482791194),
        SIMD3(1.9622899599665666, -57.173814538844006, 308.7233197812385)
    )

    static let yFromLinrgb = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    /// The linear RGB values (0...100) halfway between consecutive 8-bit sRGB values.
    static let criticalPlanes: [Double] = [
        0.015176349177441876, 0.045529047532325624, 0.07588174588720938,
        0.10623444424209313, 0.13658714259697685, 0.16693984095186062,
        0.19729253930674434, 0.2276452376616281, 0.2579979360165119,
        0.28835063437139563, 0.3188300904430532, 0.350925934958123,
        0.3848314933096426, 0.42057480301049466, 0.458183274052838,
        0.4976837250274023, 0.5391024159806381, 0.5824650784040898,
        0.6277969426914107, 0.6751227633498623, 0.7244668422128921,
        0.775853049866786, 0.829304845476233, 0.8848452951698498,
        0.942497089126609, 1.0022825574869039, 1.0642236851973577,
        1.1283421258858297, 1.1946592148522128, 1.2631959812511864,
        1.3339731595349034, 1.407011200216447, 1.4823302800086415,
        1.5599503113873272, 1.6398909516233677, 1.7221716113234105,
        1.8068114625156377, 1.8938294463134073, 1.9832442801866852,
        2.075074464868551, 2.1693382909216234, 2.2660538449872063,
        2.36523901573795, 2.4669114995532007, 2.5710888059345764,
        2.6777882626779785, 2.7870270208169257, 2.898822059350997,
        3.0131901897720907, 3.1301480604002863, 3.2497121605402226,
        3.3718988244681087, 3.4967242352587946, 3.624204428461639,
        3.754355295633311, 3.887192587735158, 4.022731918402185,
        4.160988767090289, 4.301978482107941, 4.445716283538092,
        4.592217266055746, 4.741496401646282, 4.893568542229298,
        5.048448422192488, 5.20615066083972, 5.3666897647573375,
        5.5300801301023865, 5.696336044816294, 5.865471690767354,
        6.037501145825082, 6.212438385869475, 6.390297286737924,
        6.571091626112461, 6.7548350853498045, 6.941541251256611,
        7.131223617812143, 7.323895587840543, 7.5195704746346665,
        7.7182615035334345, 7.919981813454504, 8.124744458384042,
        8.332562408825165, 8.543448553206703, 8.757415699253682,
        8.974476575321063, 9.194643831691977, 9.417930041841839,
        9.644347703669503, 9.873909240696694, 10.106627003236781,
        10.342513269534024, 10.58158024687427, 10.8238400726681,
        11.069304815507364, 11.317986476196008, 11.569896988756009,
        11.825048221409341, 12.083451977536606, 12.345119996613247,
        12.610063955123938, 12.878295467455942, 13.149826086772048,
        13.42466730586372, 13.702830557985108, 13.984327217668513,
        14.269168601521828, 14.55736596900856, 14.848930523210871,
        15.143873411576273, 15.44220572664832, 15.743938506781891,
        16.04908273684337, 16.35764934889634, 16.66964922287304,
        16.985093187232053, 17.30399201960269, 17.62635644741625,
        17.95219714852476, 18.281524751807332, 18.614349837764564,
        18.95068293910138, 19.290534541298456, 19.633915083172692,
        19.98083495742689, 20.331304511189067, 20.685334046541502,
        21.042933821039977, 21.404114048223256, 21.76888489811322,
        22.137256497705877, 22.50923893145328, 22.884842241736916,
        23.264076429332462, 23.6469514538663, 24.033477234264016,
        24.42366364919083, 24.817520537484558, 25.21505769858089,
        25.61628489293138, 26.021211842414342, 26.429848230738664,
        26.842203703840827, 27.258287870275353, 27.678110301598522,
        28.10168053274597, 28.529008062403893, 28.96010235337422,
        29.39497283293396, 29.83362889318845, 30.276079891419332,
        30.722335150426627, 31.172403958865512, 31.62629557157785,
        32.08401920991837, 32.54558406207592, 33.010999283389665,
        33.4802739966603, 33.953417292456834, 34.430438229418264,
        34.911345834551085, 35.39614910352207, 35.88485700094671,
        36.37747846067349, 36.87402238606382, 37.37449765026789,
        37.87891309649659, 38.38727753828926, 38.89959975977785,
        39.41588851594697, 39.93615253289054, 40.460400508064545,
        40.98864111053629, 41.520882981230194, 42.05713473317016,
        42.597404951718396, 43.141702194811224, 43.6900349931913,
        44.24241185063697, 44.798841244188324, 45.35933162437017,
        45.92389141541209, 46.49252901546552, 47.065252796817916,
        47.64207110610409, 48.22299226451468, 48.808024568002054,
        49.3971762874833, 49.9904556690408, 50.587870934119984,
        51.189430279724725, 51.79514187861014, 52.40501387947288,
        53.0190544071392, 53.637271562750364, 54.259673423945976,
        54.88626804504493, 55.517063457223934, 56.15206766869424,
        56.79128866487574, 57.43473440856916, 58.08241284012621,
        58.734331877617365, 59.39049941699807, 60.05092333227251,
        60.715611475655585, 61.38457167773311, 62.057811747619894,
        62.7353394731159, 63.417162620860914, 64.10328893648692,
        64.79372614476921, 65.48848194977529, 66.18756403501224,
        66.89098006357258, 67.59873767827808, 68.31084450182222,
        69.02730813691093, 69.74813616640164, 70.47333615344107,
        71.20291564160104, 71.93688215501312, 72.67524319850172,
        73.41800625771542, 74.16517879925733, 74.9167682708136,
        75.67278210128072, 76.43322770089146, 77.1981124613393,
        77.96744375590167, 78.74122893956174, 79.51947534912904,
        80.30219030335869, 81.08938110306934, 81.88105503125999,
        82.67721935322541, 83.4778813166706, 84.28304815182372,
        85.09272707154808, 85.90692527145302, 86.72564993000343,
        87.54890820862819, 88.3767072518277, 89.2090541872801,
        90.04595612594655, 90.88742016217518, 91.73345337380438,
        92.58406282226491, 93.43925555268066, 94.29903859396902,
        95.16341895893969, 96.03240364439274, 96.9059996312159,
        97.78421388448044, 98.6670533535366, 99.55452497210776,
    ]

    @inline(__always)
    static func sanitizeRadians(_ angle: Double) -> Double {
        (angle + Double.pi * 8).truncatingRemainder(dividingBy: Double.pi * 2)
    }

    @inline(__always)
    static func trueDelinearized(_ component: Double) -> Double {
        let normalized = component / 100.0
        let value: Double
        if normalized <= 0.0031308 {
            value = normalized * 12.92
        } else {
            value = 1.055 * pow(normalized, 1.0 / 2.4) - 0.055
        }
        return value * 255.0
    }

    @inline(__always)
    static func chromaticAdaptation(_ component: Double) -> Double {
        let af = pow(abs(component), 0.42)
        return MaterialMath.signum(component) * 400.0 * af / (af + 27.13)
    }

    /// The CAM16 hue, in radians (-π...π), of a linear RGB colour.
    static func hueOf(_ linrgb: SIMD3<Double>) -> Double {
        let scaledDiscount = MaterialMath.multiply(linrgb, scaledDiscountFromLinrgb)
        let rA = chromaticAdaptation(scaledDiscount[0])
        let gA = chromaticAdaptation(scaledDiscount[1])
        let bA = chromaticAdaptation(scaledDiscount[2])
        let a = (11.0 * rA + -12.0 * gA + bA) / 11.0
        let b = (rA + gA - 2.0 * bA) / 9.0
        return atan2(b, a)
    }

    @inline(__always)
    static func areInCyclicOrder(_ a: Double, _ b: Double, _ c: Double) -> Bool {
        sanitizeRadians(b - a) < sanitizeRadians(c - a)
    }

    @inline(__always)
    static func intercept(_ source: Double, _ mid: Double, _ target: Double) -> Double {
        (mid - source) / (target - source)
    }

    @inline(__always)
    static func lerpPoint(_ source: SIMD3<Double>, _ t: Double, _ target: SIMD3<Double>)
        -> SIMD3<Double>
    {
        SIMD3(
            source[0] + (target[0] - source[0]) * t,
            source[1] + (target[1] - source[1]) * t,
            source[2] + (target[2] - source[2]) * t)
    }

    @inline(__always)
    static func setCoordinate(
        _ source: SIMD3<Double>, _ coordinate: Double, _ target: SIMD3<Double>, _ axis: Int
    ) -> SIMD3<Double> {
        lerpPoint(source, intercept(source[axis], coordinate, target[axis]), target)
    }

    @inline(__always)
    static func isBounded(_ x: Double) -> Bool {
        0.0 <= x && x <= 100.0
    }

    static let noVertex = SIMD3<Double>(-1.0, -1.0, -1.0)

    /// The nth of the 12 edges of the RGB cube crossed by the plane of luminance `y`, or
    /// (-1, -1, -1) when that edge does not meet it.
    static func nthVertex(_ y: Double, _ n: Int) -> SIMD3<Double> {
        let kR = yFromLinrgb[0]
        let kG = yFromLinrgb[1]
        let kB = yFromLinrgb[2]
        let coordA = n % 4 <= 1 ? 0.0 : 100.0
        let coordB = n % 2 == 0 ? 0.0 : 100.0
        if n < 4 {
            let g = coordA
            let b = coordB
            let r = (y - g * kG - b * kB) / kR
            return isBounded(r) ? SIMD3(r, g, b) : noVertex
        } else if n < 8 {
            let b = coordA
            let r = coordB
            let g = (y - r * kR - b * kB) / kG
            return isBounded(g) ? SIMD3(r, g, b) : noVertex
        } else {
            let r = coordA
            let g = coordB
            let b = (y - r * kR - g * kG) / kB
            return isBounded(b) ? SIMD3(r, g, b) : noVertex
        }
    }

    static func bisectToSegment(_ y: Double, _ targetHue: Double) -> (
        SIMD3<Double>, SIMD3<Double>
    ) {
        var left = noVertex
        var right = left
        var leftHue = 0.0
        var rightHue = 0.0
        var initialized = false
        var uncut = true
        for n in 0..<12 {
            let mid = nthVertex(y, n)
            if mid[0] < 0 {
                continue
            }
            let midHue = hueOf(mid)
            if !initialized {
                left = mid
                right = mid
                leftHue = midHue
                rightHue = midHue
                initialized = true
                continue
            }
            if uncut || areInCyclicOrder(leftHue, midHue, rightHue) {
                uncut = false
                if areInCyclicOrder(leftHue, targetHue, midHue) {
                    right = mid
                    rightHue = midHue
                } else {
                    left = mid
                    leftHue = midHue
                }
            }
        }
        return (left, right)
    }

    @inline(__always)
    static func midpoint(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2)
    }

    @inline(__always)
    static func criticalPlaneBelow(_ x: Double) -> Int { Int((x - 0.5).rounded(.down)) }

    @inline(__always)
    static func criticalPlaneAbove(_ x: Double) -> Int { Int((x - 0.5).rounded(.up)) }

    static func bisectToLimit(_ y: Double, _ targetHue: Double) -> SIMD3<Double> {
        var (left, right) = bisectToSegment(y, targetHue)
        var leftHue = hueOf(left)
        for axis in 0..<3 where left[axis] != right[axis] {
            var lPlane: Int
            var rPlane: Int
            if left[axis] < right[axis] {
                lPlane = criticalPlaneBelow(trueDelinearized(left[axis]))
                rPlane = criticalPlaneAbove(trueDelinearized(right[axis]))
            } else {
                lPlane = criticalPlaneAbove(trueDelinearized(left[axis]))
                rPlane = criticalPlaneBelow(trueDelinearized(right[axis]))
            }
            for _ in 0..<8 {
                if abs(rPlane - lPlane) <= 1 {
                    break
                }
                let mPlane = Int((Double(lPlane + rPlane) / 2.0).rounded(.down))
                let mid = setCoordinate(left, criticalPlanes[mPlane], right, axis)
                let midHue = hueOf(mid)
                if areInCyclicOrder(leftHue, targetHue, midHue) {
                    right = mid
                    rPlane = mPlane
                } else {
                    left = mid
                    leftHue = midHue
                    lPlane = mPlane
                }
            }
        }
        return midpoint(left, right)
    }

    @inline(__always)
    static func inverseChromaticAdaptation(_ adapted: Double) -> Double {
        let adaptedAbs = abs(adapted)
        let base = max(0, 27.13 * adaptedAbs / (400.0 - adaptedAbs))
        return MaterialMath.signum(adapted) * pow(base, 1.0 / 0.42)
    }

    /// Newton's method on J; 0 when the answer is not inside the sRGB cube.
    static func findResultByJ(_ hueRadians: Double, _ chroma: Double, _ y: Double) -> UInt32 {
        var j = y.squareRoot() * 11.0
        let vc = ViewingConditions.standard
        let tInnerCoeff = 1 / pow(1.64 - pow(0.29, vc.n), 0.73)
        let eHue = 0.25 * (cos(hueRadians + 2.0) + 3.8)
        let p1 = eHue * (50000.0 / 13.0) * vc.nc * vc.ncb
        let hSin = sin(hueRadians)
        let hCos = cos(hueRadians)
        for iterationRound in 0..<5 {
            let jNormalized = j / 100.0
            let alpha = chroma == 0.0 || j == 0.0 ? 0.0 : chroma / jNormalized.squareRoot()
            let t = pow(alpha * tInnerCoeff, 1.0 / 0.9)
            let ac = vc.aw * pow(jNormalized, 1.0 / vc.c / vc.z)
            let p2 = ac / vc.nbb
            let gamma = 23.0 * (p2 + 0.305) * t / (23.0 * p1 + 11 * t * hCos + 108.0 * t * hSin)
            let a = gamma * hCos
            let b = gamma * hSin
            let rA = (460.0 * p2 + 451.0 * a + 288.0 * b) / 1403.0
            let gA = (460.0 * p2 - 891.0 * a - 261.0 * b) / 1403.0
            let bA = (460.0 * p2 - 220.0 * a - 6300.0 * b) / 1403.0
            let scaled = SIMD3(
                inverseChromaticAdaptation(rA), inverseChromaticAdaptation(gA),
                inverseChromaticAdaptation(bA))
            let linrgb = MaterialMath.multiply(scaled, linrgbFromScaledDiscount)
            if linrgb[0] < 0 || linrgb[1] < 0 || linrgb[2] < 0 {
                return 0
            }
            let fnj =
                yFromLinrgb[0] * linrgb[0] + yFromLinrgb[1] * linrgb[1] + yFromLinrgb[2]
                * linrgb[2]
            if fnj <= 0 {
                return 0
            }
            if iterationRound == 4 || abs(fnj - y) < 0.002 {
                if linrgb[0] > 100.01 || linrgb[1] > 100.01 || linrgb[2] > 100.01 {
                    return 0
                }
                return ColorMath.argb(linear: linrgb)
            }
            j = j - (fnj - y) * j / (2 * fnj)
        }
        return 0
    }

    /// The sRGB colour (opaque ARGB) with this hue (degrees), chroma and tone (L*), or, when
    /// sRGB has none, the one of that hue and tone with the most chroma.
    static func solveToInt(_ hueDegrees: Double, _ chroma: Double, _ lstar: Double) -> UInt32 {
        if chroma < 0.0001 || lstar < 0.0001 || lstar > 99.9999 {
            return ColorMath.argb(lstar: lstar)
        }
        let hue = MaterialMath.sanitizeDegrees(hueDegrees)
        let hueRadians = hue / 180 * Double.pi
        let y = ColorMath.yFromLstar(lstar)
        let exactAnswer = findResultByJ(hueRadians, chroma, y)
        if exactAnswer != 0 {
            return exactAnswer
        }
        return ColorMath.argb(linear: bisectToLimit(y, hueRadians))
    }

    /// `solveToInt`'s colour as CAM16.
    static func solveToCam(_ hueDegrees: Double, _ chroma: Double, _ lstar: Double) -> Cam16 {
        Cam16(argb: solveToInt(hueDegrees, chroma, lstar))
    }
}
