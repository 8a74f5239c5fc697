/*
 * magpie.h — the public, stable C API of Magpie's image core.
 *
 * Sniff, probe, decode, downscale with shrink-on-load, apply EXIF orientation, encode and hash
 * (MD5) images held in memory. Which formats decode and encode in this build:
 * `magpie_format_decodable` and `magpie_format_encodable`.
 *
 * Conventions
 *  - Every function that can fail returns an `int` status: 0 (MAGPIE_OK) on success, a positive
 *    `magpie_status` value otherwise. Values are stable and never renumbered.
 *  - Pixels are 8-bit RGBA in memory order R, G, B, A, with *straight* (not premultiplied) alpha.
 *    Opaque sources get A = 255. Rows are `stride` bytes apart, stride >= width * 4.
 *  - Input bytes are borrowed for the duration of the call only; the library never keeps them.
 *  - Thread-safety: any function may be called from any thread at any time, and distinct calls
 *    share no data but this process-wide state, all of it thread-safe: the decode memory budget
 *    (`magpie_set_memory_budget`, atomic counters every decode charges), libavif when it is loaded
 *    on first use (once, under `pthread_once`), and tables built once on first use (CRC-32C's).
 *    A `magpie_image` must not be freed while another thread reads it.
 *  - Public structs start with `struct_size`: set it with the matching `*_init` function (or to
 *    sizeof(the struct)) so the library can grow the struct without breaking callers.
 *  - Hostile input is normal input: truncated, corrupt, unsupported or over-limit data returns an
 *    error. Limits are checked from the header before any pixel memory is allocated.
 */
#ifndef MAGPIE_H
#define MAGPIE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Building the shared library exports the API (MAGPIE_SHARED_BUILD); a program using the DLL
 * imports it (MAGPIE_SHARED); the static library needs neither. */
#if defined(_WIN32) && defined(MAGPIE_SHARED_BUILD)
#define MAGPIE_API __declspec(dllexport)
#elif defined(_WIN32) && defined(MAGPIE_SHARED)
#define MAGPIE_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define MAGPIE_API __attribute__((visibility("default")))
#else
#define MAGPIE_API
#endif

#define MAGPIE_VERSION_MAJOR 0
#define MAGPIE_VERSION_MINOR 1
#define MAGPIE_VERSION_PATCH 0
/** The version as one number: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define MAGPIE_VERSION_NUMBER \
    (MAGPIE_VERSION_MAJOR * 10000 + MAGPIE_VERSION_MINOR * 100 + MAGPIE_VERSION_PATCH)

/* ------------------------------------------------------------------------------------------ */
/* Status codes                                                                               */

/** Status codes returned by every fallible function. Values are stable. */
typedef enum magpie_status {
    MAGPIE_OK = 0,
    MAGPIE_EINVAL = 1,         /**< Invalid argument (NULL pointer, zero size, bad option). */
    MAGPIE_EUNKNOWN = 2,       /**< The bytes are not in any format Magpie recognises. */
    MAGPIE_EUNSUPPORTED = 3,   /**< Recognised format or feature Magpie does not decode. */
    MAGPIE_ETRUNCATED = 4,     /**< The data ends before the image is complete. */
    MAGPIE_ECORRUPT = 5,       /**< The data is malformed. */
    MAGPIE_ELIMIT_PIXELS = 6,  /**< Source pixels exceed `magpie_limits.max_pixels`. */
    MAGPIE_ELIMIT_MEMORY = 7,  /**< Decoding would allocate more than `magpie_limits.max_bytes`. */
    MAGPIE_ELIMIT_FRAMES = 8,  /**< Frame count or work exceeds `max_frames` / `max_frame_work`. */
    MAGPIE_ENOMEM = 9,         /**< The system allocator failed. */
    MAGPIE_EBUFFER = 10,       /**< A caller-provided buffer is too small. */
    MAGPIE_EENCODE = 11,       /**< The encoder failed. */
    MAGPIE_ERANGE = 12,        /**< A requested frame index does not exist. */
    MAGPIE_EINTERNAL = 13,     /**< A bug in Magpie or a codec library; please report it. */
    MAGPIE_EIO = 14,           /**< A file could not be opened or read (`*_file` functions). */
    MAGPIE_EBUDGET = 15        /**< The process-wide decode budget is taken by decodes in flight: retry. */
} magpie_status;

/** A static, human-readable English description of `status`. Never NULL; thread-safe. */
MAGPIE_API const char *magpie_strerror(int status);

/** The runtime version, `MAGPIE_VERSION_NUMBER` of the library actually loaded. */
MAGPIE_API unsigned magpie_version(void);
/** The runtime version as a static "MAJOR.MINOR.PATCH" string. */
MAGPIE_API const char *magpie_version_string(void);

/* ------------------------------------------------------------------------------------------ */
/* Formats and sniffing                                                                       */

/** Image formats: all are recognised; which decode is `magpie_format_decodable`'s to say. */
typedef enum magpie_format {
    MAGPIE_FORMAT_UNKNOWN = 0,
    MAGPIE_FORMAT_JPEG = 1,
    MAGPIE_FORMAT_PNG = 2,
    MAGPIE_FORMAT_GIF = 3,
    MAGPIE_FORMAT_WEBP = 4,
    MAGPIE_FORMAT_BMP = 5,
    MAGPIE_FORMAT_TIFF = 6,
    MAGPIE_FORMAT_HEIC = 7,
    MAGPIE_FORMAT_AVIF = 8,
    MAGPIE_FORMAT_ICO = 9,
    MAGPIE_FORMAT_SVG = 10,
    MAGPIE_FORMAT_PDF = 11,
    MAGPIE_FORMAT_JXL = 12 /**< JPEG XL (codestream or container). */
} magpie_format;

/**
 * The format of `data` from its first bytes, by full signature only (never by guess or extension).
 * Works on a prefix: 16 bytes identify every binary format, SVG needs the text up to its `<svg`
 * tag (looked for in the first 4 KiB). Returns MAGPIE_FORMAT_UNKNOWN for NULL or unrecognised data.
 */
MAGPIE_API magpie_format magpie_sniff(const void *data, size_t size);

/**
 * As `magpie_sniff`, for the file at `path`: reads its first 4 KiB, nothing more (a probe of a
 * GIF walks the whole file; this is the cheap way to choose a decode path first).
 * - Returns MAGPIE_OK with `*format` set (MAGPIE_FORMAT_UNKNOWN for an empty or unrecognised
 *   file); MAGPIE_EINVAL for NULL pointers; MAGPIE_EIO when the file cannot be opened or read,
 *   or is not a regular file.
 */
MAGPIE_API int magpie_sniff_file(const char *path, magpie_format *format);

/** Lowercase name of a format: "jpeg", "png", "gif", …, "unknown". Static; never NULL. */
MAGPIE_API const char *magpie_format_name(magpie_format format);

