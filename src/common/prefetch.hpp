// Internal: GRAPPI_PREFETCH(p) asks the CPU to bring p's cache line in (GCC and Clang); a no-op
// elsewhere. Used where a loop knows which random address it will read a few steps ahead.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define GRAPPI_PREFETCH(p) __builtin_prefetch(p)
#else
#define GRAPPI_PREFETCH(p) ((void)(p))
#endif
