/* run_ptx: load a PTX module emitted by lyt, run every kernel named in a
 * lyt expect file, and check what each kernel writes.
 *
 * Build (CUDA driver API only; the stub libcuda is only for linking, the
 * real libcuda.so.1 is found by the loader on the GPU machine):
 *
 *   mkdir -p build
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror -I/usr/local/cuda/include \
 *       tests/gpu/run_ptx.c -L/usr/local/cuda/lib64/stubs -lcuda -o build/run_ptx
 *
 * (clang with the same flags works too.)
 *
 * Usage:
 *   run_ptx MODULE.ptx EXPECT.txt               check every kernel
 *   run_ptx --bench REPS MODULE.ptx EXPECT.txt  check, then time each kernel
 *   run_ptx --list EXPECT.txt                   print the kernels' header lines
 *
 * Expect file (text):
 *
 *   # lyt expect v1
 *   kernel NAME ELEM_BYTES IN_ELEMS OUT_ELEMS BLOCKS THREADS SMEM_BYTES
 *   <OUT_ELEMS integers: out[k] must hold in[i]; -1: out[k] is not written>
 *   end
 *   ... more kernel blocks ...
 *
 * The first line must start with "# lyt expect v1". Elsewhere, '#' starts a
 * comment that runs to the end of the line (between tokens only).
 *
 * Each kernel is launched as NAME(in, out) (two .u64 params) with grid
 * (BLOCKS,1,1), block (THREADS,1,1) and SMEM_BYTES of dynamic shared memory
 * (lyt declares a kernel's shared memory .extern; SMEM_BYTES may exceed what
 * its staging needs, which caps the blocks per SM). Elements are
 * raw bytes. In pass p (p = 0, 1, ... until every bit of the largest input
 * index has been covered) in[i] = (i >> (8*ELEM_BYTES*p)) truncated to
 * ELEM_BYTES bytes (little-endian); out is filled with 0xAB bytes before each
 * launch. Every pass checks out[k] == in[expect[k]] (expect[k] >= 0) and that
 * out[k] is untouched (expect[k] == -1). The output buffer is surrounded by
 * guard zones that must stay untouched too (catches out-of-bounds stores).
 * A kernel with static shared memory is reported on stderr as a warning.
 *
 * Output: "ok NAME" or "FAIL NAME: ..." per kernel, "bench NAME median_us=X
 * GBps=Y" per passing kernel with --bench, and finally "N passed, M failed".
 * Exit status: 0 all passed, 1 some kernel failed, 2 usage error, malformed
 * expect file or CUDA error (error name via cuGetErrorName).
 * --bench first resets L2's persisting lines (cuCtxResetPersistingL2Cache),
 * so that lines a kernel before marked evict_last do not change how the
 * next one runs. RUN_PTX_FLUSH=1 (with --bench) does that before each
 * timed launch too and then overwrites a 256 MiB scratch buffer, outside
 * the launch's events, so that no launch finds its input in L2 from the
 * one before (H100's L2 holds 50 MB).
 * RUN_PTX_VERBOSE=1 prints the JIT info log and registers/smem per kernel
 * on stderr. RUN_PTX_DEVICE=N picks device N (default 0).
 */
#include <cuda.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_BYTES ((size_t)256 * 1024) /* each side of out */
#define NAME_MAX_LEN 255

/* ---------------------------------------------------------------- files */