/** The media type of a format: "image/jpeg", "image/png", …, "application/pdf"; NULL for
 *  MAGPIE_FORMAT_UNKNOWN and values that are no format. Static. */
MAGPIE_API const char *magpie_format_media_type(magpie_format format);

/**
 * Whether this build decodes `format`: 1 for JPEG, PNG and GIF always, for WebP and AVIF when the
 * library was built with libwebp / libavif (CMake `MAGPIE_WITH_WEBP` / `MAGPIE_WITH_AVIF`, on when
 * pkg-config finds them); 0 for formats it only recognises (their decode is MAGPIE_EUNSUPPORTED).
 * A build that loads libavif on the first AVIF decode (`MAGPIE_AVIF_DLOPEN`) answers for AVIF
 * without loading it: 1 when the library is loaded or there to load (dlopen's search path holds
 * its soname); should it then fail to load, that decode is MAGPIE_EUNSUPPORTED with the reason.
 */
MAGPIE_API int magpie_format_decodable(magpie_format format);

/** Whether `magpie_encode` writes `format`: 1 for PNG and JPEG always; WebP with libwebp; AVIF and
 *  JPEG XL when libavif / libjxl are there to load; GIF when libimagequant is; else 0. */
MAGPIE_API int magpie_format_encodable(magpie_format format);

/** Whether libimagequant is there to load (PNG palettes, `palette_colors`, and GIF output), without
 *  loading it. */
MAGPIE_API int magpie_palette_available(void);

/* ------------------------------------------------------------------------------------------ */
/* Probing                                                                                    */

#define MAGPIE_INFO_HAS_ALPHA 0x1u   /**< The source has an alpha channel or transparency. */
#define MAGPIE_INFO_PROGRESSIVE 0x2u /**< Progressive JPEG. */
#define MAGPIE_INFO_INTERLACED 0x4u  /**< Interlaced PNG (Adam7) or a GIF with interlaced frames. */
#define MAGPIE_INFO_ANIMATED 0x8u    /**< More than one frame. */

/** What a probe reads from the header. Fill `struct_size` with `magpie_info_init`. */
typedef struct magpie_info {
    uint32_t struct_size;
    magpie_format format;
    uint32_t width;       /**< Stored width, before EXIF orientation. 0 when not known. */
    uint32_t height;      /**< Stored height, before EXIF orientation. 0 when not known. */
    uint32_t frames;      /**< Frames declared (GIF: image count; APNG: acTL count); 1 for stills. */
    uint32_t orientation; /**< EXIF orientation 1–8 (JPEG APP1); 1 when absent or invalid. */
    uint32_t bit_depth;   /**< Bits per sample as stored (JPEG precision, PNG bit depth, GIF 8). */
    uint32_t components;  /**< Stored channels (JPEG components, PNG channels); 0 when not known. */
    uint32_t flags;       /**< MAGPIE_INFO_* bits. */
    int32_t loop_count;   /**< Repeats after the first play (0 = forever), GIF's NETSCAPE count; a WebP's
                               ANIM count of plays is read as that (plays - 1); -1 when absent (play once). */
} magpie_info;

/** Sets `info` to zeros with `struct_size` filled in. */
MAGPIE_API void magpie_info_init(magpie_info *info);

/**
 * Reads the format and header facts of `data` without decoding pixels and without allocating.
 * For GIF it walks the block structure to count frames (no LZW decoding).
 * Every format's size comes from its header (an icon's from its largest entry, a TIFF's from its
 * first IFD wherever it lies, a JPEG XL's from its codestream header); recognised-only formats
 * (SVG, PDF) probe successfully with their format, and a size where the header gives one.
 * - Returns: MAGPIE_OK; MAGPIE_EINVAL for NULL pointers; MAGPIE_EUNKNOWN when nothing is
 *   recognised; MAGPIE_ETRUNCATED when the header is cut short; MAGPIE_ECORRUPT when it is
 *   malformed (zero width, say). On error, `info->format` still holds the sniffed format.
 */
MAGPIE_API int magpie_probe(const void *data, size_t size, magpie_info *info);

/**
 * As `magpie_probe`, reading the file at `path` (only the bytes the header walk needs; a GIF's
 * block structure is walked through the whole file).
 * - Returns MAGPIE_EIO when the file cannot be opened or read (missing, a directory, no
 *   permission), MAGPIE_EUNKNOWN for an empty file, else as `magpie_probe`.
 */
MAGPIE_API int magpie_probe_file(const char *path, magpie_info *info);

/* ------------------------------------------------------------------------------------------ */
/* Decoding                                                                                   */

/** Default limits (see magpie_limits). */
#define MAGPIE_DEFAULT_MAX_PIXELS 300000000ull
#define MAGPIE_DEFAULT_MAX_BYTES (1ull << 30)
#define MAGPIE_DEFAULT_MAX_FRAMES 5000u
#define MAGPIE_DEFAULT_MAX_FRAME_WORK 1000u

/**
 * Resource limits enforced on every decode. A field left 0 takes its default.
 * - max_pixels: stored width × height of the source (default 300 million).
 * - max_bytes: everything the decode needs: output frames (a caller's buffer for
 *   `magpie_decode_into` counts too), intermediate buffers and codec state such as a progressive
 *   JPEG's coefficients (default 1 GiB). A shrink-on-load thumbnail of
 *   a huge JPEG fits where its full decode does not.
 * - max_frames: frames of an animation (default 5000). A one-frame decode reads, and counts,
 *   the frames up to the one it asks for; a whole-animation decode, all of them.
 * - max_frame_work: the work an animation may take, in millions of canvas pixels: each frame
 *   delivered costs the whole canvas (it is composited and resampled), each frame decoded on the
 *   way its own rectangle (default 1000, a thousand megapixels). Frames delivered × canvas is
 *   checked before decoding starts; the rest as frames arrive. Over it: MAGPIE_ELIMIT_FRAMES.
 *   (A 115 KB GIF can declare 5000 frames of a 4000×4000 canvas: 80 000 megapixels.)
 */
typedef struct magpie_limits {
    uint64_t max_pixels;
    uint64_t max_bytes;
    uint32_t max_frames;
    uint32_t max_frame_work; /* in the padding that followed max_frames: the layout is unchanged */
} magpie_limits;

/** How the output size is chosen. All sizes are of the *upright* image (after orientation). */
typedef enum magpie_fit {
    MAGPIE_FIT_NONE = 0,      /**< Full size. */
    MAGPIE_FIT_INSIDE = 1,    /**< Largest size that fits inside width × height, aspect kept. */
    MAGPIE_FIT_FILL = 2,      /**< Cover width × height with aspect kept, centre-cropped to it. */
    MAGPIE_FIT_EXACT = 3,     /**< Exactly width × height; aspect not kept. */
    MAGPIE_FIT_MAX_PIXELS = 4 /**< Aspect kept, at most `max_output_pixels` pixels. */
} magpie_fit;

