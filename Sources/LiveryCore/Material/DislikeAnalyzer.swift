/// Finds and fixes colours people widely dislike: dark yellow-greens reminiscent of bile,
/// mucus and decay (MCU's `DislikeAnalyzer`, after Palmer and Schloss's ecological valence
/// study of colour preference).
public enum DislikeAnalyzer {
    /// Whether a colour is disliked: hue 90...111, chroma above 16 and tone below 65, each
    /// rounded half up first.
    /// - Parameter hct: the colour.
    public static func isDisliked(_ hct: Hct) -> Bool {
        let hue = MaterialMath.roundHalfUp(hct.hue)
        let huePasses = hue >= 90.0 && hue <= 111.0
        let chromaPasses = MaterialMath.roundHalfUp(hct.chroma) > 16.0
        let tonePasses = MaterialMath.roundHalfUp(hct.tone) < 65.0
        return huePasses && chromaPasses && tonePasses
    }

    /// A disliked colour lightened to tone 70, where it reads as a pleasant yellow; any other
    /// colour unchanged.
    /// - Parameter hct: the colour.
    /// - Returns: `hct`, or the colour of its hue and chroma at tone 70.
    public static func fixIfDisliked(_ hct: Hct) -> Hct {
        isDisliked(hct) ? .from(hue: hct.hue, chroma: hct.chroma, tone: 70.0) : hct
    }
}
