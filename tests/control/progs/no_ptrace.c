/* SPDX-License-Identifier: GPL-2.0-or-later */
/* no_ptrace.c: runs a command in which every ptrace() fails with EPERM,
   as it does where Yama's ptrace_scope, a missing CAP_SYS_PTRACE or a
   seccomp profile forbids it: no_ptrace COMMAND [ARGS...].  A seccomp
   filter, inherited by everything the command runs. */

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char** argv)
{
   struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
   };
   struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };
   if (argc < 2) {
      fprintf(stderr, "usage: no_ptrace COMMAND [ARGS...]\n");
      return 2;
   }
   if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
       || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
      perror("no_ptrace: seccomp");
      return 126;
   }
   execvp(argv[1], argv + 1);
   perror("no_ptrace: exec");
   return 127;
}