/**
 * Resampling filters for the final resize (after shrink-on-load). Magpie never uses nearest
 * neighbour. Lanczos3 (a = 3, windowed sinc) is the default; Mitchell is softer; bilinear (triangle)
 * is the fastest. Filtering runs on premultiplied alpha, so transparent edges get no dark fringe.
 */
typedef enum magpie_filter {
    MAGPIE_FILTER_LANCZOS3 = 0,
    MAGPIE_FILTER_MITCHELL = 1,
    MAGPIE_FILTER_BILINEAR = 2
} magpie_filter;

#define MAGPIE_DECODE_KEEP_ORIENTATION 0x1u /**< Do not apply EXIF orientation. */
#define MAGPIE_DECODE_ONE_FRAME 0x2u        /**< Only frame `frame_index` (GIF: composited). */
#define MAGPIE_DECODE_ALLOW_UPSCALE 0x4u    /**< Let FIT_* targets enlarge the image. */
/** Throughput over fidelity: shrink-on-load (JPEG DCT scaling, WebP's scaled decode) keeps just
 *  more than the target size (JPEG: the smallest DCT scale larger than it; WebP: the target) rather
 *  than twice it, as Pillow's `draft` does, so the final filter has less detail to work with (see
 *  the README for the cost in dB). */
#define MAGPIE_DECODE_FAST 0x8u
/** Keep the source's colour profile: pixels as stored, the profile on the image
 *  (`icc_profile`), for an encoder to embed. Without it (the default, as imgproxy does) pixels of
 *  a source with an ICC profile (JPEG APP2, PNG iCCP, WebP ICCP, AVIF colr) are converted to sRGB
 *  after the resize and the image has no profile. CMYK JPEGs are converted either way. */
#define MAGPIE_DECODE_KEEP_PROFILE 0x10u
/** Decode a JPEG's EXIF thumbnail (inputs in memory) in place of the image when it is at least
 *  the output's size and of the image's shape (imgproxy's `enforce_thumbnail`, but only where no
 *  detail is lost to it: the output is what the image would give). HEIC does this by itself with
 *  its thumbnail items. The image's orientation applies to the thumbnail. */
#define MAGPIE_DECODE_THUMBNAIL 0x20u
/** No shrink-on-load: JPEG and WebP are decoded at their full size and the resampler alone makes
 *  the output (imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`): slower, the most detail kept. Wins
 *  over MAGPIE_DECODE_FAST. */
#define MAGPIE_DECODE_NO_SHRINK 0x40u
/** Resample in linear light: each sRGB sample is decoded to linear light before the filters and
 *  encoded again after them (imgproxy's `IMGPROXY_USE_LINEAR_COLORSPACE`, libvips's scRGB), so fine
 *  light-and-dark detail averages to its true brightness rather than darker. Slower (no fixed-point
 *  path); a copy or crop with no resize is unchanged. */
#define MAGPIE_DECODE_LINEAR 0x80u

/** An orientation (1–8, as `magpie_transform` takes it) applied after the EXIF orientation (or
 *  none, with KEEP_ORIENTATION), composed with it into one transform while rows are written: a
 *  rotation costs no second pass. Targets and output sizes are of the transformed image. */
#define MAGPIE_DECODE_TRANSFORM(orientation) (((uint32_t)(orientation) & 0xFu) << 8)

/** Options of a decode. Initialise with `magpie_decode_options_init`, then change fields. */
typedef struct magpie_decode_options {
    uint32_t struct_size;
    uint32_t flags;             /**< MAGPIE_DECODE_* bits. */
    magpie_limits limits;       /**< 0 fields take defaults. */
    magpie_fit fit;             /**< Default MAGPIE_FIT_NONE. */
    uint32_t width;             /**< Target width for FIT_INSIDE, FIT_FILL, FIT_EXACT. */
    uint32_t height;            /**< Target height for FIT_INSIDE, FIT_FILL, FIT_EXACT. */
    uint64_t max_output_pixels; /**< Target for FIT_MAX_PIXELS. */
    magpie_filter filter;       /**< Default MAGPIE_FILTER_LANCZOS3. */
    uint32_t frame_index;       /**< With MAGPIE_DECODE_ONE_FRAME: which frame (0 = first). */
    char *error_detail;         /**< Optional: receives the codec's own message on failure. */
    size_t error_detail_size;   /**< Size of `error_detail` in bytes. */
} magpie_decode_options;

/** Sets defaults: no resize, Lanczos3, orientation applied, all frames, default limits. */
MAGPIE_API void magpie_decode_options_init(magpie_decode_options *options);

/** A decoded image owned by the library; release with `magpie_image_free`. */
typedef struct magpie_image {
    uint32_t struct_size;
    uint32_t width;           /**< Output width (upright unless KEEP_ORIENTATION). */
    uint32_t height;          /**< Output height. */
    uint32_t stride;          /**< Bytes per row: width * 4. */
    uint32_t frame_count;     /**< Frames in `pixels`; 1 for stills. */
    int32_t loop_count;       /**< GIF loop count (0 = forever), -1 when not given. */
    magpie_format format;     /**< Source format. */
    uint32_t orientation;     /**< Source EXIF orientation (1–8), applied unless asked not to. */
    uint32_t source_width;    /**< Stored source width. */
    uint32_t source_height;   /**< Stored source height. */
    uint8_t *pixels;          /**< frame_count * height * stride bytes; frame i at i*height*stride. */
    uint32_t *delays_ms;      /**< frame_count delays in milliseconds (0 for stills). */
    /* Added with colour management (the library allocates the struct: no caller builds one). */
    uint32_t flags;           /**< MAGPIE_IMAGE_* bits: what became of the source's profile. */
    uint8_t *icc_profile;     /**< With MAGPIE_DECODE_KEEP_PROFILE: the source's ICC profile. */
    size_t icc_profile_size;  /**< Its size in bytes; 0 when there is none. */
} magpie_image;

#define MAGPIE_IMAGE_PROFILE_CONVERTED 0x1u /**< Pixels converted to sRGB through the source's profile. */
#define MAGPIE_IMAGE_PROFILE_KEPT 0x2u      /**< Pixels as stored; the profile is `icc_profile`. */
/** The source had a profile that could not be used (too large, malformed, another colour space
 *  than the pixels', refused by lcms2): pixels as stored, untagged. */
#define MAGPIE_IMAGE_PROFILE_IGNORED 0x4u

/**
 * The width and height `magpie_decode`/`magpie_decode_into` would produce for these options,
 * computed from the header alone. `options` may be NULL (defaults).
 * - Returns the probe's errors, MAGPIE_EUNSUPPORTED for formats that do not decode, limit errors.
 */
MAGPIE_API int magpie_output_size(const void *data, size_t size,
                                  const magpie_decode_options *options, uint32_t *width,
                                  uint32_t *height);