/* Reads a whole file; NUL-terminates the buffer (not counted in *len). */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 0, n = 0;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        if (sz >= 0) cap = (size_t)sz + 1;
        rewind(f);
    }
    if (cap < 4096) cap = 4096;
    buf = malloc(cap);
    if (!buf) goto oom;
    for (;;) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n + 1 < cap) break; /* short read: end of file or error */
        int c = fgetc(f);       /* exactly full: grow only if there is more */
        if (c == EOF) break;
        size_t ncap = cap * 2;
        char *nb = realloc(buf, ncap);
        if (!nb) goto oom;
        buf = nb;
        cap = ncap;
        buf[n++] = (char)c;
    }
    if (ferror(f)) {
        perror(path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
oom:
    fprintf(stderr, "%s: out of memory reading the file\n", path);
    free(buf);
    fclose(f);
    return NULL;
}

/* ---------------------------------------------------------- expect file */

typedef struct {
    const char *path;
    const char *base, *p, *end;
} Lexer;

typedef struct {
    char name[NAME_MAX_LEN + 1];
    int elem_bytes;
    uint64_t in_elems, out_elems, blocks, threads, smem_bytes;
} KernelHdr;

static int is_ws(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static unsigned long line_of(const Lexer *lx, const char *at) {
    unsigned long line = 1;
    const char *q = lx->base;
    while (q < at) {
        const char *nl = memchr(q, '\n', (size_t)(at - q));
        if (!nl) break;
        line++;
        q = nl + 1;
    }
    return line;
}

static int lex_error(const Lexer *lx, const char *at, const char *msg) {
    fprintf(stderr, "%s:%lu: error: %s\n", lx->path, line_of(lx, at), msg);
    return -1;
}

static void skip_ws(Lexer *lx) {
    const char *p = lx->p, *end = lx->end;
    for (;;) {
        while (p < end && is_ws(*p)) p++;
        if (p < end && *p == '#') {
            while (p < end && *p != '\n') p++;
            continue;
        }
        break;
    }
    lx->p = p;
}

/* Next whitespace-delimited word; returns its length (0 at end of file). */
static size_t next_word(Lexer *lx, const char **start) {
    skip_ws(lx);
    const char *s = lx->p;
    while (lx->p < lx->end && !is_ws(*lx->p) && *lx->p != '#') lx->p++;
    *start = s;
    return (size_t)(lx->p - s);
}

static int word_is(const char *w, size_t n, const char *lit) {
    return n == strlen(lit) && memcmp(w, lit, n) == 0;
}

static int parse_u64(Lexer *lx, const char *what, uint64_t *out) {
    const char *w;
    size_t n = next_word(lx, &w);
    char msg[128];
    if (n == 0 || n > 19) goto bad;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < '0' || w[i] > '9') goto bad;
        v = v * 10 + (uint64_t)(w[i] - '0');
    }
    *out = v;
    return 0;
bad:
    snprintf(msg, sizeof msg, "expected a non-negative integer for %s", what);
    return lex_error(lx, w, msg);
}

/* Parses "kernel NAME ..." ; returns 1 on a header, 0 at end of file, -1 on
 * error. */
static int parse_header(Lexer *lx, KernelHdr *h) {
    const char *w;
    size_t n = next_word(lx, &w);
    if (n == 0) return 0;
    if (!word_is(w, n, "kernel")) return lex_error(lx, w, "expected 'kernel'");
    n = next_word(lx, &w);
    if (n == 0) return lex_error(lx, w, "expected a kernel name");
    if (n > NAME_MAX_LEN) return lex_error(lx, w, "kernel name too long");
    memcpy(h->name, w, n);
    h->name[n] = '\0';
    uint64_t eb;
    const char *at = lx->p;
    if (parse_u64(lx, "ELEM_BYTES", &eb)) return -1;
    if (eb != 1 && eb != 2 && eb != 4 && eb != 8)
        return lex_error(lx, at, "ELEM_BYTES must be 1, 2, 4 or 8");
    h->elem_bytes = (int)eb;
    if (parse_u64(lx, "IN_ELEMS", &h->in_elems) || parse_u64(lx, "OUT_ELEMS", &h->out_elems))
        return -1;
    at = lx->p;
    if (parse_u64(lx, "BLOCKS", &h->blocks)) return -1;
    if (h->blocks < 1 || h->blocks > 0x7fffffffu) return lex_error(lx, at, "BLOCKS must be in 1..2^31-1");
    at = lx->p;
    if (parse_u64(lx, "THREADS", &h->threads)) return -1;
    if (h->threads < 1 || h->threads > 1024) return lex_error(lx, at, "THREADS must be in 1..1024");
    if (parse_u64(lx, "SMEM_BYTES", &h->smem_bytes)) return -1;
    uint64_t lim = (uint64_t)SIZE_MAX / 16;
    if (h->in_elems > lim / (uint64_t)h->elem_bytes || h->out_elems > lim / (uint64_t)h->elem_bytes ||
        h->out_elems > (uint64_t)SIZE_MAX / sizeof(int64_t))
        return lex_error(lx, at, "IN_ELEMS or OUT_ELEMS too large");
    return 1;
}

