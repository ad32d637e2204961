/* SPDX-License-Identifier: BSD-3-Clause */
/* gotime.c: the parts of Go's time package (src/time/{time,format,format_rfc3339}.go) that a
 * clock snapshot's wall time needs (gotime.h). */
#include <stdint.h>

#include "gotime.h"

#define SECONDS_PER_DAY 86400
#define UNIX_TO_INTERNAL INT64_C(62135596800)            /* (1969*365 + ...) * secondsPerDay */
#define UNIX_TO_ABSOLUTE UINT64_C(9223372028741760000)   /* unixToInternal + internalToAbsolute */
#define ABSOLUTE_YEARS UINT64_C(292277022400)
#define MARCH_THRU_DECEMBER 306

void gtr__wall_unix(uint64_t usec, uint64_t unsec, int64_t *osec, int32_t *onsec)
{
    /* time.Unix(int64(sec), int64(nsec)); Go's int64 arithmetic wraps. */
    uint64_t sec = usec;
    int64_t nsec = (int64_t)unsec;
    if (nsec < 0 || nsec >= 1000000000) {
        int64_t n = nsec / 1000000000;
        sec += (uint64_t)n;
        nsec -= n * 1000000000;
        if (nsec < 0) {
            nsec += 1000000000;
            sec--;
        }
    }
    *osec = (int64_t)sec;
    *onsec = (int32_t)nsec;
}

/* internal_sec is Time.ext for a time made by time.Unix (no monotonic reading). */
static int64_t internal_sec(int64_t sec)
{
    return (int64_t)((uint64_t)sec + (uint64_t)UNIX_TO_INTERNAL);
}

bool gtr__wall_is_zero(int64_t sec, int32_t nsec)
{
    return nsec == 0 && internal_sec(sec) == 0;
}

bool gtr__wall_after(int64_t asec, int32_t ansec, int64_t bsec, int32_t bnsec)
{
    int64_t ts = internal_sec(asec), us = internal_sec(bsec);
    return ts > us || (ts == us && ansec > bnsec);
}

/* append_int is time's appendInt(b, x, width). */
static void append_int(gtr_buf *out, int64_t x, int width)
{
    char tmp[24];
    uint64_t u = (uint64_t)x;
    int n = 0;

    if (x < 0) {
        gtr_buf_putc(out, '-');
        u = -u;
    }
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    for (int pad = width - n; pad > 0; pad--)
        gtr_buf_putc(out, '0');
    while (n > 0)
        gtr_buf_putc(out, tmp[--n]);
}

typedef struct wall_fields {
    int64_t year;
    int month, day, hour, min, sec;
} wall_fields;

/* wall_split is absSeconds.days().date() and absSeconds.clock() for the UTC time at Unix sec. */
static wall_fields wall_split(int64_t unix_sec)
{
    wall_fields w;
    uint64_t abs = (uint64_t)unix_sec + UNIX_TO_ABSOLUTE;
    uint64_t days = abs / SECONDS_PER_DAY;
    /* absDays.split */
    uint64_t d = 4 * days + 3;
    uint64_t century = d / 146097;
    uint32_t cd = (uint32_t)(d % 146097) | 3;
    uint64_t prod = (uint64_t)2939745 * cd;
    uint32_t cyear = (uint32_t)(prod >> 32);
    uint32_t ayday = (uint32_t)(prod & 0xffffffffu) / 2939745 / 4;
    /* absYday.split */
    uint32_t md = 2141 * ayday + 197913;
    int amonth = (int)(md >> 16);
    int janfeb = ayday >= MARCH_THRU_DECEMBER ? 1 : 0;
    int clock = (int)(abs % SECONDS_PER_DAY);

    w.day = 1 + (int)((md & 0xffff) / 2141);
    w.month = amonth - janfeb * 12;
    w.year = (int64_t)(century * 100 - ABSOLUTE_YEARS) + (int64_t)cyear + janfeb;
    w.hour = clock / 3600;
    clock -= w.hour * 3600;
    w.min = clock / 60;
    w.sec = clock - w.min * 60;
    return w;
}

/* append_date_time writes "2006-01-02<sep>15:04:05" then ".999999999" (trimmed). */
static void append_date_time(gtr_buf *out, int64_t sec, int32_t nsec, char sep)
{
    wall_fields w = wall_split(sec);
    append_int(out, w.year, 4);
    gtr_buf_putc(out, '-');
    append_int(out, w.month, 2);
    gtr_buf_putc(out, '-');
    append_int(out, w.day, 2);
    gtr_buf_putc(out, sep);
    append_int(out, w.hour, 2);
    gtr_buf_putc(out, ':');
    append_int(out, w.min, 2);
    gtr_buf_putc(out, ':');
    append_int(out, w.sec, 2);
    if (nsec != 0) { /* appendNano with stdFracSecond9: trailing zeros trimmed */
        char frac[10];
        int n = 9;
        int32_t v = nsec;
        for (int i = 8; i >= 0; i--) {
            frac[i] = (char)('0' + v % 10);
            v /= 10;
        }
        while (n > 0 && frac[n - 1] == '0')
            n--;
        gtr_buf_putc(out, '.');
        gtr_buf_append(out, frac, (size_t)n);
    }
}

gtr_status gtr__wall_rfc3339nano(int64_t sec, int32_t nsec, gtr_buf *out)
{
    append_date_time(out, sec, nsec, 'T');
    gtr_buf_putc(out, 'Z');
    return gtr_buf_status(out);
}

gtr_status gtr__wall_string(int64_t sec, int32_t nsec, gtr_buf *out)
{
    append_date_time(out, sec, nsec, ' ');
    gtr_buf_puts(out, " +0000 UTC");
    return gtr_buf_status(out);
}
