/* Big-endian loads and stores for the kernels (Kafka's wire and batch formats are big-endian).
 * Written with shifts so they are correct on any host; gcc -O2 turns each into one load plus bswap. */
#ifndef ROCKAFKA_BYTEORDER_H
#define ROCKAFKA_BYTEORDER_H

#include <stdint.h>

static inline uint16_t rk_load_be16(const unsigned char *p) {
    return (uint16_t)(((uint16_t)p[0] << 8) | (uint16_t)p[1]);
}

static inline uint32_t rk_load_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline uint64_t rk_load_be64(const unsigned char *p) {
    return ((uint64_t)rk_load_be32(p) << 32) | (uint64_t)rk_load_be32(p + 4);
}

static inline void rk_store_be16(unsigned char *p, uint16_t v) {
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

static inline void rk_store_be32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static inline void rk_store_be64(unsigned char *p, uint64_t v) {
    rk_store_be32(p, (uint32_t)(v >> 32));
    rk_store_be32(p + 4, (uint32_t)v);
}

#endif
