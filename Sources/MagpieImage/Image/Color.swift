/// An sRGB colour with straight alpha, 8 bits a channel.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From hex digits: `RRGGBB` or `RRGGBBAA`, with or without a leading `#`; `nil` otherwise.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        let v = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(v >> 24), green: UInt8(v >> 16 & 0xFF), blue: UInt8(v >> 8 & 0xFF), alpha: UInt8(v & 0xFF))
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// 0xRRGGBBAA.
    var rgba: UInt32 { UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha) }
    /// 0xRRGGBB (alpha dropped).
    var rgb: UInt32 { rgba >> 8 }

    /// `rrggbbaa`, lowercase: how identifiers name a colour.
    public var description: String {
        let hex = String(rgba, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
