/*
 * gdb-xstate.c - libdrdb-gdb-xstate.so, preloaded into the GDBs the console
 * starts (never into the debugged program): lets GDB 13 write registers on
 * CPUs with AMX.
 *
 * Linux accepts PTRACE_SETREGSET NT_X86_XSTATE only with a buffer of the
 * whole XSAVE area (arch/x86/kernel/fpu/regset.c: xstateregs_set() returns
 * -EFAULT unless the size is fpu_user_cfg.max_size). GDB 13 sizes its
 * buffer for the features it knows, up to AVX-512 and PKRU (2,696 bytes);
 * with AMX's tile state the area is about 11 KB, so every register write
 * fails ("Couldn't write extended state status: Bad address"): calling a
 * function of the program, setting a vector register, and the register
 * restore that ends an inferior call. GDB 14 sizes the buffer from the
 * CPU's own layout.
 *
 * This wrapper of ptrace() makes such a short write whole: it reads the
 * thread's full area, lays GDB's bytes over its start, keeps the state of
 * the components past GDB's buffer (their XSTATE_BV bits from the kernel's
 * copy), and writes the full area. Every other request, and a write of the
 * full size (a fixed GDB), goes through unchanged.
 */
#include <dlfcn.h>
#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* XSAVE's header follows the 512-byte legacy area: XSTATE_BV first. */
#define XSAVE_HDR 512

/* The XSTATE_BV bits of the components that lie past LEN bytes of the
 * standard-format area (CPUID leaf 0xd, sub-leaf n: size in EAX, offset in
 * EBX). */
static uint64_t components_past(size_t len)
{
    uint64_t mask = 0;
    for (unsigned n = 2; n < 64; n++) {
        unsigned eax, ebx, ecx, edx;
        __asm__("cpuid"
                : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx)
                : "a"(0xd), "c"(n));
        if (eax && (size_t)ebx + eax > len)
            mask |= (uint64_t)1 << n;
    }
    return mask;
}

long ptrace(enum __ptrace_request req, ...);
long ptrace(enum __ptrace_request req, ...)
{
    static long (*next)(enum __ptrace_request, ...);
    static uint8_t full[1 << 16] __attribute__((aligned(64)));
    va_list ap;
    va_start(ap, req);
    pid_t pid = va_arg(ap, pid_t);
    void *addr = va_arg(ap, void *);
    void *data = va_arg(ap, void *);
    va_end(ap);
    if (!next)
        next = (long (*)(enum __ptrace_request, ...))dlsym(RTLD_NEXT,
                                                           "ptrace");
    if (req == PTRACE_SETREGSET && (uintptr_t)addr == NT_X86_XSTATE && data) {
        const struct iovec *iov = data;
        struct iovec whole = {full, sizeof full};
        if (iov->iov_len > XSAVE_HDR + 8 &&
            syscall(SYS_ptrace, PTRACE_GETREGSET, pid, addr, &whole) == 0 &&
            whole.iov_len > iov->iov_len) {
            uint64_t kernel_bv, bv, past = components_past(iov->iov_len);
            memcpy(&kernel_bv, full + XSAVE_HDR, 8);
            memcpy(full, iov->iov_base, iov->iov_len);
            memcpy(&bv, full + XSAVE_HDR, 8);
            bv = (bv & ~past) | (kernel_bv & past);
            memcpy(full + XSAVE_HDR, &bv, 8);
            return syscall(SYS_ptrace, PTRACE_SETREGSET, pid, addr, &whole);
        }
    }
    return next(req, pid, addr, data);
}
