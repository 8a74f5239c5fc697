import Magpie

/// Images made here, in memory.
enum Fixture {
    static func gradient(width: Int, height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> [UInt8] {
        var p = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                p[i] = UInt8(x * 255 / max(1, width - 1))
                p[i + 1] = UInt8(y * 255 / max(1, height - 1))
                p[i + 2] = UInt8((x + y) * 255 / max(1, width + height - 2))
                p[i + 3] = alpha(x, y)
            }
        }
        return p
    }
}

/// The error building options with `configure` throws; `nil` when they build.
func optionsError(_ configure: (ImageOptionsMaker) -> Void) -> ImageOptionsError? {
    do {
        _ = try ImageOptions.make(configure)
        return nil
    } catch {
        return error
    }
}

/// Where a test wrote something: `line` in the calling file.
func here(_ line: Int, fileID: String = #fileID) -> SourceLine { SourceLine(fileID: fileID, line: line) }