/* Parses the OUT_ELEMS expected indices and the closing "end". With
 * exp == NULL the values are only validated. This is the hot loop for large
 * kernels, hence hand-written. */
/* The compact body lyt writes for large kernels: "map RANK shape[RANK]
 * src_stride[RANK] dst_stride[RANK]": out[dst(x)] must hold in[src(x)]
 * for every coordinate x, every other out element stays untouched. */
static int parse_map(Lexer *lx, const KernelHdr *h, int64_t *exp) {
    uint64_t r, v[12];
    const char *at = lx->p;
    if (parse_u64(lx, "RANK", &r)) return -1;
    if (r < 1 || r > 4) return lex_error(lx, at, "map RANK must be 1..4");
    for (uint64_t i = 0; i < 3 * r; i++)
        if (parse_u64(lx, "map value", &v[i])) return -1;
    uint64_t size = 1;
    for (uint64_t d = 0; d < r; d++) size *= v[d];
    if (exp)
        for (uint64_t k = 0; k < h->out_elems; k++) exp[k] = -1;
    for (uint64_t f = 0; f < size; f++) {
        uint64_t rest = f, src = 0, dst = 0;
        for (uint64_t d = r; d-- > 0;) {
            uint64_t x = rest % v[d];
            rest /= v[d];
            src += x * v[r + d];
            dst += x * v[2 * r + d];
        }
        if (src >= h->in_elems || dst >= h->out_elems) return lex_error(lx, at, "map leaves the tensors");
        if (exp) exp[dst] = (int64_t)src;
    }
    const char *w;
    size_t wn = next_word(lx, &w);
    if (!word_is(w, wn, "end")) return lex_error(lx, w, "expected 'end' after the map");
    return 0;
}

static int parse_body(Lexer *lx, const KernelHdr *h, int64_t *exp) {
    {
        Lexer peek = *lx;
        const char *w;
        size_t wn = next_word(&peek, &w);
        if (word_is(w, wn, "map")) {
            *lx = peek;
            return parse_map(lx, h, exp);
        }
    }
    const char *p = lx->p, *end = lx->end;
    const uint64_t n = h->out_elems, limit = h->in_elems;
    for (uint64_t k = 0; k < n; k++) {
        for (;;) { /* whitespace and comments */
            while (p < end && is_ws(*p)) p++;
            if (p < end && *p == '#') {
                while (p < end && *p != '\n') p++;
                continue;
            }
            break;
        }
        const char *start = p;
        int neg = 0;
        if (p < end && *p == '-') {
            neg = 1;
            p++;
        }
        uint64_t v = 0;
        int nd = 0;
        while (p < end && (unsigned)(*p - '0') < 10u) {
            v = v * 10 + (uint64_t)(*p - '0');
            p++;
            if (++nd > 19) return lex_error(lx, start, "integer too long");
        }
        if (nd == 0 || (p < end && !is_ws(*p) && *p != '#')) {
            if (p >= end && nd == 0)
                return lex_error(lx, start, "end of file inside the expected indices (too few values?)");
            return lex_error(lx, start, "expected an integer index or -1 (too few values?)");
        }
        if (neg) {
            if (v != 1) return lex_error(lx, start, "negative index other than -1");
            if (exp) exp[k] = -1;
        } else {
            if (v >= limit) return lex_error(lx, start, "index >= IN_ELEMS");
            if (exp) exp[k] = (int64_t)v;
        }
    }
    lx->p = p;
    const char *w;
    size_t wn = next_word(lx, &w);
    if (!word_is(w, wn, "end"))
        return lex_error(lx, w, wn ? "expected 'end' (more than OUT_ELEMS values?)" : "missing 'end'");
    return 0;
}

