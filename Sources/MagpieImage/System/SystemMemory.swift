#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much memory this process may use: the cgroup v2 limit of its cgroup where one is set
/// (containers, systemd services), otherwise the machine's physical memory.
package enum SystemMemory {
    /// Bytes available to the process (cgroup v2 `memory.max`, else physical memory).
    package static var availableToProcess: Int {
        if let limit = cgroupLimit() { return min(limit, physicalMemory) }
        return physicalMemory
    }

    /// Physical memory of the machine in bytes.
    package static var physicalMemory: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages * size : 1 << 30
    }

    /// The cgroup v2 memory limit of this process, `nil` when unlimited or not on cgroup v2.
    static func cgroupLimit(procSelfCgroup: String = "/proc/self/cgroup", root: String = "/sys/fs/cgroup") -> Int? {
        guard var path = cgroupPath(procSelfCgroup: procSelfCgroup) else { return nil }
        while true {
            if let text = readSmallFile(root + path + "/memory.max") {
                let value = text.trimmingCharacters(in: " \n")
                if let bytes = Int(value) { return bytes }
            }
            guard path != "/" && !path.isEmpty, let slash = path.lastIndex(of: "/") else { return nil }
            path = slash == path.startIndex ? "/" : String(path[..<slash])
            if path == "/" { return nil }  // the root cgroup has no memory.max
        }
    }

    /// This process's cgroup v2 path (`/` for the root), from the single `0::/path` line of
    /// `/proc/self/cgroup`; `nil` when not on cgroup v2.
    package static func cgroupPath(procSelfCgroup: String = "/proc/self/cgroup") -> String? {
        guard let membership = readSmallFile(procSelfCgroup),
            let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        return String(line.dropFirst(3))
    }

    package static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
