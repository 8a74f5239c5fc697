/// A rotation by quarter turns and an optional mirror: the eight EXIF orientations, numbered as
/// EXIF numbers them. `.right` turns the image 90° clockwise (as imgproxy's `rot:90` and
/// libvips's `VIPS_ANGLE_D90`), `.upMirrored` flips it horizontally.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// A clockwise rotation by `degrees` (a multiple of 90, negative for counter-clockwise);
    /// `nil` for other angles.
    public init?(rotatingClockwise degrees: Int) {
        guard degrees % 90 == 0 else { return nil }
        switch ((degrees / 90) % 4 + 4) % 4 {
        case 1: self = .right
        case 2: self = .down
        case 3: self = .left
        default: self = .up
        }
    }

    /// A horizontal flip (left and right swap), a vertical flip, both, or neither.
    public static func flip(horizontal: Bool, vertical: Bool) -> Orientation {
        switch (horizontal, vertical) {
        case (true, true): return .down
        case (true, false): return .upMirrored
        case (false, true): return .downMirrored
        case (false, false): return .up
        }
    }

    /// This orientation, then `next`: one transform that does both.
    public func then(_ next: Orientation) -> Orientation {
        Orientation(rawValue: CoreEffects.compose(rawValue, then: next.rawValue)) ?? .up
    }

    /// Whether width and height trade places.
    public var swapsAxes: Bool { rawValue >= 5 }
}
