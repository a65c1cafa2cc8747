import Foundation

/// What a person chose for a contact's picture, in Monica's words (`PUT /api/contacts/{id}/avatar`).
public enum AvatarChoice: String, CaseIterable, Sendable {
    /// Monica's initials avatar.
    case initials = "default"
    /// Monica's Adorable avatars, a service that no longer exists: shown as initials.
    case adorable
    case gravatar
    case photo
}

/// What a contact's avatar URL answers with, as `information.avatar.source` says it.
public enum AvatarSource: String, Sendable {
    case initials = "default"
    case gravatar
    case photo
}

/// A contact's picture: the person's choice and what is served for it. `imageDigest` is the SHA-256 (hex)
/// of the served photo or Gravatar image, nil for initials.
public struct ContactAvatar: Hashable, Sendable {
    /// nil until someone chooses: the contact's Gravatar when it has one, else its initials.
    public var choice: AvatarChoice?
    public var photoID: Int?
    public var source: AvatarSource
    public var imageDigest: String?

    public init(
        choice: AvatarChoice? = nil, photoID: Int? = nil, source: AvatarSource = .initials, imageDigest: String? = nil
    ) {
        self.choice = choice
        self.photoID = photoID
        self.source = source
        self.imageDigest = imageDigest
    }

    public static let automatic = ContactAvatar()

    /// What to serve for `choice`: the chosen photo while it exists, the Gravatar when one was found and
    /// the choice allows it, else initials. `photoDigest` is the digest of the photo `photoID` names,
    /// `gravatarDigest` that of the contact's cached Gravatar (nil when none was found or look-ups are off).
    public static func resolved(
        choice: AvatarChoice?, photoID: Int?, photoDigest: String?, gravatarDigest: String?
    ) -> ContactAvatar {
        switch choice {
        case .photo:
            if let photoID, let photoDigest {
                return ContactAvatar(choice: .photo, photoID: photoID, source: .photo, imageDigest: photoDigest)
            }
            // The photo is gone: back to what a contact shows before anyone chooses.
            return resolved(choice: nil, photoID: nil, photoDigest: nil, gravatarDigest: gravatarDigest)
        case .initials, .adorable:
            return ContactAvatar(choice: choice, source: .initials)
        case .gravatar, nil:
            guard let gravatarDigest else { return ContactAvatar(choice: choice, source: .initials) }
            return ContactAvatar(choice: choice, source: .gravatar, imageDigest: gravatarDigest)
        }
    }

    /// Names this picture in URLs and ETags: it changes whenever the picture does, so a cached copy is
    /// never shown for a new one. Initials change with the name (their letters and the drawing's label)
    /// and the colour.
    public func version(name: String, color: String) -> String {
        if let imageDigest, source != .initials { return String(imageDigest.prefix(16)) }
        var hash = FNV1a()
        hash.combine(name)
        hash.combine("|")
        hash.combine(color)
        return "i" + String(hash.value, radix: 16)
    }
}

/// FNV-1a, 64 bits: a stable hash of a few bytes, cheap enough for every contact of a list. Texts are
/// hashed one after the other as if joined, without joining them into a new string.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
    }
}
