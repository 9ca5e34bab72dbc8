/*
 * ordo_rng.h - small, fast random number generators.
 *
 * - ordo_mix64 / ordo_hash2: stateless mixing (splitmix64 finaliser). Generators and
 *   the graph builder draw "the random value of item i" as a pure function of (seed, i),
 *   so their output never depends on the thread count or schedule.
 * - struct ordo_rng: xoshiro256** per thread, seeded from (seed, stream id). Not thread
 *   safe: each thread owns one.
 */
#ifndef ORDO_RNG_H
#define ORDO_RNG_H

#include <stdint.h>

static inline uint64_t ordo_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Random value for item `i` of stream `seed`. */
static inline uint64_t ordo_hash2(uint64_t seed, uint64_t i)
{
	return ordo_mix64(ordo_mix64(seed) ^ (i * 0xd1342543de82ef95ULL));
}

/* Uniform integer in [0, range) from 64 random bits (Lemire's multiply-shift; bias
 * below 2^-32 for range < 2^32). */
static inline uint64_t ordo_reduce(uint64_t r, uint64_t range)
{
	return (uint64_t)(((unsigned __int128)r * range) >> 64);
}

/* Uniform double in [0, 1). */
static inline double ordo_unit(uint64_t r)
{
	return (double)(r >> 11) * 0x1.0p-53;
}

struct ordo_rng {
	uint64_t s[4];
};

static inline void ordo_rng_seed(struct ordo_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = ordo_hash2(seed, stream);
	for (int i = 0; i < 4; i++) {
		x = ordo_mix64(x + (uint64_t)i);
		r->s[i] = x ? x : 0x9e3779b97f4a7c15ULL;
	}
}

static inline uint64_t ordo_rng_next(struct ordo_rng *r)
{
	uint64_t *s = r->s;
	uint64_t t = s[1] * 5;
	uint64_t res = ((t << 7) | (t >> 57)) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return res;
}

/* Uniform in [0, range). */
static inline uint64_t ordo_rng_below(struct ordo_rng *r, uint64_t range)
{
	return ordo_reduce(ordo_rng_next(r), range);
}

#endif
