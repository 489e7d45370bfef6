// zlib's CRC-32 for Recording on Linux (Apple platforms use the Swift implementation).
#include <zlib.h>
