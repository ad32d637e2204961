/* SPDX-License-Identifier: BSD-3-Clause */
/* godiff_go_library.c: Go's reader loaded at run time from the shared library that
 * `ci/go-diff-archive.sh --shared` builds (godiff.h). A program that only sometimes needs Go
 * (gotrace: `reduce --diff`) loads it then, so that Go's runtime, its threads and its address
 * space reservations are never part of the program's other modes. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

#include "godiff.h"

/* gtrdiff_go_validate's signature (go_reader.h, godiff.go). */
typedef int (*validate_fn)(unsigned char *data, size_t size, size_t limit, char **dump,
                           size_t *dump_len, char **msg, size_t *msg_len);
typedef int (*minor_fn)(void);

struct godiff_go_library {
    validate_fn validate;
    int go_minor;
};

gtr_status godiff_go_library_open(const char *path, godiff_go_library **out, gtr_err *err)
{
    *out = NULL;
    /* Never closed: a Go runtime, once started, cannot be unloaded (its threads run on in the
     * library's code), so the handle lives as long as the process. */
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (so == NULL)
        return gtr_err_setf(err, GTR_E_IO, "cannot load Go's reader: %s", dlerror());
    void *validate = dlsym(so, "gtrdiff_go_validate");
    if (validate == NULL) {
        dlclose(so);   /* not Go's reader: no Go runtime was started by it */
        return gtr_err_setf(err, GTR_E_FORMAT,
                            "cannot load Go's reader: %s has no gtrdiff_go_validate (not built "
                            "by ci/go-diff-archive.sh --shared)",
                            path);
    }
    void *minor = dlsym(so, "gtrdiff_go_minor");
    godiff_go_library *lib = malloc(sizeof *lib);
    if (lib == NULL)
        return gtr_err_setf(err, GTR_E_NOMEM, "out of memory");
    /* dlsym hands back data pointers; POSIX guarantees they convert to functions. */
    lib->validate = (validate_fn)(uintptr_t)validate;
    lib->go_minor = minor != NULL ? ((minor_fn)(uintptr_t)minor)() : GODIFF_GO_MINOR;
    *out = lib;
    return GTR_OK;
}

int godiff_go_library_minor(const godiff_go_library *lib)
{
    return lib->go_minor;
}

bool godiff_go_library_read(void *ctx, const uint8_t *data, size_t size, godiff_owned *out)
{
    const godiff_go_library *lib = ctx;
    size_t dump_len = 0, msg_len = 0;
    int end = lib->validate((unsigned char *)(uintptr_t)data, size, GODIFF_DUMP_LIMIT,
                            &out->dump, &dump_len, &out->msg, &msg_len);
    out->r = (godiff_reading){(godiff_end)end, out->dump, dump_len, out->msg, msg_len};
    return true;
}

void godiff_go_library_free(godiff_go_library *lib)
{
    free(lib);
}
