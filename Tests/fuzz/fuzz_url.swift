// libFuzzer harness over URL normalisation and redirect resolution (WebURL), built by
// scripts/fuzz.sh with swiftc -sanitize=fuzzer,address from the module's own source files.
// Input: "<url>\n<Location>". Whatever the bytes, nothing traps, and every URL that comes out is
// http(s) with a host and a port in 0–65535, already in normal form, and a redirect to another
// origin carries no credentials.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

private let fallbackBase = URL(string: "http://origin.example:8080/a/b?c=d")!
private let credentials: [HTTPHeaderField] = [
    HTTPHeaderField("Authorization", "Bearer x"), HTTPHeaderField("Cookie", "s=1"),
    HTTPHeaderField("Proxy-Authorization", "Basic eA=="), HTTPHeaderField("X-Secret", "y"),
    HTTPHeaderField("Accept", "image/*"),
]

private func checkOutgoing(_ url: URL, _ what: String) {
    precondition(WebURL.isWebScheme(url.scheme), "\(what): not http(s): \(url)")
    precondition(WebURL.portIsValid(url.absoluteString), "\(what): bad port: \(url)")
    precondition(url.host.map { !$0.isEmpty } == true, "\(what): no host: \(url)")
    if let port = url.port { precondition((0...65535).contains(port), "\(what): port \(port)") }
    let again = try? WebURL.normalized(url)
    precondition(
        again?.absoluteString == url.absoluteString, "\(what): not idempotent: \(url) -> \(String(describing: again))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let first = String(parts[0])
    let location = parts.count > 1 ? String(parts[1]) : first
    var base = fallbackBase
    if let given = URL(string: first), let normal = try? WebURL.normalized(given), WebURL.isWebScheme(normal.scheme) {
        checkOutgoing(normal, "normalized")
        base = normal
    }
    _ = WebURL.isNormalized(first)
    if let next = try? WebURL.redirectTarget(status: 302, location: location, from: base) {
        checkOutgoing(next, "redirect")
        let headers = WebURL.headersForRedirect(credentials, from: base, to: next, sensitive: ["x-secret"])
        if !WebURL.sameOrigin(base, next) {
            for field in headers {
                let name = field.name.lowercased()
                precondition(!WebURL.credentialHeaders.contains(name) && name != "x-secret", "credential followed")
            }
        } else {
            precondition(headers.count == credentials.count, "same origin lost headers")
        }
        _ = WebURL.withoutUserInfo(next)
    }
    return 0
}
