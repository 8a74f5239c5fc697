import Synchronization

/// New request IDs: 32 hex digits, a random half drawn once per process and a counter, so a
/// request costs no call for randomness (two `getrandom` calls each did) and IDs stay unique
/// across a fleet's processes. They are names for logs, not secrets.
enum RequestIDs {
    private static let prefix = hex(UInt64.random(in: .min ... .max))
    private static let counter = Atomic<UInt64>(0)

    static func next() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        return prefix + hex(n)
    }

    /// 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * i)) & 0xF
                buffer[i] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            return 16
        }
    }
}
