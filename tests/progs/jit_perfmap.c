/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jit_perfmap: code made at run time, as a JIT makes it, named in the
   perf map a JIT runtime writes (/tmp/perf-PID.map).  Two functions of two
   instructions each are written into an anonymous executable mapping:
   add_one (lea eax, [rdi+1]; ret) and twice (lea eax, [rdi+rdi]; ret),
   and called CALLS times each, so each costs 2 * CALLS instructions in
   CALLS calls from main.  A third, sum_to(3), loops three times (xor; then
   add, dec, jnz thrice; ret): 11 * CALLS instructions in CALLS calls,
   in two blocks.  With "link" the map is a symbolic link to a file
   holding the same lines, which a profiler must not follow; with "none"
   there is no map, and the program says on standard error where each
   function starts ("jit NAME 0x...", the address in 16 hex digits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CALLS 1000

int main(int argc, char** argv)
{
   static const unsigned char code[] = {
      0x8d, 0x47, 0x01, 0xc3,         /* add_one: lea eax, [rdi+1]; ret */
      0x8d, 0x04, 0x3f, 0xc3,         /* twice:   lea eax, [rdi+rdi]; ret */
      0x31, 0xc0,                     /* sum_to:  xor eax, eax */
      0x01, 0xf8,                     /*   loop:  add eax, edi */
      0xff, 0xcf,                     /*          dec edi */
      0x75, 0xfa,                     /*          jnz loop */
      0xc3,                           /*          ret */
   };
   const char* mode = argc > 1 ? argv[1] : "file";
   unsigned char* mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (mem == MAP_FAILED) return 1;
   memcpy(mem, code, sizeof code);

   char map[64], target[80];
   snprintf(map, sizeof map, "/tmp/perf-%d.map", (int)getpid());
   snprintf(target, sizeof target, "%s.target", map);
   FILE* f = fopen(strcmp(mode, "link") == 0 ? target : map, "w");
   if (strcmp(mode, "none") != 0) {
      if (f == NULL) return 1;
      fprintf(f, "%lx 4 jit add_one\n%lx 4 jit twice\n%lx 9 jit sum_to\n",
              (unsigned long)mem, (unsigned long)(mem + 4), (unsigned long)(mem + 8));
      fclose(f);
      if (strcmp(mode, "link") == 0 && symlink(target, map) != 0) return 1;
   } else {
      if (f != NULL) {
         fclose(f);
         unlink(map);
      }
      fprintf(stderr, "jit add_one 0x%016lx\njit twice 0x%016lx\njit sum_to 0x%016lx\n",
              (unsigned long)mem, (unsigned long)(mem + 4), (unsigned long)(mem + 8));
   }

   int (*add_one)(int) = (int (*)(int))mem;
   int (*twice)(int) = (int (*)(int))(mem + 4);
   int (*sum_to)(int) = (int (*)(int))(mem + 8);
   volatile int sum = 0;
   for (int i = 0; i < CALLS; i++)
      sum += add_one(i) + twice(i) + sum_to(3);
   unlink(map);
   unlink(target);
   printf("%d\n", sum);
   return 0;
}
