/// Payloads the disk-cache crash test writes and checks: 64 KiB to 256 KiB derived from `n` (files),
/// or 200 bytes to 16 KiB when `small` (rows of the index), so a reader can tell a whole entry from
/// a torn one.
public enum CrashPayload {
    public static func bytes(for n: Int, small: Bool = false) -> [UInt8] {
        let count = small ? 200 + (n * 7_919) % 16_000 : 65_536 + (n * 7_919) % 196_608
        var state = UInt32(truncatingIfNeeded: n &* 2_654_435_761 &+ 1)
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }
}
