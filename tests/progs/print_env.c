/* SPDX-License-Identifier: GPL-2.0-or-later */
/* print_env: prints the environment the program was started with, one
   "NAME=value" a line and in order, then its working directory after
   "cwd ", so that a test can check what the profile's fingerprint says of
   them. */
#include <stdio.h>
#include <unistd.h>

extern char** environ;

int main(void)
{
   char dir[4096];
   for (char** e = environ; *e; e++)
      printf("%s\n", *e);
   printf("cwd %s\n", getcwd(dir, sizeof dir) ? dir : "?");
   return 0;
}
