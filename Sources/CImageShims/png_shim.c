#include "hs_image.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} read_cursor;

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} write_buffer;

typedef struct {
    char *message;
    size_t messageSize;
} error_sink;

static void on_error(png_structp png, png_const_charp text) {
    error_sink *sink = (error_sink *)png_get_error_ptr(png);
    if (sink && sink->message && sink->messageSize) snprintf(sink->message, sink->messageSize, "%s", text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png; (void)text;  // warnings (e.g. bad sRGB profiles) do not stop decoding
}

static void read_bytes(png_structp png, png_bytep into, png_size_t length) {
    read_cursor *cursor = (read_cursor *)png_get_io_ptr(png);
    if (length > cursor->size - cursor->offset) png_error(png, "file ends early");
    memcpy(into, cursor->data + cursor->offset, length);
    cursor->offset += length;
}

static void write_bytes(png_structp png, png_bytep from, png_size_t length) {
    write_buffer *buffer = (write_buffer *)png_get_io_ptr(png);
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->size + length) capacity *= 2;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (!grown) png_error(png, "out of memory");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, from, length);
    buffer->size += length;
}

static void flush_bytes(png_structp png) { (void)png; }

static int fail(char *message, size_t messageSize, const char *text) {
    if (message && messageSize) snprintf(message, messageSize, "%s", text);
    return -1;
}

/// Asks libpng to expand everything to 8-bit gray, gray16, RGB or RGBA, host byte order.
static void choose_output(png_structp png, png_infop info) {
    int colorType = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colorType == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    int hasAlpha = (colorType & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    int isGray = !(colorType & PNG_COLOR_MASK_COLOR) && colorType != PNG_COLOR_TYPE_PALETTE;
    if (depth == 16 && !(isGray && !hasAlpha)) png_set_strip_16(png);
    if (isGray && hasAlpha) png_set_gray_to_rgb(png);
    if (depth == 16) png_set_swap(png);
    png_set_interlace_handling(png);
}

int hs_png_decode(const unsigned char *data, size_t size, hs_image_info *info,
                  unsigned char **pixels, char *message, size_t messageSize) {
    *pixels = NULL;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return fail(message, messageSize, "missing PNG signature");
    error_sink sink = {message, messageSize};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return fail(message, messageSize, "out of memory");
    png_infop pngInfo = png_create_info_struct(png);
    if (!pngInfo) {
        png_destroy_read_struct(&png, NULL, NULL);
        return fail(message, messageSize, "out of memory");
    }
    unsigned char *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(buffer);
        free(rows);
        png_destroy_read_struct(&png, &pngInfo, NULL);
        return -1;
    }
    read_cursor cursor = {data, size, 0};
    png_set_read_fn(png, &cursor, read_bytes);
    png_set_user_limits(png, 1 << 15, 1 << 15);
    png_read_info(png, pngInfo);
    choose_output(png, pngInfo);
    png_read_update_info(png, pngInfo);
    size_t width = png_get_image_width(png, pngInfo);
    size_t height = png_get_image_height(png, pngInfo);
    int channels = png_get_channels(png, pngInfo);
    int depth = png_get_bit_depth(png, pngInfo);
    size_t rowBytes = png_get_rowbytes(png, pngInfo);
    if ((channels != 1 && channels != 3 && channels != 4) || rowBytes != width * channels * (depth / 8))
        png_error(png, "unsupported PNG layout");
    buffer = malloc(rowBytes * height + 1);
    rows = malloc(sizeof(png_bytep) * (height + 1));
    if (!buffer || !rows) png_error(png, "out of memory");
    for (size_t y = 0; y < height; y++) rows[y] = buffer + y * rowBytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &pngInfo, NULL);
    info->width = (int)width;
    info->height = (int)height;
    info->channels = channels;
    info->bitDepth = depth;
    *pixels = buffer;
    return 0;
}

int hs_png_encode(const unsigned char *pixels, hs_image_info info, unsigned int pixelsPerMetre,
                  int compressionLevel, unsigned char **out, size_t *outSize,
                  char *message, size_t messageSize) {
    *out = NULL;
    *outSize = 0;
    if (info.width <= 0 || info.height <= 0) return fail(message, messageSize, "image is empty");
    int colorType;
    switch (info.channels) {
        case 1: colorType = PNG_COLOR_TYPE_GRAY; break;
        case 3: colorType = PNG_COLOR_TYPE_RGB; break;
        case 4: colorType = PNG_COLOR_TYPE_RGB_ALPHA; break;
        default: return fail(message, messageSize, "unsupported channel count");
    }
    error_sink sink = {message, messageSize};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) return fail(message, messageSize, "out of memory");
    png_infop pngInfo = png_create_info_struct(png);
    if (!pngInfo) {
        png_destroy_write_struct(&png, NULL);
        return fail(message, messageSize, "out of memory");
    }
    write_buffer buffer = {NULL, 0, 0, 0};
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(buffer.data);
        free(rows);
        png_destroy_write_struct(&png, &pngInfo);
        return -1;
    }
    png_set_write_fn(png, &buffer, write_bytes, flush_bytes);
    png_set_compression_level(png, compressionLevel);
    png_set_IHDR(png, pngInfo, info.width, info.height, info.bitDepth, colorType,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (pixelsPerMetre > 0) png_set_pHYs(png, pngInfo, pixelsPerMetre, pixelsPerMetre, PNG_RESOLUTION_METER);
    png_write_info(png, pngInfo);
    if (info.bitDepth == 16) png_set_swap(png);
    size_t rowBytes = (size_t)info.width * info.channels * (info.bitDepth / 8);
    rows = malloc(sizeof(png_bytep) * info.height);
    if (!rows) png_error(png, "out of memory");
    for (int y = 0; y < info.height; y++) rows[y] = (png_bytep)pixels + y * rowBytes;
    png_write_image(png, rows);
    png_write_end(png, NULL);
    free(rows);
    png_destroy_write_struct(&png, &pngInfo);
    *out = buffer.data;
    *outSize = buffer.size;
    return 0;
}

void hs_free(void *pointer) { free(pointer); }