static int lexer_open(Lexer *lx, const char *path, const char *buf, size_t len) {
    static const char magic[] = "# lyt expect v1";
    lx->path = path;
    lx->base = lx->p = buf;
    lx->end = buf + len;
    if (len < sizeof magic - 1 || memcmp(buf, magic, sizeof magic - 1) != 0)
        return lex_error(lx, buf, "first line is not '# lyt expect v1'");
    return 0;
}

static void print_header(const KernelHdr *h) {
    printf("kernel %s %d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", h->name, h->elem_bytes,
           h->in_elems, h->out_elems, h->blocks, h->threads, h->smem_bytes);
}

/* ----------------------------------------------------------------- CUDA */

/* The last failed call, for the FAIL line. */
static const char *last_err_name = "?", *last_err_call = "?";

static void cuda_report(CUresult r, const char *call, int line) {
    const char *name = NULL, *str = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS) name = "CUDA_ERROR_?";
    last_err_name = name;
    last_err_call = call;
    if (cuGetErrorString(r, &str) != CUDA_SUCCESS) str = "";
    fprintf(stderr, "error: %s failed: %s (%d: %s) [run_ptx.c:%d]\n", call, name, (int)r, str, line);
}

/* In functions with a "fail:" label and a CUresult variable "cr". */
#define CK(call)                                                                                                       \
    do {                                                                                                               \
        cr = (call);                                                                                                   \
        if (cr != CUDA_SUCCESS) {                                                                                      \
            cuda_report(cr, #call, __LINE__);                                                                          \
            goto fail;                                                                                                 \
        }                                                                                                              \
    } while (0)

/* Typed fill and compare loops, one per element size. */
#define DEFINE_ELEM_OPS(T, SUF)                                                                                        \
    static void fill_##SUF(void *buf, uint64_t n, unsigned shift) {                                                    \
        T *in = buf;                                                                                                   \
        for (uint64_t i = 0; i < n; i++) in[i] = (T)(i >> shift);                                                      \
    }                                                                                                                  \
    static uint64_t check_##SUF(const void *inb, const void *outb, const int64_t *exp, uint64_t n, uint64_t *first) {  \
        const T *in = inb, *out = outb;                                                                                \
        const T fill = (T)0xABABABABABABABABull;                                                                       \
        uint64_t bad = 0;                                                                                              \
        for (uint64_t k = 0; k < n; k++) {                                                                             \
            int64_t i = exp[k];                                                                                        \
            T want = i >= 0 ? in[i] : fill;                                                                            \
            if (out[k] != want) {                                                                                      \
                if (bad == 0) *first = k;                                                                              \
                bad++;                                                                                                 \
            }                                                                                                          \
        }                                                                                                              \
        return bad;                                                                                                    \
    }
DEFINE_ELEM_OPS(uint8_t, 1)
DEFINE_ELEM_OPS(uint16_t, 2)
DEFINE_ELEM_OPS(uint32_t, 4)
DEFINE_ELEM_OPS(uint64_t, 8)

static uint64_t load_elem(const unsigned char *buf, uint64_t idx, int eb) {
    uint64_t v = 0;
    for (int b = eb - 1; b >= 0; b--) v = (v << 8) | buf[idx * (uint64_t)eb + (uint64_t)b];
    return v;
}

static int verbose;

#define FLUSH_BYTES ((size_t)256 << 20)

