/* SPDX-License-Identifier: BSD-3-Clause */
/* compiler.h: inlining hints for the per-event paths. A fast path kept inline in a large
 * caller, its slow path out of line: the compiler's own choice (LTO included) left small
 * lookups as calls whose slow path made every call save and restore registers. Plain C11
 * compilers get nothing. */
#ifndef GTR_SRC_COMPILER_H
#define GTR_SRC_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define GTR__ALWAYS_INLINE inline __attribute__((always_inline))
#define GTR__NOINLINE __attribute__((noinline))
#else
#define GTR__ALWAYS_INLINE inline
#define GTR__NOINLINE
#endif

#endif /* GTR_SRC_COMPILER_H */
