/// Colours as thumbor's Pillow engine reads them (`gen_image`, through Pillow's `ImageColor.getrgb`):
/// a CSS name (Pillow 10's 148, any case), else the text as hex after `#` (`rgb`, `rgba`,
/// `rrggbb`, `rrggbbaa`), or `transparent`. Anything else raises there.
enum ThumborColor {
    /// RGBA, alpha 255 unless the hex gives one.
    static func parse(_ text: String) -> [UInt8]? {
        let lower = text.lowercased()
        if lower == "transparent" { return [0, 0, 0, 0] }
        if let hex = named[lower] { return hex + [255] }
        let digits = Array(lower.utf8)
        guard [3, 4, 6, 8].contains(digits.count), let values = Optional(digits.compactMap(ThumborPixels.hexValue)),
            values.count == digits.count
        else { return nil }
        let channels =
            digits.count <= 4
            ? values.map { $0 * 17 } : stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
        return channels.count == 4 ? channels : channels + [255]
    }

    /// Pillow's `ImageColor.colormap` (scripts/thumbor-pixels.py prints it), as name=rrggbb.
    static let named: [String: [UInt8]] = {
        var out: [String: [UInt8]] = [:]
        for pair in table.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=")
            let hex = Array(parts[1].utf8).compactMap(ThumborPixels.hexValue)
            out[String(parts[0])] = stride(from: 0, to: 6, by: 2).map { hex[$0] << 4 | hex[$0 + 1] }
        }
        return out
    }()

    static let table = """
        aliceblue=f0f8ff antiquewhite=faebd7 aqua=00ffff aquamarine=7fffd4 azure=f0ffff beige=f5f5dc
        bisque=ffe4c4 black=000000 blanchedalmond=ffebcd blue=0000ff blueviolet=8a2be2 brown=a52a2a
        burlywood=deb887 cadetblue=5f9ea0 chartreuse=7fff00 chocolate=d2691e coral=ff7f50 cornflowerblue=6495ed
        cornsilk=fff8dc crimson=dc143c cyan=00ffff darkblue=00008b darkcyan=008b8b darkgoldenrod=b8860b
        darkgray=a9a9a9 darkgreen=006400 darkgrey=a9a9a9 darkkhaki=bdb76b darkmagenta=8b008b
        darkolivegreen=556b2f darkorange=ff8c00 darkorchid=9932cc darkred=8b0000 darksalmon=e9967a
        darkseagreen=8fbc8f darkslateblue=483d8b darkslategray=2f4f4f darkslategrey=2f4f4f darkturquoise=00ced1
        darkviolet=9400d3 deeppink=ff1493 deepskyblue=00bfff dimgray=696969 dimgrey=696969 dodgerblue=1e90ff
        firebrick=b22222 floralwhite=fffaf0 forestgreen=228b22 fuchsia=ff00ff gainsboro=dcdcdc
        ghostwhite=f8f8ff gold=ffd700 goldenrod=daa520 gray=808080 green=008000 greenyellow=adff2f grey=808080
        honeydew=f0fff0 hotpink=ff69b4 indianred=cd5c5c indigo=4b0082 ivory=fffff0 khaki=f0e68c lavender=e6e6fa
        lavenderblush=fff0f5 lawngreen=7cfc00 lemonchiffon=fffacd lightblue=add8e6 lightcoral=f08080
        lightcyan=e0ffff lightgoldenrodyellow=fafad2 lightgray=d3d3d3 lightgreen=90ee90 lightgrey=d3d3d3
        lightpink=ffb6c1 lightsalmon=ffa07a lightseagreen=20b2aa lightskyblue=87cefa lightslategray=778899
        lightslategrey=778899 lightsteelblue=b0c4de lightyellow=ffffe0 lime=00ff00 limegreen=32cd32
        linen=faf0e6 magenta=ff00ff maroon=800000 mediumaquamarine=66cdaa mediumblue=0000cd mediumorchid=ba55d3
        mediumpurple=9370db mediumseagreen=3cb371 mediumslateblue=7b68ee mediumspringgreen=00fa9a
        mediumturquoise=48d1cc mediumvioletred=c71585 midnightblue=191970 mintcream=f5fffa mistyrose=ffe4e1
        moccasin=ffe4b5 navajowhite=ffdead navy=000080 oldlace=fdf5e6 olive=808000 olivedrab=6b8e23
        orange=ffa500 orangered=ff4500 orchid=da70d6 palegoldenrod=eee8aa palegreen=98fb98 paleturquoise=afeeee
        palevioletred=db7093 papayawhip=ffefd5 peachpuff=ffdab9 peru=cd853f pink=ffc0cb plum=dda0dd
        powderblue=b0e0e6 purple=800080 rebeccapurple=663399 red=ff0000 rosybrown=bc8f8f royalblue=4169e1
        saddlebrown=8b4513 salmon=fa8072 sandybrown=f4a460 seagreen=2e8b57 seashell=fff5ee sienna=a0522d
        silver=c0c0c0 skyblue=87ceeb slateblue=6a5acd slategray=708090 slategrey=708090 snow=fffafa
        springgreen=00ff7f steelblue=4682b4 tan=d2b48c teal=008080 thistle=d8bfd8 tomato=ff6347
        turquoise=40e0d0 violet=ee82ee wheat=f5deb3 white=ffffff whitesmoke=f5f5f5 yellow=ffff00
        yellowgreen=9acd32
        """
}

extension ThumborPixels {
    /// Python's `bytearray.fromhex`: pairs of hex digits, white space allowed between pairs.
    static func hexBytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var digits = Array(text.utf8)[...]
        while let c = digits.first {
            if c == UInt8(ascii: " ") || (9...13).contains(c) {
                digits = digits.dropFirst()
                continue
            }
            guard digits.count >= 2, let hi = hexValue(c), let lo = hexValue(digits[digits.startIndex + 1]) else {
                return nil
            }
            out.append(hi << 4 | lo)
            digits = digits.dropFirst(2)
        }
        return out
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