/**
 * Decodes `data` into a new image. `options` may be NULL (defaults). On success `*out` owns a
 * library allocation: free it with `magpie_image_free`. On failure `*out` is NULL.
 * JPEG uses shrink-on-load (DCT scaling 1/2…1/8) when a target allows it; PNG streams rows
 * through the resampler (interlaced PNGs need the whole image); GIF composites each frame
 * (disposal 0–3, transparency, local palettes, interlace) and scales it.
 * Missing image data is an error (a truncated JPEG fails although libjpeg only warns); benign
 * damage that does not lose pixels (extraneous bytes between markers) is not.
 * PNG: gAMA, cHRM, iCCP and sRGB are ignored: samples are delivered as stored (as browsers without
 * colour management, Pillow and libvips do); 16-bit samples are scaled to 8 bits with rounding.
 * - Returns MAGPIE_OK or an error; the message of the codec goes to `options->error_detail`.
 */
MAGPIE_API int magpie_decode(const void *data, size_t size, const magpie_decode_options *options,
                             magpie_image **out);

/**
 * Decodes one frame (`options->frame_index` when MAGPIE_DECODE_ONE_FRAME is set, else the first)
 * into the caller's buffer of `buffer_size` bytes with rows `stride` bytes apart. Ask the size
 * first with `magpie_output_size`. Returns MAGPIE_EBUFFER when the buffer is too small (nothing is
 * written then). On any error the buffer's contents are unspecified.
 */
MAGPIE_API int magpie_decode_into(const void *data, size_t size,
                                  const magpie_decode_options *options, uint8_t *pixels,
                                  size_t stride, size_t buffer_size);

/**
 * File variants of `magpie_output_size`, `magpie_decode` and `magpie_decode_into`: they read the
 * file at `path` through a small window with positional reads instead of needing its bytes in
 * memory, so a thumbnail of a large non-interlaced PNG or any JPEG holds only a few rows of it.
 * The file should not change while it is read; if it shrinks, the decode fails as truncated.
 * - Returns MAGPIE_EIO when the file cannot be opened or read (`error_detail` says why), else as
 *   the in-memory functions.
 */
MAGPIE_API int magpie_output_size_file(const char *path, const magpie_decode_options *options,
                                       uint32_t *width, uint32_t *height);
MAGPIE_API int magpie_decode_file(const char *path, const magpie_decode_options *options,
                                  magpie_image **out);
MAGPIE_API int magpie_decode_file_into(const char *path, const magpie_decode_options *options,
                                       uint8_t *pixels, size_t stride, size_t buffer_size);

/** Frees an image from `magpie_decode`. NULL is allowed. */
MAGPIE_API void magpie_image_free(magpie_image *image);

/* ------------------------------------------------------------------------------------------ */
/* The decoder handle: the header parsed once                                                 */

/**
 * A decode in steps (as libspng's context): open (the header is parsed once, with the options),
 * ask for the source's info and the output size, then decode once into a buffer or a new image,
 * and free. The one-call functions above do the same, each parsing the header again.
 */
typedef struct magpie_decoder magpie_decoder;

/**
 * Opens a decoder over `data`, which stays borrowed until `magpie_decoder_free`, with `options`
 * (copied; NULL for defaults; their `error_detail` buffer must outlive the decoder).
 * - Returns MAGPIE_OK with `*out` set, or what `magpie_decode` returns for the header (format,
 *   limits, options), with `*out` NULL; MAGPIE_EINVAL for NULL or empty input.
 */
MAGPIE_API int magpie_decoder_open(const void *data, size_t size, const magpie_decode_options *options,
                                   magpie_decoder **out);
/** As `magpie_decoder_open`, reading the file at `path` through a window as the decode needs it. */
MAGPIE_API int magpie_decoder_open_file(const char *path, const magpie_decode_options *options,
                                        magpie_decoder **out);
/**
 * The source's info, as `magpie_probe` gives it (an animation's frames counted as far as the
 * decode needs: all of them, or up to the one asked for). `info->struct_size` must be set.
 */
MAGPIE_API int magpie_decoder_info(const magpie_decoder *decoder, magpie_info *info);
/** The size the decode produces (upright, after the fit), as `magpie_output_size` says. */
MAGPIE_API int magpie_decoder_output_size(const magpie_decoder *decoder, uint32_t *width, uint32_t *height);
/**
 * Decodes one frame into the caller's buffer, as `magpie_decode_into`. A decoder decodes once:
 * a second decode is MAGPIE_EINVAL.
 */
MAGPIE_API int magpie_decoder_decode_into(magpie_decoder *decoder, uint8_t *pixels, size_t stride,
                                          size_t buffer_size);
/** Decodes into a new image, every frame the options ask for, as `magpie_decode`; once. */
MAGPIE_API int magpie_decoder_decode(magpie_decoder *decoder, magpie_image **out);
/** Releases the decoder (closing its file); NULL is allowed. */
/**
 * After `magpie_decoder_decode_into`: what became of the source's colour profile
 * (MAGPIE_IMAGE_PROFILE_* in `*flags`) and, when it was kept (MAGPIE_DECODE_KEEP_PROFILE), the
 * profile (`*icc_profile`, valid until the handle is freed; NULL and 0 otherwise). An image from
 * `magpie_decoder_decode` carries both itself.
 */
MAGPIE_API int magpie_decoder_color(const magpie_decoder *decoder, uint32_t *flags, const uint8_t **icc_profile,
                                    size_t *icc_profile_size);
MAGPIE_API void magpie_decoder_free(magpie_decoder *decoder);

/**
 * Decodes the next frame into the caller's buffer (the output size, as `magpie_decode_into`),
 * frames in order, one at a time: each composited (GIF disposal, WebP blending) and resampled with
 * the plan made once at open, so memory is the canvas, one frame and the codec's state however
 * many frames there are. `*delay_ms` (may be NULL) gets the frame's delay. A still image (or
 * MAGPIE_DECODE_ONE_FRAME) gives one frame. After the last: MAGPIE_ERANGE. Each frame delivered
 * counts against `max_frame_work` as it comes. A handle either iterates or decodes once.
 */
MAGPIE_API int magpie_decoder_next_frame(magpie_decoder *decoder, uint8_t *pixels, size_t stride,
                                         size_t buffer_size, uint32_t *delay_ms);
/** Frames the iteration gives (an APNG's default image and a TIFF's page: 1) and the loop count
 *  (0 = forever, -1 when not given; known for WebP once the first frame is read). */
MAGPIE_API int magpie_decoder_frame_count(const magpie_decoder *decoder, uint32_t *frames, int32_t *loop_count);

/* ------------------------------------------------------------------------------------------ */

/* ---- resampling decoded pixels ---------------------------------------------------------------- */

