/*
 * ckpt-asm.S - register context and stack switching for the checkpoint
 * library (x86-64 System V). Unlike setjmp/longjmp: no pointer mangling, no
 * shadow-stack or "jump up the stack only" checks, which a restore from the
 * library's private stack would fail.
 *
 * struct ckpt_ctx: rbx rbp r12 r13 r14 r15 rsp rip (8 bytes each),
 * mxcsr (4), x87 control word (2).
 */
        .text

/* int ckpt__save(struct ckpt_ctx *c): 0 now, 1 when resumed by ckpt__jump. */
        .globl  ckpt__save
        .hidden ckpt__save
        .type   ckpt__save, @function
ckpt__save:
        .cfi_startproc
        movq    %rbx, 0(%rdi)
        movq    %rbp, 8(%rdi)
        movq    %r12, 16(%rdi)
        movq    %r13, 24(%rdi)
        movq    %r14, 32(%rdi)
        movq    %r15, 40(%rdi)
        leaq    8(%rsp), %rdx
        movq    %rdx, 48(%rdi)
        movq    (%rsp), %rdx
        movq    %rdx, 56(%rdi)
        stmxcsr 64(%rdi)
        fnstcw  68(%rdi)
        xorl    %eax, %eax
        ret
        .cfi_endproc
        .size   ckpt__save, .-ckpt__save

/* void ckpt__jump(const struct ckpt_ctx *c): returns 1 from ckpt__save. */
        .globl  ckpt__jump
        .hidden ckpt__jump
        .type   ckpt__jump, @function
ckpt__jump:
        .cfi_startproc
        movq    0(%rdi), %rbx
        movq    8(%rdi), %rbp
        movq    16(%rdi), %r12
        movq    24(%rdi), %r13
        movq    32(%rdi), %r14
        movq    40(%rdi), %r15
        ldmxcsr 64(%rdi)
        fldcw   68(%rdi)
        movq    56(%rdi), %rdx
        movq    48(%rdi), %rsp
        movl    $1, %eax
        jmp     *%rdx
        .cfi_endproc
        .size   ckpt__jump, .-ckpt__jump

/* void ckpt__call_on(void *stack_top, void (*fn)(void *), void *arg):
 * calls FN(ARG) on another stack; FN does not return. */
        .globl  ckpt__call_on
        .hidden ckpt__call_on
        .type   ckpt__call_on, @function
ckpt__call_on:
        .cfi_startproc
        movq    %rdi, %rsp
        andq    $-16, %rsp
        movq    %rdx, %rdi
        xorl    %ebp, %ebp
        callq   *%rsi
        ud2
        .cfi_endproc
        .size   ckpt__call_on, .-ckpt__call_on

/*
 * The debugger's trampolines, entered by a jump (only the pc changed): the
 * whole register state is saved first, on the library's private stack as
 * a struct ckpt_xframe (16 general registers, rflags, then the pc the
 * debugger left in drdb_ckpt_pc) plus XSAVE's area (x87, SSE, AVX,
 * AVX-512) at ckpt__xarea; then the C side runs; when it returns, the
 * state is put back and the program resumes at that pc.
 */
        .macro  SAVE_ALL
        movq    %rsp, ckpt__xrsp(%rip)
        movq    ckpt__tramp_stack(%rip), %rsp
        subq    $160, %rsp
        movq    %rax, 0(%rsp)
        movq    %rbx, 8(%rsp)
        movq    %rcx, 16(%rsp)
        movq    %rdx, 24(%rsp)
        movq    %rsi, 32(%rsp)
        movq    %rdi, 40(%rsp)
        movq    %rbp, 48(%rsp)
        movq    %r8, 64(%rsp)
        movq    %r9, 72(%rsp)
        movq    %r10, 80(%rsp)
        movq    %r11, 88(%rsp)
        movq    %r12, 96(%rsp)
        movq    %r13, 104(%rsp)
        movq    %r14, 112(%rsp)
        movq    %r15, 120(%rsp)
        pushfq
        popq    %rax
        movq    %rax, 128(%rsp)
        movq    ckpt__xrsp(%rip), %rax
        movq    %rax, 56(%rsp)
        movq    ckpt__pc(%rip), %rax
        movq    %rax, 136(%rsp)
        movq    ckpt__xarea(%rip), %r11
        movl    $-1, %eax
        movl    $-1, %edx
        xsave64 (%r11)
        movq    %rsp, %rdi
        xorl    %ebp, %ebp
        .endm

        .globl  drdb_ckpt_take_trampoline
        .type   drdb_ckpt_take_trampoline, @function
drdb_ckpt_take_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        SAVE_ALL
        callq   ckpt__take_external
        movq    %rsp, %rdi
        movq    ckpt__xarea(%rip), %rsi
        jmp     ckpt__xresume
        .cfi_endproc
        .size   drdb_ckpt_take_trampoline, .-drdb_ckpt_take_trampoline

        .globl  drdb_ckpt_restore_trampoline
        .type   drdb_ckpt_restore_trampoline, @function
drdb_ckpt_restore_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        SAVE_ALL
        callq   ckpt__restore_external
        /* refused: back where it was */
        movq    %rsp, %rdi
        movq    ckpt__xarea(%rip), %rsi
        jmp     ckpt__xresume
        .cfi_endproc
        .size   drdb_ckpt_restore_trampoline, .-drdb_ckpt_restore_trampoline

        .globl  drdb_ckpt_forget_trampoline
        .type   drdb_ckpt_forget_trampoline, @function
drdb_ckpt_forget_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        SAVE_ALL
        callq   ckpt__forget_external
        movq    %rsp, %rdi
        movq    ckpt__xarea(%rip), %rsi
        jmp     ckpt__xresume
        .cfi_endproc
        .size   drdb_ckpt_forget_trampoline, .-drdb_ckpt_forget_trampoline

/* void ckpt__xresume(const struct ckpt_xframe *f, const void *xarea):
 * the state F and XAREA hold, resumed at F's pc. */
        .globl  ckpt__xresume
        .hidden ckpt__xresume
        .type   ckpt__xresume, @function
ckpt__xresume:
        .cfi_startproc
        .cfi_undefined rip
        movq    56(%rdi), %rax
        movq    %rax, ckpt__xrsp(%rip)
        movq    136(%rdi), %rax
        movq    %rax, ckpt__xrip(%rip)
        pushq   128(%rdi)
        popfq
        movq    %rsi, %r11
        movl    $-1, %eax
        movl    $-1, %edx
        xrstor64 (%r11)
        movq    0(%rdi), %rax
        movq    8(%rdi), %rbx
        movq    16(%rdi), %rcx
        movq    24(%rdi), %rdx
        movq    32(%rdi), %rsi
        movq    48(%rdi), %rbp
        movq    64(%rdi), %r8
        movq    72(%rdi), %r9
        movq    80(%rdi), %r10
        movq    88(%rdi), %r11
        movq    96(%rdi), %r12
        movq    104(%rdi), %r13
        movq    112(%rdi), %r14
        movq    120(%rdi), %r15
        movq    40(%rdi), %rdi
        movq    ckpt__xrsp(%rip), %rsp
        jmp     *ckpt__xrip(%rip)
        .cfi_endproc
        .size   ckpt__xresume, .-ckpt__xresume

/* Scratch for the jumps above (program memory, written only there). */
        .bss
        .align  8
        .globl  ckpt__xrsp
        .hidden ckpt__xrsp
ckpt__xrsp:
        .quad   0
        .globl  ckpt__xrip
        .hidden ckpt__xrip
ckpt__xrip:
        .quad   0

        .section .note.GNU-stack,"",@progbits