typedef struct {
    CUmodule mod;
    int bench_reps; /* 0: no bench */
    int ctx_dead;   /* a sticky error happened: stop */
} Runner;

static int cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Times the kernel; returns 0 or -1 on a CUDA error. */
static int bench_kernel(const KernelHdr *h, CUfunction fn, CUdeviceptr din, CUdeviceptr dout, int reps) {
    CUresult cr = CUDA_SUCCESS;
    int rc = -1;
    CUevent *ev = calloc((size_t)reps * 2, sizeof *ev);
    float *ms = calloc((size_t)reps, sizeof *ms);
    int nev = 0;
    CUdeviceptr scratch = 0;
    void *args[2] = {&din, &dout};
    unsigned gx = (unsigned)h->blocks, bx = (unsigned)h->threads, dyn = (unsigned)h->smem_bytes;
    if (!ev || !ms) {
        fprintf(stderr, "error: out of memory\n");
        goto fail;
    }
    const char *fl = getenv("RUN_PTX_FLUSH");
    if (fl && *fl && strcmp(fl, "0") != 0) CK(cuMemAlloc(&scratch, FLUSH_BYTES));
    for (; nev < reps * 2; nev++) CK(cuEventCreate(&ev[nev], CU_EVENT_DEFAULT));
    for (int w = 0; w < 3; w++) CK(cuLaunchKernel(fn, gx, 1, 1, bx, 1, 1, dyn, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuCtxResetPersistingL2Cache());
    for (int r = 0; r < reps; r++) {
        if (scratch) { /* the reset is not stream-ordered: wait for the launch before */
            CK(cuCtxSynchronize());
            CK(cuCtxResetPersistingL2Cache());
            CK(cuMemsetD32Async(scratch, (unsigned)r, FLUSH_BYTES / 4, NULL));
        }
        CK(cuEventRecord(ev[2 * r], NULL));
        CK(cuLaunchKernel(fn, gx, 1, 1, bx, 1, 1, dyn, NULL, args, NULL));
        CK(cuEventRecord(ev[2 * r + 1], NULL));
    }
    CK(cuCtxSynchronize());
    for (int r = 0; r < reps; r++) CK(cuEventElapsedTime(&ms[r], ev[2 * r], ev[2 * r + 1]));
    qsort(ms, (size_t)reps, sizeof *ms, cmp_float);
    double med_ms = (reps % 2) ? ms[reps / 2] : 0.5 * ((double)ms[reps / 2 - 1] + (double)ms[reps / 2]);
    double bytes = (double)(h->in_elems + h->out_elems) * (double)h->elem_bytes;
    double gbps = med_ms > 0 ? bytes / (med_ms * 1e-3) / 1e9 : 0.0;
    printf("bench %s median_us=%.3f GBps=%.2f\n", h->name, med_ms * 1e3, gbps);
    fflush(stdout);
    rc = 0;
fail:
    for (int i = 0; i < nev; i++) cuEventDestroy(ev[i]);
    if (scratch) cuMemFree(scratch);
    free(ev);
    free(ms);
    return rc;
}

/* Runs one kernel: returns 1 passed, 0 failed (message printed). */
static int run_kernel(Runner *R, const KernelHdr *h, const int64_t *exp) {
    CUresult cr = CUDA_SUCCESS;
    CUfunction fn;
    CUdeviceptr din = 0, dout_base = 0;
    const int eb = h->elem_bytes;
    const size_t in_bytes = (size_t)h->in_elems * (size_t)eb, out_bytes = (size_t)h->out_elems * (size_t)eb;
    const size_t total_out = out_bytes + 2 * GUARD_BYTES;
    unsigned char *hin = malloc(in_bytes ? in_bytes : 1), *hout = malloc(out_bytes ? out_bytes : 1);
    unsigned char *hguard = malloc(2 * GUARD_BYTES);
    int passed = 0;

    if (!hin || !hout || !hguard) {
        printf("FAIL %s: out of host memory\n", h->name);
        goto done;
    }
    cr = cuModuleGetFunction(&fn, R->mod, h->name);
    if (cr != CUDA_SUCCESS) {
        const char *en = NULL;
        if (cuGetErrorName(cr, &en) != CUDA_SUCCESS) en = "?";
        printf("FAIL %s: no such kernel in the module (%s)\n", h->name, en);
        goto done;
    }
    {
        int regs = -1, smem = -1;
        CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
        CK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn));
        if (verbose) fprintf(stderr, "info %s regs=%d static_smem=%d\n", h->name, regs, smem);
        if (smem != 0)
            fprintf(stderr, "warning: %s: %d bytes of static shared memory; lyt's kernels have none\n", h->name,
                    smem);
        /* above 48 KB a kernel must opt in to its dynamic shared memory */
        if (h->smem_bytes > 49152)
            CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)h->smem_bytes));
    }
    CK(cuMemAlloc(&din, in_bytes ? in_bytes : 1));
    CK(cuMemAlloc(&dout_base, total_out));
    CUdeviceptr dout = dout_base + GUARD_BYTES;

    unsigned bits = 0;
    for (uint64_t m = h->in_elems ? h->in_elems - 1 : 0; m; m >>= 1) bits++;
    const unsigned width = 8u * (unsigned)eb;
    const unsigned passes = bits <= width ? 1u : (bits + width - 1) / width;
    void *args[2] = {&din, &dout};

    for (unsigned pass = 0; pass < passes; pass++) {
        unsigned shift = width * pass;
        switch (eb) {
        case 1: fill_1(hin, h->in_elems, shift); break;
        case 2: fill_2(hin, h->in_elems, shift); break;
        case 4: fill_4(hin, h->in_elems, shift); break;
        default: fill_8(hin, h->in_elems, shift); break;
        }
        if (in_bytes) CK(cuMemcpyHtoD(din, hin, in_bytes));
        CK(cuMemsetD8(dout_base, 0xAB, total_out));
        CK(cuLaunchKernel(fn, (unsigned)h->blocks, 1, 1, (unsigned)h->threads, 1, 1, (unsigned)h->smem_bytes,
                          NULL, args, NULL));
        CK(cuCtxSynchronize());
        if (out_bytes) CK(cuMemcpyDtoH(hout, dout, out_bytes));
        CK(cuMemcpyDtoH(hguard, dout_base, GUARD_BYTES));
        CK(cuMemcpyDtoH(hguard + GUARD_BYTES, dout + out_bytes, GUARD_BYTES));

        uint64_t first = 0, bad;
        switch (eb) {
        case 1: bad = check_1(hin, hout, exp, h->out_elems, &first); break;
        case 2: bad = check_2(hin, hout, exp, h->out_elems, &first); break;
        case 4: bad = check_4(hin, hout, exp, h->out_elems, &first); break;
        default: bad = check_8(hin, hout, exp, h->out_elems, &first); break;
        }
        if (bad) {
            uint64_t got = load_elem(hout, first, eb);
            if (exp[first] >= 0)
                printf("FAIL %s: out[%" PRIu64 "] = 0x%0*" PRIx64 ", expected in[%" PRId64 "] = 0x%0*" PRIx64
                       " (first of %" PRIu64 " mismatches)\n",
                       h->name, first, 2 * eb, got, exp[first], 2 * eb, load_elem(hin, (uint64_t)exp[first], eb),
                       bad);
            else
                printf("FAIL %s: out[%" PRIu64 "] = 0x%0*" PRIx64 ", expected untouched 0x%0*" PRIx64
                       " (first of %" PRIu64 " mismatches)\n",
                       h->name, first, 2 * eb, got, 2 * eb, (uint64_t)(0xABABABABABABABABull >> (64 - 8 * eb)), bad);
            if (passes > 1) fprintf(stderr, "  (%s: in pass %u of %u)\n", h->name, pass, passes);
            goto done;
        }
        size_t gbad = 0, gfirst = 0;
        for (size_t b = 0; b < 2 * GUARD_BYTES; b++)
            if (hguard[b] != 0xAB) {
                if (!gbad) gfirst = b;
                gbad++;
            }
        if (gbad) {
            if (gfirst < GUARD_BYTES)
                printf("FAIL %s: wrote %zu bytes before out, first at byte offset -%zu\n", h->name, gbad,
                       GUARD_BYTES - gfirst);
            else
                printf("FAIL %s: wrote %zu bytes past the end of out, first at byte offset %zu (out is %zu "
                       "bytes)\n",
                       h->name, gbad, out_bytes + (gfirst - GUARD_BYTES), out_bytes);
            goto done;
        }
    }
    printf("ok %s\n", h->name);
    fflush(stdout);
    passed = 1;
    if (R->bench_reps > 0 && bench_kernel(h, fn, din, dout, R->bench_reps) != 0) {
        cr = cuCtxSynchronize();
        if (cr != CUDA_SUCCESS) R->ctx_dead = 1;
        printf("FAIL %s: %s in %s while benchmarking\n", h->name, last_err_name, last_err_call);
        passed = 0;
    }
    goto done;

