// Thin C wrappers over libpng and libjpeg-turbo. Both libraries report errors by longjmp,
// which Swift cannot catch, so the setjmp guards live here and errors come back as text.
#ifndef HS_IMAGE_H
#define HS_IMAGE_H

#include <stddef.h>

/// Layout of decoded pixels: rows are tightly packed, 16-bit samples in host byte order.
typedef struct {
    int width;
    int height;
    int channels;   // 1, 3 or 4
    int bitDepth;   // 8 or 16 (16 only for gray)
} hs_image_info;

/// Decodes a PNG. On success returns 0 and a malloc'd pixel buffer the caller frees with hs_free.
int hs_png_decode(const unsigned char *data, size_t size, hs_image_info *info,
                  unsigned char **pixels, char *message, size_t messageSize);

/// Encodes a PNG; pixelsPerMetre > 0 writes a pHYs chunk. Output freed with hs_free.
int hs_png_encode(const unsigned char *pixels, hs_image_info info, unsigned int pixelsPerMetre,
                  int compressionLevel, unsigned char **out, size_t *outSize,
                  char *message, size_t messageSize);

/// Decodes a JPEG into RGBA. Output freed with hs_free.
int hs_jpeg_decode(const unsigned char *data, size_t size, int interpolateChroma, hs_image_info *info,
                   unsigned char **pixels, char *message, size_t messageSize);

/// Encodes RGBA pixels as a baseline JPEG (4:2:0) at the given quality (1...100).
int hs_jpeg_encode(const unsigned char *rgba, int width, int height, int quality,
                   unsigned char **out, size_t *outSize, char *message, size_t messageSize);

/// Frees a buffer returned by the functions above.
void hs_free(void *pointer);

#endif
