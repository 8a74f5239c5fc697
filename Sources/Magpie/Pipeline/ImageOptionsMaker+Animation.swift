/// Animations in the DSL:
///
///     make.animation.maxFrames(100)                 // the first 100 frames, a frame at a time
///     make.animation.firstFrameOnly()               // a still: the first frame
///     make.animation.encoded(as: .webp(quality: 75)) // frames encoded as they come (a server's choice)
///
/// The size and the effects run on every frame. `firstFrameOnly` contradicts the other two.
extension ImageOptionsMaker {
    public struct AnimationMaker {
        let maker: ImageOptionsMaker

        /// Keeps the first `count` frames (1 or more; imgproxy's `max_animation_frames`): the rest
        /// are never decoded (`FrameLimitProcessor`).
        @discardableResult
        public func maxFrames(_ count: Int, fileID: String = #fileID, line: Int = #line) -> AnimationMaker {
            let at = SourceLine(fileID: fileID, line: line)
            guard count >= 1 else {
                maker.invalid("animation.maxFrames needs 1 or more", at)
                return self
            }
            maker.record(.animationMaxFrames, at) { _ in }
            if maker.recordedAnimation.maxFrames == nil { maker.recordedAnimation.maxFrames = count }
            return self
        }

        /// Decodes and keeps only the first frame (``ImageOptions/onlyLoadFirstFrame``).
        @discardableResult
        public func firstFrameOnly(fileID: String = #fileID, line: Int = #line) -> AnimationMaker {
            maker.onlyLoadFirstFrame(fileID: fileID, line: line)
            return self
        }

        /// Encodes an animated source's frames as they are decoded and processed, so it never holds
        /// them together (`AnimationProcessor`): the image is the first frame, carrying the
        /// encoded animation (`Image/animation`), which the caches store as it is. A format
        /// without animations (`EncodingFormat/animates`) is an error.
        @discardableResult
        public func encoded(as format: EncodingFormat, fileID: String = #fileID, line: Int = #line) -> AnimationMaker {
            let at = SourceLine(fileID: fileID, line: line)
            guard format.animates else {
                maker.invalid("animation.encoded needs a format with animations (WebP, GIF)", at)
                return self
            }
            maker.record(.animationEncoding, at) { _ in }
            if maker.recordedAnimation.encoding == nil { maker.recordedAnimation.encoding = format }
            return self
        }
    }
}