/** A rectangle of pixels: origin (x, y), size width × height. */
typedef struct magpie_rect {
    uint32_t x, y, width, height;
} magpie_rect;

/** RGBA8 pixels (straight alpha): `width` × `height`, rows `stride` bytes apart. */
typedef struct magpie_pixels {
    uint8_t *pixels; /**< Read only when the pixels are a source. */
    uint32_t width;
    uint32_t height;
    size_t stride;   /**< At least width * 4. */
} magpie_pixels;

/** Options of a resample. Initialise with `magpie_resize_options_init`, then change fields. */
typedef struct magpie_resize_options {
    uint32_t struct_size;
    const magpie_rect *window;  /**< The part of the source to resample; NULL: all of it. */
    magpie_filter filter;       /**< Default MAGPIE_FILTER_LANCZOS3. */
    uint64_t max_output_pixels; /**< Largest output; 0 takes MAGPIE_DEFAULT_MAX_PIXELS. */
    char *error_detail;         /**< Optional: receives why the arguments were refused. */
    size_t error_detail_size;   /**< Size of `error_detail` in bytes. */
    int linear_light;           /**< Non-zero: filter in linear light (as MAGPIE_DECODE_LINEAR). Added
                                     in 0.9: a caller's struct without it resamples in sRGB. */
} magpie_resize_options;

/** Sets defaults: the whole source, Lanczos3, the default pixel limit, no detail. */
MAGPIE_API void magpie_resize_options_init(magpie_resize_options *options);

/**
 * Resamples `options->window` of `src` (the whole image when NULL) to `dst->width` × `dst->height`
 * pixels in `dst->pixels`, with the same filters as a decode (premultiplied alpha, integer box
 * pre-shrink for large factors). A window the size of the output is copied exactly (a crop).
 * `dst` must not overlap `src`: output rows are written while source rows are still being read.
 * `options` may be NULL (defaults).
 * - Returns MAGPIE_EINVAL for NULL pointers, zero sizes, strides below width * 4, overlapping
 *   buffers, a window outside the image, an unknown filter or an options struct too small;
 *   MAGPIE_ELIMIT_PIXELS when the output exceeds `max_output_pixels`; MAGPIE_ENOMEM. The reason
 *   goes to `error_detail`.
 */
MAGPIE_API int magpie_resample(const magpie_pixels *src, const magpie_pixels *dst,
                               const magpie_resize_options *options);

/* ------------------------------------------------------------------------------------------ */
/* Processing pixels: blur, sharpen, rotate and flip, round corners, colour, pad, composite      */
/*
 * Every function here works on `magpie_pixels` (8-bit RGBA, straight alpha) and follows the
 * conventions above: NULL pointers, zero sizes, strides below width * 4, sizes that disagree and
 * parameters out of range (NaN, infinities, negative radii) are MAGPIE_EINVAL before any pixel is
 * touched; MAGPIE_ENOMEM when scratch memory cannot be had (then `dst` is unspecified). Scratch
 * memory is a few rows, never a second image. Where a function says `dst` may be `src`, it works
 * in place; otherwise the two must not overlap. Thread-safe: calls share nothing.
 */

/** The largest sigma `magpie_blur` and `magpie_sharpen` take (a kernel of 601 taps). */
#define MAGPIE_MAX_SIGMA 100.0

/**
 * Gaussian blur of `src` into `dst` (the same size, not overlapping `src`): separable, a kernel of
 * 2 * ceil(3 * sigma) + 1 taps (normalised), edges extended (the border pixel repeats), computed
 * on premultiplied alpha so transparent pixels lend no colour. A sigma below 0.15 (side taps under
 * 1e-9 of the centre) copies the pixels unchanged.
 * - Returns MAGPIE_EINVAL for sigma NaN, negative or over MAGPIE_MAX_SIGMA, or bad or overlapping
 *   pixels.
 */
MAGPIE_API int magpie_blur(const magpie_pixels *src, const magpie_pixels *dst, double sigma);

/**
 * Unsharp mask on luma. With Y the Rec. 709 luma of a pixel and m its Gaussian-weighted local mean
 * (weighted by alpha), d = Y - m; where |d| > threshold, e = amount * (|d| - threshold) with d's
 * sign, capped at `max_brighten` above and `max_darken` below, is added to R, G and B (alpha is
 * kept). All levels are 0–255. `magpie_sharpen_options_init` sets sigma 1, amount 1, threshold 0,
 * no caps (255). libvips's `vips_sharpen` defaults, in these units, are sigma 0.5, amount 3,
 * threshold 5, max_brighten 25, max_darken 51 (the Swift layer's `Sharpening.afterResize`).
 */
typedef struct magpie_sharpen_options {
    uint32_t struct_size;
    double sigma;        /**< 0 to MAGPIE_MAX_SIGMA; below 0.15 nothing changes. */
    double amount;       /**< 0 (no change) to 100. */
    double threshold;    /**< 0–255. */
    double max_brighten; /**< 0–255. */
    double max_darken;   /**< 0–255. */
} magpie_sharpen_options;

MAGPIE_API void magpie_sharpen_options_init(magpie_sharpen_options *options);

/**
 * Sharpens `src` into `dst` (the same size, not overlapping `src`). `options` NULL takes the defaults.
 * - Returns MAGPIE_EINVAL for a parameter out of its range (NaN included) or bad pixels.
 */
MAGPIE_API int magpie_sharpen(const magpie_pixels *src, const magpie_pixels *dst,
                              const magpie_sharpen_options *options);

/**
 * The orientation (EXIF numbering 1–8) of applying `first`, then `then`: rotations and flips compose
 * into one. Rotating clockwise by 90, 180, 270 degrees is 6, 3, 8; a horizontal flip 2, a vertical
 * flip 4. A value outside 1–8 counts as 1.
 */
MAGPIE_API uint32_t magpie_orientation_compose(uint32_t first, uint32_t then);

/**
 * Writes `src` transformed by `orientation` (1–8, as EXIF: 6 turns it 90 degrees clockwise) into
 * `dst`, which is `src`'s size, or its height × width for 5–8. Exact: pixels are moved, never
 * resampled. `dst` must not overlap `src`.
 * - Returns MAGPIE_EINVAL for an orientation outside 1–8, a `dst` of the wrong size, bad pixels.
 */
MAGPIE_API int magpie_transform(const magpie_pixels *src, const magpie_pixels *dst, uint32_t orientation);

#define MAGPIE_CORNER_TOP_LEFT 0x1u
#define MAGPIE_CORNER_TOP_RIGHT 0x2u
#define MAGPIE_CORNER_BOTTOM_LEFT 0x4u
#define MAGPIE_CORNER_BOTTOM_RIGHT 0x8u
#define MAGPIE_CORNER_ALL 0xFu

