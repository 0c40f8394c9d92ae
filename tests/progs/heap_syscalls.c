/* SPDX-License-Identifier: GPL-2.0-or-later */
/* heap_syscalls: heap blocks that system calls read and write.  A path
   written into a block of 48 bytes is opened (the kernel reads the string
   and its terminating zero: 10 bytes), a block of 100 bytes is written to
   /dev/null (100 bytes read) and a block of 72 bytes is filled from
   /dev/zero (72 bytes written).  The program's own stores are byte by byte
   through a volatile pointer, so what each block gets follows from this
   source: the path block 10 bytes written and 10 read, the output block
   100 written and 100 read, the input block 72 written. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static void put(volatile char* to, const char* from, size_t n)
{
   for (size_t i = 0; i < n; i++)
      to[i] = from[i];
}

int main(void)
{
   static const char path[] = "/dev/null";   /* 9 characters and a zero */
   char* p   = malloc(48);
   char* out = malloc(100);
   char* in  = malloc(72);
   if (p == NULL || out == NULL || in == NULL)
      return 1;
   put(p, path, sizeof path);
   for (size_t i = 0; i < 100; i++)
      ((volatile char*)out)[i] = (char)i;
   int fd   = open(p, O_WRONLY);
   int zero = open("/dev/zero", O_RDONLY);
   if (fd < 0 || zero < 0)
      return 2;
   if (write(fd, out, 100) != 100 || read(zero, in, 72) != 72)
      return 3;
   close(fd);
   close(zero);
   free(in);
   free(out);
   free(p);
   return 0;
}
