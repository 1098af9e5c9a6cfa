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

/* Entered by a debugger's jump with any register values: run the C side
 * on the library's private stack. */
        .globl  drdb_ckpt_take_trampoline
        .type   drdb_ckpt_take_trampoline, @function
drdb_ckpt_take_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        movq    ckpt__tramp_stack(%rip), %rsp
        andq    $-16, %rsp
        xorl    %ebp, %ebp
        callq   ckpt__take_external
        ud2
        .cfi_endproc
        .size   drdb_ckpt_take_trampoline, .-drdb_ckpt_take_trampoline

        .globl  drdb_ckpt_restore_trampoline
        .type   drdb_ckpt_restore_trampoline, @function
drdb_ckpt_restore_trampoline:
        .cfi_startproc
        .cfi_undefined rip
        movq    ckpt__tramp_stack(%rip), %rsp
        andq    $-16, %rsp
        xorl    %ebp, %ebp
        callq   ckpt__restore_external
        ud2
        .cfi_endproc
        .size   drdb_ckpt_restore_trampoline, .-drdb_ckpt_restore_trampoline

        .section .note.GNU-stack,"",@progbits