fail:
    printf("FAIL %s: %s in %s\n", h->name, last_err_name, last_err_call);
    /* Sticky errors (illegal address, trap, ...) poison the context: every
     * later call fails too, so stop there. */
    if (cuCtxSynchronize() != CUDA_SUCCESS) R->ctx_dead = 1;
    passed = 0;
done:
    fflush(stdout);
    if (din) cuMemFree(din);
    if (dout_base) cuMemFree(dout_base);
    free(hin);
    free(hout);
    free(hguard);
    return passed;
}

/* ----------------------------------------------------------------- main */

static int usage(void) {
    fprintf(stderr, "usage: run_ptx [--bench REPS] MODULE.ptx EXPECT.txt\n"
                    "       run_ptx --list EXPECT.txt\n");
    return 2;
}

static int do_list(const char *path) {
    size_t len;
    char *buf = slurp(path, &len);
    if (!buf) return 2;
    Lexer lx;
    int rc = 0, count = 0;
    if (lexer_open(&lx, path, buf, len)) rc = 2;
    while (rc == 0) {
        KernelHdr h;
        int r = parse_header(&lx, &h);
        if (r == 0) break;
        if (r < 0 || parse_body(&lx, &h, NULL)) {
            rc = 2;
            break;
        }
        print_header(&h);
        count++;
    }
    if (rc == 0 && count == 0) {
        fprintf(stderr, "%s: no kernels\n", path);
        rc = 2;
    }
    free(buf);
    return rc;
}

