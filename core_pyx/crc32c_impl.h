/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78).
 * With SSE4.2 (x86-64, compiled with -msse4.2) the CPU's crc32 instruction does 8 bytes a step;
 * elsewhere a slicing-by-1 table built on first use. Both give identical results. */
#ifndef ROCKAFKA_CRC32C_IMPL_H
#define ROCKAFKA_CRC32C_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE4_2__) && defined(__x86_64__)
#include <nmmintrin.h>
static inline uint32_t rk_crc32c(uint32_t crc, const unsigned char *p, size_t n) {
    uint64_t c = (uint32_t)~crc;
    while (n >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--) c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}
#else
static uint32_t rk_crc32c_table[256];
static int rk_crc32c_ready = 0;
static void rk_crc32c_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        rk_crc32c_table[i] = c;
    }
    rk_crc32c_ready = 1;
}
static inline uint32_t rk_crc32c(uint32_t crc, const unsigned char *p, size_t n) {
    if (!rk_crc32c_ready) rk_crc32c_init();
    uint32_t c = ~crc;
    while (n--) c = rk_crc32c_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}
#endif

#endif
