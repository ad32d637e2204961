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

/* GTR__LTO_INLINE: an external function that link-time optimisation (GTR_LTO) inlines into
 * its one hot caller in another file; hidden, so that no shared object linking libtrace's
 * sources can interpose it (which would forbid the inlining). GCC warns that such a function
 * might not be inlinable, so its declarations sit between GTR__LTO_INLINE_BEGIN and
 * GTR__LTO_INLINE_END; without LTO it is a plain function (the body is not there to inline). */
#if defined(__GNUC__) && defined(GTR_LTO_BUILD)
#define GTR__LTO_INLINE __attribute__((always_inline, visibility("hidden")))
#define GTR__LTO_INLINE_BEGIN                                                              \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wattributes\"")
#define GTR__LTO_INLINE_END _Pragma("GCC diagnostic pop")
#else
#define GTR__LTO_INLINE
#define GTR__LTO_INLINE_BEGIN
#define GTR__LTO_INLINE_END
#endif

#endif /* GTR_SRC_COMPILER_H */
