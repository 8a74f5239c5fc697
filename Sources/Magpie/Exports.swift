// `import Magpie` brings the image layer too: decoding, thumbnails, processors and encoding
// live in `MagpieImage`, which builds without swift-nio, AsyncHTTPClient or swift-log.
@_exported import MagpieImage