/** Options of `magpie_round_corners`. Initialise with `magpie_corner_options_init`. */
typedef struct magpie_corner_options {
    uint32_t struct_size;
    double radius;         /**< Corner radius in pixels, 0 up; above half the shorter side it is
                                that half (a square with radius >= side / 2 becomes a circle). */
    uint32_t corners;      /**< MAGPIE_CORNER_* bits to round (default all). */
    double border_width;   /**< A border inside the edge, along the rounded outline; 0: none. */
    uint32_t border_color; /**< 0xRRGGBBAA, straight alpha (default opaque black). */
} magpie_corner_options;

MAGPIE_API void magpie_corner_options_init(magpie_corner_options *options);

/**
 * Rounds the corners of `pixels` in place: each pixel's alpha is multiplied by the exact area of
 * the pixel inside the rounded rectangle (anti-aliased, not a mask); the border, when asked, is
 * drawn over the image in the band between that outline and the one `border_width` inside it.
 * - Returns MAGPIE_EINVAL for a NaN, infinite or negative radius or width, or bad pixels.
 */
MAGPIE_API int magpie_round_corners(const magpie_pixels *pixels, const magpie_corner_options *options);

/**
 * Colour controls, applied in this order: saturation (1 keeps it, 0 is Rec. 709 grayscale, up to
 * 10), contrast (a factor around level 128: 1 keeps it, 0 to 10), brightness (levels added,
 * -255 to 255), then tint (the result mixed with `tint` 0xRRGGBB by `tint_amount`, 0–1). Alpha is
 * kept. `magpie_color_options_init` sets the identity, which returns `src` unchanged.
 */
typedef struct magpie_color_options {
    uint32_t struct_size;
    double saturation;
    double contrast;
    double brightness;
    uint32_t tint;
    double tint_amount;
} magpie_color_options;

MAGPIE_API void magpie_color_options_init(magpie_color_options *options);

/**
 * Applies colour controls to `src` into `dst` (the same size; `dst` may be `src`).
 * - Returns MAGPIE_EINVAL for a value out of its range (NaN included) or bad pixels.
 */
MAGPIE_API int magpie_adjust_color(const magpie_pixels *src, const magpie_pixels *dst,
                                   const magpie_color_options *options);

/**
 * Pads `src` with `color` (0xRRGGBBAA, straight alpha) into the larger `dst`, `src` at
 * (`left`, `top`): `dst` must be at least left + src width wide and top + src height high.
 */
MAGPIE_API int magpie_pad(const magpie_pixels *src, const magpie_pixels *dst, uint32_t left, uint32_t top,
                          uint32_t color);

/**
 * Flattens alpha: composites `src` over the opaque colour `rgb` (0xRRGGBB) into `dst` (the same
 * size; `dst` may be `src`), whose alpha is then 255 everywhere.
 */
MAGPIE_API int magpie_flatten(const magpie_pixels *src, const magpie_pixels *dst, uint32_t rgb);

/**
 * Composites `overlay` over `base` in place (Porter-Duff "over", straight alpha in and out) with
 * the overlay's top-left corner at (`x`, `y`) of the base, which may be negative or beyond the
 * base (what falls outside is clipped), its alpha scaled by `opacity` (0–1). An overlay wholly
 * outside leaves `base` as it was.
 * - Returns MAGPIE_EINVAL for opacity NaN or out of 0–1, or bad pixels.
 */
MAGPIE_API int magpie_composite(const magpie_pixels *base, const magpie_pixels *overlay, int64_t x, int64_t y,
                                double opacity);

/**
 * Smart crop: where a `width` × `height` window of `src` holds the most of what draws the eye, as
 * libvips's `attention` strategy judges it: edges (Sobel on CIE L*), skin tones (a* 3–22, b* 4–31,
 * L* at least 15) and saturated colour (chroma over 60), found on a copy averaged down to at most
 * 64 cells along the longer side and weighted by alpha. Every window position (at most 513 along
 * an axis, evenly spread) is scored by the attention it holds; the best wins, and a tie goes to the
 * position nearest the centre, so an image with nothing in it is centre-cropped. Writes the window
 * to `crop` (its size is `width` × `height`). Meant for the already shrunk image: the cost is one
 * pass over `src` plus a few hundred kilobytes of scratch.
 * - Returns MAGPIE_EINVAL for bad pixels, a NULL `crop`, or a window of zero size or larger than
 *   `src`; MAGPIE_ENOMEM.
 */
MAGPIE_API int magpie_attention_crop(const magpie_pixels *src, uint32_t width, uint32_t height, magpie_rect *crop);

/** Options of `magpie_find_trim`. Initialise with `magpie_trim_options_init`, then change fields. */
typedef struct magpie_trim_options {
    uint32_t struct_size;
    uint32_t threshold;        /**< 0–255: how far a channel may differ and still be background (default 10). */
    int use_color;             /**< Non-zero: the background is `color`; zero: the top-left pixel's. */
    uint32_t color;            /**< 0xRRGGBBAA, with `use_color`. */
    int equal_horizontal;      /**< Cut the lesser of the left and right margins from both sides. */
    int equal_vertical;        /**< Cut the lesser of the top and bottom margins from both sides. */
} magpie_trim_options;

MAGPIE_API void magpie_trim_options_init(magpie_trim_options *options);

/**
 * Trim (imgproxy's `trim`, libvips's find_trim): writes to `bounds` the smallest rectangle of
 * `src` holding every pixel unlike the background, where a pixel is background when each of R, G,
 * B and alpha is within `threshold` of the background's, or when both are fully transparent. An
 * image that is all background gives the whole image.
 * - Returns MAGPIE_EINVAL for bad pixels, NULL options or bounds, a threshold over 255 or an
 *   options struct too small.
 */
MAGPIE_API int magpie_find_trim(const magpie_pixels *src, const magpie_trim_options *options, magpie_rect *bounds);

/**
 * Pixelate: every `size` × `size` block of `src` (clipped at the right and bottom edges) becomes
 * its mean colour, weighted by alpha, in `dst` (the same size; `dst` may be `src`).
 * - Returns MAGPIE_EINVAL for a size of 0 or bad or overlapping pixels.
 */
MAGPIE_API int magpie_pixelate(const magpie_pixels *src, const magpie_pixels *dst, uint32_t size);

/* ---- rights metadata ------------------------------------------------------------------------ */

/** What an image's EXIF says of its rights: IFD0's Copyright and Artist, printable ASCII. */
typedef struct magpie_rights {
    char copyright[256]; /**< Empty when absent. */
    char artist[256];    /**< Empty when absent. */
} magpie_rights;

/**
 * Reads the Copyright and Artist of the EXIF in a JPEG (APP1), PNG (eXIf), WebP (EXIF chunk) or
 * TIFF (IFD0). Text is cut at its first NUL, control and non-ASCII bytes are dropped, at most 255
 * bytes are kept. A file without them (or not one of these) gives empty strings.
 * - Returns MAGPIE_EINVAL for a NULL `rights` (or NULL data with a size).
 */
