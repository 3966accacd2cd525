import Foundation
import XCTest

@testable import LiveryCore

/// The contrast the spec promises between text and the surfaces under it, for MCU's contrast test
/// seeds in every variant, light and dark, at nine contrast levels
/// (`typescript/dynamiccolor/dynamic_color_test.ts`). Ratios are computed here from WCAG 2's
/// definition (relative luminance of the sRGB colours), independently of the tone arithmetic the
/// schemes use.
final class MaterialSchemeContrastTests: XCTestCase {
    static let seeds: [UInt32] = [0xFFFF_0000, 0xFFFF_FF00, 0xFF00_FF00, 0xFF00_00FF]
    static let levels: [Double] = [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0]

    /// WCAG 2 relative luminance of an sRGB colour.
    static func luminance(_ argb: UInt32) -> Double {
        func channel(_ shift: UInt32) -> Double {
            let c = Double((argb >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    /// WCAG 2 contrast ratio (1...21).
    static func ratio(_ a: UInt32, _ b: UInt32) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    func testTextOnItsSurfaceMeetsTheSpecsMinimumContrast() {
        let pairs: [(MaterialRole, MaterialRole)] = [
            (.onPrimary, .primary), (.onPrimaryContainer, .primaryContainer), (.onSecondary, .secondary),
            (.onSecondaryContainer, .secondaryContainer), (.onTertiary, .tertiary),
            (.onTertiaryContainer, .tertiaryContainer), (.onError, .error),
            (.onErrorContainer, .errorContainer), (.onBackground, .background),
            (.onSurfaceVariant, .surfaceBright), (.onSurfaceVariant, .surfaceDim),
            (.onSurface, .surface), (.inverseOnSurface, .inverseSurface),
            (.onPrimaryFixed, .primaryFixed), (.onPrimaryFixed, .primaryFixedDim),
            (.onSecondaryFixed, .secondaryFixed), (.onSecondaryFixed, .secondaryFixedDim),
            (.onTertiaryFixed, .tertiaryFixed), (.onTertiaryFixed, .tertiaryFixedDim),
        ]
        var failures: [String] = []
        var checked = 0
        for seed in Self.seeds {
            for variant in MaterialVariant.allCases {
                for level in Self.levels {
                    for isDark in [false, true] {
                        let scheme = MaterialScheme(
                            source: Hct(argb: seed), variant: variant, isDark: isDark, contrastLevel: level)
                        // 4.5:1 at standard contrast and above, 3:1 when contrast is reduced.
                        let minimum = level >= 0 ? 4.5 : 3.0
                        for (text, surface) in pairs {
                            let ratio = Self.ratio(scheme.argb(of: text), scheme.argb(of: surface))
                            checked += 1
                            if ratio < minimum {
                                failures.append(
                                    "\(materialHex(seed)) \(variant.name) \(level) \(isDark ? "dark" : "light") "
                                        + "\(text.snakeCaseName) on \(surface.snakeCaseName): \(ratio)")
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(checked, Self.seeds.count * 9 * 9 * 2 * pairs.count)
        XCTAssertEqual(failures, [])
    }
}
