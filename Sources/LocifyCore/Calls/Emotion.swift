/// How a call or an activity felt: Monica's fixed list of emotions, the same ids in every account (Monica
/// seeds them once for the whole server and offers no route to change them).
public struct Emotion: Equatable, Sendable {
    public let id: Int
    public let name: String

    public static func emotion(_ id: Int) -> Emotion? {
        guard (1...names.count).contains(id) else { return nil }
        return Emotion(id: id, name: names[id - 1])
    }

    /// In Monica's order, which gives their ids (1 = adoration): primary emotion, then secondary.
    static let names: [String] = [
        // love: affection, lust, longing
        "adoration", "affection", "love", "fondness", "liking", "attraction", "caring", "tenderness", "compassion",
        "sentimentality", "arousal", "desire", "lust", "passion", "infatuation", "longing",
        // joy: cheerfulness, zest, contentment, pride, optimism, enthrallment, relief
        "amusement", "bliss", "cheerfulness", "gaiety", "glee", "jolliness", "joviality", "joy", "delight",
        "enjoyment", "gladness", "happiness", "jubilation", "elation", "satisfaction", "ecstasy", "euphoria",
        "enthusiasm", "zeal", "zest", "excitement", "thrill", "exhilaration", "contentment", "pleasure", "pride",
        "pleasure", "eagerness", "hope", "hope", "enthrallment", "rapture", "relief",
        // surprise
        "amazement", "surprise", "astonishment",
        // anger: irritation, exasperation, rage, disgust, envy
        "aggravation", "irritation", "agitation", "annoyance", "grouchiness", "grumpiness", "exasperation",
        "frustration", "anger", "rage", "outrage", "fury", "wrath", "hostility", "ferocity", "bitterness", "hate",
        "loathing", "scorn", "spite", "vengefulness", "dislike", "resentment", "disgust", "revulsion", "contempt",
        "envy", "jealousy",
        // sadness: suffering, sadness, disappointment, shame, neglect, sympathy
        "agony", "suffering", "hurt", "anguish", "depression", "despair", "hopelessness", "gloom", "glumness",
        "sadness", "unhappiness", "grief", "sorrow", "woe", "misery", "melancholy", "dismay", "disappointment",
        "displeasure", "guilt", "shame", "regret", "remorse", "alienation", "isolation", "neglect", "loneliness",
        "rejection", "homesickness", "defeat", "dejection", "insecurity", "embarrassment", "humiliation", "insult",
        "pity", "sympathy",
        // fear: horror, nervousness
        "alarm", "shock", "fear", "fright", "horror", "terror", "panic", "hysteria", "mortification", "anxiety",
        "nervousness", "tenseness", "uneasiness", "apprehension", "worry", "distress", "dread",
    ]
}