int main(int argc, char **argv) {
    int bench_reps = 0;
    int ai = 1;
    if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
        if (argc != 3) return usage();
        return do_list(argv[2]);
    }
    if (argc >= 2 && strcmp(argv[1], "--bench") == 0) {
        if (argc < 3) return usage();
        char *e;
        long r = strtol(argv[2], &e, 10);
        if (*argv[2] == '\0' || *e != '\0' || r < 1 || r > 1000000) {
            fprintf(stderr, "run_ptx: REPS must be an integer in 1..1000000\n");
            return 2;
        }
        bench_reps = (int)r;
        ai = 3;
    }
    if (argc - ai != 2) return usage();
    const char *ptx_path = argv[ai], *exp_path = argv[ai + 1];
    const char *ve = getenv("RUN_PTX_VERBOSE");
    verbose = ve && *ve && strcmp(ve, "0") != 0;
    int devno = 0;
    const char *de = getenv("RUN_PTX_DEVICE");
    if (de && *de) devno = atoi(de);

    size_t ptx_len, exp_len;
    char *ptx = slurp(ptx_path, &ptx_len);
    if (!ptx) return 2;
    char *ebuf = slurp(exp_path, &exp_len);
    if (!ebuf) {
        free(ptx);
        return 2;
    }
    Lexer lx;
    if (lexer_open(&lx, exp_path, ebuf, exp_len)) {
        free(ptx);
        free(ebuf);
        return 2;
    }

    int exit_code = 2, npass = 0, nfail = 0, nkernels = 0;
    CUresult cr = CUDA_SUCCESS;
    CUdevice dev;
    CUcontext ctx = NULL;
    int ctx_retained = 0;
    Runner R = {NULL, bench_reps, 0};
    char errlog[32768], infolog[32768];
    errlog[0] = infolog[0] = '\0';

    CK(cuInit(0));
    CK(cuDeviceGet(&dev, devno));
    {
        char dname[256] = "?";
        int maj = 0, min = 0;
        CK(cuDeviceGetName(dname, (int)sizeof dname, dev));
        CK(cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
        CK(cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
        fprintf(stderr, "device %d: %s (sm_%d%d)\n", devno, dname, maj, min);
    }
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    ctx_retained = 1;
    CK(cuCtxSetCurrent(ctx));
    {
        CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                               CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
        void *vals[] = {errlog, (void *)(uintptr_t)sizeof errlog, infolog, (void *)(uintptr_t)sizeof infolog,
                        (void *)(uintptr_t)(verbose ? 1 : 0)};
        cr = cuModuleLoadDataEx(&R.mod, ptx, (unsigned)(sizeof opts / sizeof opts[0]), opts, vals);
        errlog[sizeof errlog - 1] = infolog[sizeof infolog - 1] = '\0';
        if (cr != CUDA_SUCCESS) {
            cuda_report(cr, "cuModuleLoadDataEx", __LINE__);
            fprintf(stderr, "%s: PTX JIT error log:\n%s\n", ptx_path, errlog[0] ? errlog : "(empty)");
            if (infolog[0]) fprintf(stderr, "%s: PTX JIT info log:\n%s\n", ptx_path, infolog);
            goto fail;
        }
        if (verbose && infolog[0]) fprintf(stderr, "%s: PTX JIT info log:\n%s\n", ptx_path, infolog);
    }

    for (;;) {
        KernelHdr h;
        int r = parse_header(&lx, &h);
        if (r == 0) break;
        if (r < 0) goto malformed;
        int64_t *exp = malloc(h.out_elems ? (size_t)h.out_elems * sizeof *exp : 1);
        if (!exp) {
            fprintf(stderr, "error: out of memory for %" PRIu64 " expected indices\n", h.out_elems);
            goto fail;
        }
        if (parse_body(&lx, &h, exp)) {
            free(exp);
            goto malformed;
        }
        nkernels++;
        if (run_kernel(&R, &h, exp))
            npass++;
        else
            nfail++;
        free(exp);
        if (R.ctx_dead) {
            fprintf(stderr, "error: the CUDA context is unusable after %s; stopping\n", h.name);
            printf("%d passed, %d failed\n", npass, nfail);
            goto fail;
        }
    }
    if (nkernels == 0) {
        fprintf(stderr, "%s: no kernels\n", exp_path);
        goto fail;
    }
    printf("%d passed, %d failed\n", npass, nfail);
    exit_code = nfail ? 1 : 0;
    goto cleanup;

malformed:
    printf("%d passed, %d failed\n", npass, nfail);
    fprintf(stderr, "%s: malformed expect file\n", exp_path);
    exit_code = 2;
    goto cleanup;
fail:
    exit_code = 2;
cleanup:
    fflush(stdout);
    if (R.mod && !R.ctx_dead) cuModuleUnload(R.mod);
    if (ctx_retained) cuDevicePrimaryCtxRelease(dev);
    free(ptx);
    free(ebuf);
    return exit_code;
}
