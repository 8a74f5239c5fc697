import MagpieImage

// Decodes one file to a thumbnail N times through the Swift API (what an image service does per
// request), for instruction counts under callgrind: `valgrind --tool=callgrind
// magpie-decode-bench FILE [SIZE] [N]`. Prints the size made, so the work cannot be skipped.
#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: magpie-decode-bench FILE [SIZE=256] [N=10]")
    exit(64)
}
let size = arguments.count > 2 ? Int(arguments[2]) ?? 256 : 256
let n = arguments.count > 3 ? Int(arguments[3]) ?? 10 : 10
var pixels = 0
for _ in 0..<n {
    let image = try Image(contentsOfFile: arguments[1], options: .thumbnail(size))
    pixels += image.width * image.height
}
print("\(n) thumbnails, \(pixels / n) pixels each")
