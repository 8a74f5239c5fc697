// libFuzzer harness over the service's request-target parser (ServicePath, Base64URL, PathRules,
// SourceReplacement), built by
// scripts/fuzz.sh with swiftc -sanitize=fuzzer,address from the module's own source files.
// Whatever the bytes, nothing traps; a parsed path keeps its promises (the signature is the
// first segment, `signed` is the rest of the path, options carry a `:`, an extension is short
// and lowercase), `%3A` decoding equals a plain byte-by-byte reference (as Go's, and so imgproxy's,
// byte-wise replacement: `%3a` followed by a combining mark is still a colon, where Swift's
// `replacing` on characters would not see it), and base64url decodes what it encodes.

private func colonsReference(_ text: String) -> String {
    let b = Array(text.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < b.count {
        if i + 2 < b.count, b[i] == 0x25, b[i + 1] == 0x33, b[i + 2] == 0x41 || b[i + 2] == 0x61 {
            out.append(0x3A)
            i += 3
        } else {
            out.append(b[i])
            i += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let byBytes = ServicePath.colonsDecoded(Substring(text))
    precondition(
        Array(byBytes.utf8) == Array(colonsReference(text).utf8), "colon decoding differs for \(text.debugDescription)")
    precondition(Base64URL.decode(Substring(Base64URL.encode(Array(bytes)))) == Array(bytes), "base64url round trip")
    for target in [text, "/" + text, "/sig/" + text, "/sig/rs:fit:1:1/plain/" + text] {
        guard let path = try? ServicePath.parse(target) else { continue }
        // In bytes, as the parser reads: a Character test would not see a `/` or `:` that a
        // neighbouring mark joins into one grapheme.
        let raw = target.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)
        precondition(
            Array(raw[0]) == Array(("/" + path.signature + path.signed).utf8), "signature and signed are the path")
        precondition(!path.signature.utf8.contains(UInt8(ascii: "/")) && path.signed.utf8.first == UInt8(ascii: "/"))
        precondition(path.options.allSatisfy { $0.utf8.contains(UInt8(ascii: ":")) && $0 != "plain" })
        precondition(!path.source.isEmpty)
        if let ext = path.ext { precondition((1...5).contains(ext.utf8.count) && ext == ext.lowercased()) }
    }
    // imgproxy's path variables: another separator, presets only, a file name after base64, and
    // source replacements with stars (greedy, in time linear in the source) and a base URL.
    var rules = PathRules()
    rules.argumentsSeparator = ","
    rules.base64IncludesFilename = true
    rules.baseURL = "http://base.example/"
    rules.replacements = SourceReplacement.list("s://*/*.=http://$1/${2}-$$-$9/;a*b*c=x${1}y") ?? []
    precondition(rules.replacements.count == 2, "the fuzzer's replacements parse")
    for only in [false, true] {
        rules.onlyPresets = only
        guard let path = try? ServicePath.parse("/sig/" + text, rules: rules) else { continue }
        precondition(path.source.utf8.starts(with: rules.baseURL.utf8), "the base URL starts every source")
        precondition(only ? path.options.isEmpty : path.options.allSatisfy { $0.utf8.contains(UInt8(ascii: ",")) })
        // Splitting at the separator and testing for it agree: every option splits in two or more.
        precondition(path.options.allSatisfy { rules.split($0).count >= 2 }, "an option with a separator splits")
    }
    // The source query separator: a storage source keeps one `?` at most (the separator's), every
    // other `?` and `#` of its key encoded; an http(s) source is kept as it is.
    for separator in ["", "|", "::"] {
        rules.sourceQuerySeparator = separator
        for scheme in ["s3://", "local://", "https://"] {
            let source = scheme + text
            let out = rules.separated(source)
            let marks = out.utf8.filter { $0 == UInt8(ascii: "?") }.count
            if scheme == "https://" {
                precondition(out == source, "http(s) keeps its own query")
            } else {
                precondition(marks <= (separator.isEmpty ? 0 : 1) && !out.utf8.contains(UInt8(ascii: "#")))
            }
        }
    }
    for replacement in rules.replacements {
        let out = replacement.apply(text)
        if !text.utf8.starts(with: (replacement.pattern.split(separator: "*").first.map(String.init) ?? "").utf8) {
            precondition(out == text, "a source the pattern does not start is kept")
        }
    }
    return 0
}