MAGPIE_API int magpie_read_rights(const void *data, size_t size, magpie_rights *rights);

/**
 * A copy of the encoded JPEG, PNG or WebP `encoded` with an EXIF block holding only `rights`
 * (JPEG: an APP1 after any JFIF APP0; PNG: an eXIf chunk after IHDR; WebP: an EXIF chunk, the file
 * made extended with a VP8X of `width` × `height` when it was simple). Empty rights copy the file
 * unchanged. `*out` is for `magpie_free`.
 * - Returns MAGPIE_EINVAL for NULL pointers, a file under 12 bytes, or a simple WebP without a
 *   size (1 to 2^24 a side); MAGPIE_EUNSUPPORTED for other formats; MAGPIE_ECORRUPT when the
 *   container's first structures are inconsistent; MAGPIE_ENOMEM.
 */
MAGPIE_API int magpie_write_rights(const void *encoded, size_t size, const magpie_rights *rights, uint32_t width,
                                   uint32_t height, uint8_t **out, size_t *out_size);

/* Encoding                                                                                   */

typedef enum magpie_subsampling {
    MAGPIE_SUBSAMPLING_420 = 0, /**< Default: chroma halved both ways. */
    MAGPIE_SUBSAMPLING_444 = 1  /**< Full chroma. */
} magpie_subsampling;

/** libwebp's presets (cwebp's -preset): the filter strength, sharpness and noise shaping tuned to a
 *  kind of picture before `quality` and `method` apply. */
typedef enum magpie_webp_preset {
    MAGPIE_WEBP_PRESET_DEFAULT = 0,
    MAGPIE_WEBP_PRESET_PICTURE = 1, /**< Digital picture, such as a portrait or an inside shot. */
    MAGPIE_WEBP_PRESET_PHOTO = 2,   /**< Outdoor photograph, natural lighting. */
    MAGPIE_WEBP_PRESET_DRAWING = 3, /**< Hand or line drawing, high-contrast detail. */
    MAGPIE_WEBP_PRESET_ICON = 4,    /**< Small, colourful images. */
    MAGPIE_WEBP_PRESET_TEXT = 5     /**< Text-like. */
} magpie_webp_preset;

/** Options of `magpie_encode`. Initialise with `magpie_encode_options_init`. */
typedef struct magpie_encode_options {
    uint32_t struct_size;
    magpie_format format;           /**< MAGPIE_FORMAT_PNG (default), JPEG, WEBP, AVIF, JXL or GIF. */
    int quality;                    /**< JPEG, WebP, AVIF and JPEG XL quality 1–100; default 85. */
    magpie_subsampling subsampling; /**< JPEG chroma subsampling. */
    int compression_level;          /**< PNG zlib level 0–9; default 6. */
    uint32_t background;            /**< JPEG has no alpha: pixels are composited over this
                                         0xRRGGBB colour (default white, 0xFFFFFF). */
    /* Added with WebP; a caller built against the older, shorter struct gets the defaults. */
    int lossless; /**< WebP: 1 for lossless (then `quality` is the effort 0–100, as cwebp's
                       -q with -lossless); default 0, lossy at `quality`. */
    int method;   /**< WebP: effort 0 (fast) – 6 (small), cwebp's -m; default 4. */
    /* Added with colour management. */
    const uint8_t *icc_profile; /**< An ICC profile to embed (JPEG APP2, PNG iCCP, WebP ICCP, AVIF colr); NULL: none. */
    size_t icc_profile_size;    /**< Its size: at most 4 MiB, else MAGPIE_EINVAL. */
    /* Added with AVIF output. */
    int speed; /**< AVIF: the AV1 encoder's speed, 0 (slowest, smallest) – 10; default 8. */
    /* Added with JPEG XL output, PNG palettes and WebP presets. */
    int effort;         /**< JPEG XL: libjxl's effort, 1 (fastest) – 9 (smallest), cjxl's -e; default 7. */
    int palette_colors; /**< PNG: 0 (the default) for truecolour; 2–256 for a palette of at most that many
                             colours (libimagequant, loaded on first use; `magpie_palette_available`),
                             at the smallest bit depth that holds them, with a tRNS chunk where a colour
                             is not opaque. */
    magpie_webp_preset webp_preset; /**< WebP: libwebp's preset, cwebp's -preset; default MAGPIE_WEBP_PRESET_DEFAULT. */
    /* Added with progressive JPEG. */
    int progressive; /**< JPEG: 1 for progressive scans (libjpeg's simple progression, as cjpeg -progressive),
                          0 (the default) for baseline; any other value is MAGPIE_EINVAL. */
} magpie_encode_options;

/** Sets defaults: PNG, level 6, truecolour; JPEG quality 85, 4:2:0, baseline, white background; WebP lossy at
 *  quality 85, method 4, the default preset; AVIF at quality 85, speed 8; JPEG XL at quality 85,
 *  effort 7. */
MAGPIE_API void magpie_encode_options_init(magpie_encode_options *options);

/**
 * Encodes RGBA pixels (straight alpha). PNG keeps alpha and writes RGB when every pixel is opaque;
 * JPEG composites over `background`; WebP (when `magpie_format_encodable` says so) keeps alpha
 * and leaves it out when every pixel is opaque, one thread, no metadata; AVIF (libavif, loaded on
 * first use; `magpie_format_encodable` says whether it is there) is 4:2:0 8-bit with sRGB
 * signalled, alpha when a pixel is not opaque, `quality` 1–100 mapped onto the AV1 quantizer as
 * libavif's own quality is, at `speed`, one thread; JPEG XL (libjxl, loaded on first use) is a bare
 * codestream at `effort`, `quality` mapped onto libjxl's distance as libjxl's
 * JxlEncoderDistanceFromQuality maps it (100 and `lossless` are lossless), alpha when a pixel is not
 * opaque, the ICC profile when one is given (else sRGB signalled), one thread. Output is deterministic: the same input and options give the
 * same bytes (no timestamps). On success `*out` is a library allocation of `*out_size` bytes, to
 * be freed with `magpie_free`.
 * - Returns MAGPIE_EINVAL for bad arguments (zero size, stride < width * 4, quality, effort, palette
 *   colours or preset out of range), MAGPIE_EUNSUPPORTED for a format (or a PNG palette) this build or
 *   machine cannot write, MAGPIE_ENOMEM, MAGPIE_EENCODE.
 */
MAGPIE_API int magpie_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                             size_t stride, const magpie_encode_options *options, uint8_t **out,
                             size_t *out_size);

/** Frees a buffer returned by `magpie_encode`. NULL is allowed. */
MAGPIE_API void magpie_free(void *buffer);

/* ---- animations: frames in, one file out ---------------------------------------------------- */

/** Options of an animated encode besides `magpie_encode_options`. Initialise with
 *  `magpie_animation_options_init`. */
