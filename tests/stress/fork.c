/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fork.c: several processes from one: main forks a child, a second thread
   forks another (a fork from a thread: the child has that thread only),
   and the first child forks a grandchild.  Each process does work of its
   own size and allocates blocks of its own sizes, so each one's profile
   can be told from the others', and ends with its own exit status. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned sink;

__attribute__((noinline)) static void work(unsigned n, size_t size)
{
   unsigned s = 0;
   for (unsigned i = 0; i < n; i++) {
      unsigned char* p = malloc(size);
      p[0] = (unsigned char)i;
      s += p[0] * 3u;
      free(p);
   }
   char* kept = malloc(size * 2);   /* live at this process's end */
   kept[0] = 1;
   sink = s;
}

static int wait_for(pid_t pid)
{
   int status = 0;
   waitpid(pid, &status, 0);
   return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void* forking_thread(void* arg)
{
   (void)arg;
   pid_t pid = fork();
   if (pid == 0) {
      work(3000, 48);
      exit(12);
   }
   return (void*)(long)wait_for(pid);
}

int main(void)
{
   pid_t pid = fork();
   if (pid == 0) {
      pid_t grandchild = fork();
      if (grandchild == 0) {
         work(4000, 64);
         return 13;
      }
      work(2000, 32);
      return wait_for(grandchild) == 13 ? 11 : 1;
   }
   pthread_t t;
   void*     from_thread;
   pthread_create(&t, NULL, forking_thread, NULL);
   pthread_join(t, &from_thread);
   work(1000, 16);
   return wait_for(pid) == 11 && (long)from_thread == 12 ? 0 : 1;
}
