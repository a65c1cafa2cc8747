// An app built on LocifyKit reads Locify's wire types (LocifyAPI) and uses Core's rules (coordinates,
// postal formats, directions links) without importing them itself.
@_exported import LocifyAPI
@_exported import LocifyCore