typedef struct magpie_animation_options {
    uint32_t struct_size;
    int32_t loop_count;  /**< Plays after the first (0 = forever, the default; -1: once, no loop
                              extension). */
    int kmin, kmax;      /**< WebP keyframes: libwebp's kmin/kmax; 0, 0 (the default) lets no frame
                              be a keyframe but the first, the smallest file (see the README). */
    int dither;          /**< GIF: Floyd–Steinberg dithering 0 (none, the default) – 100. */
    int max_colors;      /**< GIF: colours a palette may have, 2–256 (default 256). */
    uint64_t max_bytes;  /**< The file may grow to this (default 256 MiB), else MAGPIE_ELIMIT_MEMORY. */
} magpie_animation_options;

/** Sets defaults: loop forever, no WebP keyframes after the first, no dithering, 256 colours. */
MAGPIE_API void magpie_animation_options_init(magpie_animation_options *options);

/** An animated encode in progress: frames go in one at a time, never held together. */
typedef struct magpie_animation_encoder magpie_animation_encoder;

/**
 * Starts a `width` × `height` animation in `options->format`: MAGPIE_FORMAT_WEBP (libwebp's
 * WebPAnimEncoder: lossy at `quality` or lossless, `method`, one thread) or MAGPIE_FORMAT_GIF
 * (giflib, palettes by libimagequant loaded on first use: `magpie_format_encodable` says whether
 * it is there; the first frame's palette is the global one, a frame it would show badly gets its
 * own; transparency where alpha < 128). Output is deterministic. `anim` may be NULL (defaults).
 * - Returns MAGPIE_EINVAL for bad arguments, MAGPIE_EUNSUPPORTED for another format or one not
 *   there, MAGPIE_ENOMEM.
 */
MAGPIE_API int magpie_animation_encoder_new(uint32_t width, uint32_t height, const magpie_encode_options *options,
                                            const magpie_animation_options *anim, magpie_animation_encoder **out);
/** Adds a frame of the encoder's size (RGBA, straight alpha) shown for `delay_ms` (GIF keeps
 *  hundredths of a second). MAGPIE_EINVAL after a failure or after `finish`. */
MAGPIE_API int magpie_animation_encoder_add(magpie_animation_encoder *encoder, const uint8_t *pixels, size_t stride,
                                            uint32_t delay_ms);
/** Ends the animation (at least one frame added) into `*out` (free with `magpie_free`). */
MAGPIE_API int magpie_animation_encoder_finish(magpie_animation_encoder *encoder, uint8_t **out,
                                               size_t *out_size);
/** Frees the encoder; NULL is allowed. */
MAGPIE_API void magpie_animation_encoder_free(magpie_animation_encoder *encoder);

/* ------------------------------------------------------------------------------------------ */
/* Checksums: CRC-32 and CRC-32C                                                              */

/**
 * CRC-32 (the zlib/PNG polynomial) of `size` bytes, continuing from `crc` (0 to start).
 * `data` may be NULL when `size` is 0.
 */
MAGPIE_API uint32_t magpie_crc32(uint32_t crc, const void *data, size_t size);

/**
 * CRC-32C (Castagnoli) of `size` bytes, continuing from `crc` (0 to start); hardware-accelerated
 * on x86-64 with SSE4.2. Validates disk-cache entries. `data` may be NULL when `size` is 0.
 */
MAGPIE_API uint32_t magpie_crc32c(uint32_t crc, const void *data, size_t size);

/* ------------------------------------------------------------------------------------------ */
/* MD5 (RFC 1321)                                                                              */

/** MD5 digest of `size` bytes into `digest`. `data` may be NULL when `size` is 0. */
MAGPIE_API void magpie_md5(const void *data, size_t size, uint8_t digest[16]);

/**
 * MD5 as 32 lowercase hex digits plus NUL into `hex` (33 bytes): the cache file name of a key.
 */
MAGPIE_API void magpie_md5_hex(const void *data, size_t size, char hex[33]);

/* ------------------------------------------------------------------------------------------ */
/* Process-wide decode memory budget                                                          */

/**
 * Sets the process-wide decode memory budget: the bytes all decodes in flight together may
 * charge (the same charges as `magpie_limits.max_bytes`: outputs, buffers, codec state). 0 (the
 * default) means no budget beyond each decode's own limit. A decode whose charge does not fit
 * beside the others fails with MAGPIE_EBUDGET (retry when one finishes); one that would not fit
 * even alone fails with MAGPIE_ELIMIT_MEMORY. Thread-safe.
 */
MAGPIE_API void magpie_set_memory_budget(uint64_t bytes);
/** The budget set (0: none). */
MAGPIE_API uint64_t magpie_memory_budget(void);
/** Bytes charged by decodes in flight (and by `magpie_memory_charge`) right now. */
MAGPIE_API uint64_t magpie_memory_in_use(void);
/**
 * Charges `bytes` of the caller's own work (buffers it allocates beside decodes) to the budget:
 * MAGPIE_OK, MAGPIE_EBUDGET when it does not fit now, MAGPIE_ELIMIT_MEMORY when it never would.
 * Give it back with `magpie_memory_discharge`.
 */
MAGPIE_API int magpie_memory_charge(uint64_t bytes);
MAGPIE_API void magpie_memory_discharge(uint64_t bytes);

/* ------------------------------------------------------------------------------------------ */
/* SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104)                                             */

/** SHA-256 digest of `size` bytes into `digest`. `data` may be NULL when `size` is 0. */
MAGPIE_API void magpie_sha256(const void *data, size_t size, uint8_t digest[32]);

/**
 * HMAC-SHA-256 of `size` bytes under `key` (any length) into `mac`. `key` and `data` may be NULL
 * when their sizes are 0. The Swift cache keys requests that carry credentials by this MAC, so
 * different credentials never share an entry and the key reveals nothing of them.
 */
MAGPIE_API void magpie_hmac_sha256(const void *key, size_t key_size, const void *data, size_t size,
                                   uint8_t mac[32]);

/* ------------------------------------------------------------------------------------------ */
/* SHA-1 (FIPS 180-4) and HMAC-SHA-1 (RFC 2104)                                                 */

/** SHA-1 digest of `size` bytes into `digest`. `data` may be NULL when `size` is 0. */
MAGPIE_API void magpie_sha1(const void *data, size_t size, uint8_t digest[20]);

/**
 * HMAC-SHA-1 of `size` bytes under `key` (any length) into `mac`. `key` and `data` may be NULL
 * when their sizes are 0. thumbor's URL signatures are HMAC-SHA-1 (libthumbor's signer); the
 * service checks them with it and uses SHA-1 for nothing else.
 */
MAGPIE_API void magpie_hmac_sha1(const void *key, size_t key_size, const void *data, size_t size, uint8_t mac[20]);

#ifdef __cplusplus
}
#endif

#endif /* MAGPIE_H */
