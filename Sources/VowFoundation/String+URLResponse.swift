public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension String {
    /// Decodes a response body in the character set its response names, as PromiseKit's
    /// Foundation extensions do: the `charset` of the `Content-Type` header
    /// (`urlResponse.textEncodingName`), or UTF-8 when it names none, or one this initializer
    /// does not know. `nil` if the body is not text in that encoding.
    ///
    /// The character sets known are the Unicode ones (UTF-8, UTF-16 and UTF-32, with and without
    /// a byte order), US-ASCII, ISO 8859-1 and 8859-2, Windows code pages 1250 to 1254, Mac OS
    /// Roman, Shift JIS, EUC-JP and ISO-2022-JP. Names are matched as IANA registers them,
    /// ignoring case, with their common aliases (`latin1`, `utf8`). The table is Vow's own, so the
    /// answer is the same on every platform.
    ///
    /// ```swift
    /// URLSession.shared.dataTask(.promise, with: url).compactMap { data, response in
    ///     String(data: data, urlResponse: response)
    /// }.done { text in
    ///     print(text)
    /// }.catch { error in
    ///     print("no text:", error)
    /// }
    /// ```
    public init?(data: Data, urlResponse: URLResponse) {
        let encoding = urlResponse.textEncodingName.flatMap(String.encoding(ianaName:)) ?? .utf8
        self.init(data: data, encoding: encoding)
    }

    /// The encoding that an IANA character set name, or one of its common aliases, names.
    private static func encoding(ianaName name: String) -> String.Encoding? {
        // A `charset` parameter may be quoted: `charset="utf-8"`.
        switch name.filter({ $0 != "\"" && $0 != " " }).lowercased() {
        case "utf-8", "utf8": .utf8
        case "utf-16", "utf16": .utf16
        case "utf-16be": .utf16BigEndian
        case "utf-16le": .utf16LittleEndian
        case "utf-32", "utf32": .utf32
        case "utf-32be": .utf32BigEndian
        case "utf-32le": .utf32LittleEndian
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "iso_8859-1", "latin1", "l1": .isoLatin1
        case "iso-8859-2", "iso_8859-2", "latin2", "l2": .isoLatin2
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1253", "cp1253": .windowsCP1253
        case "windows-1254", "cp1254": .windowsCP1254
        case "macintosh", "mac", "x-mac-roman": .macOSRoman
        case "shift_jis", "shift-jis", "sjis": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "iso-2022-jp": .iso2022JP
        default: nil
        }
    }
}
