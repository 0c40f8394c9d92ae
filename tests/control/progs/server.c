/* SPDX-License-Identifier: GPL-2.0-or-later */
/* server.c: a small TCP server for the control tests.  It listens on
   127.0.0.1 on a port the kernel chooses, writes the port to the file
   named by its first argument (whole, through a rename), keeps three heap
   blocks of 1000, 2000 and 4000 bytes live, and then, blocked in poll()
   between requests as servers are, answers each connection: it reads one
   request "work N", does N rounds of arithmetic and writes the result as
   decimal digits and a newline.  Every request of the same N costs the
   same instructions, so the tests can count the work done between two
   dumps.

   With --exit-on-term it handles SIGTERM by leaving its loop and
   returning from main; otherwise SIGTERM and SIGINT end it by their
   default action.  No stdio streams: the only heap blocks are its own. */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>   /* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Kept as calls, for the tests to count. */
#define NOINLINE __attribute__((noinline))

static volatile sig_atomic_t stop;

static void on_term(int sig) { stop = 1; }

/* The work a request asks for: a checksum of `rounds` steps of a linear
   congruential generator.  The tests compute the same. */
NOINLINE unsigned long compute(unsigned long rounds)
{
   unsigned long x = 12345, sum = 0, i;
   for (i = 0; i < rounds; i++) {
      x = x * 6364136223846793005UL + 1442695040888963407UL;
      sum += x >> 33;
   }
   return sum;
}

/* "work N" -> N; anything else -> 0. */
NOINLINE unsigned long parse_rounds(const char* req, long len)
{
   unsigned long n = 0;
   long i;
   if (len < 5 || memcmp(req, "work ", 5) != 0)
      return 0;
   for (i = 5; i < len && req[i] >= '0' && req[i] <= '9'; i++)
      n = n * 10 + (unsigned long)(req[i] - '0');
   return n;
}

/* Decimal digits of v and a newline into out; returns the length. */
NOINLINE long format_number(unsigned long v, char* out)
{
   char digits[24];
   long n = 0, len = 0;
   do { digits[n++] = (char)('0' + v % 10); v /= 10; } while (v);
   while (n) out[len++] = digits[--n];
   out[len++] = '\n';
   return len;
}

NOINLINE void handle_request(int fd)
{
   char req[64], reply[32];
   long got = read(fd, req, sizeof req);
   if (got <= 0)
      return;
   long len = format_number(compute(parse_rounds(req, got)), reply);
   if (write(fd, reply, (size_t)len) != len)
      return;
}

NOINLINE void serve(int listener)
{
   struct pollfd p = { listener, POLLIN, 0 };
   while (!stop) {
      if (poll(&p, 1, -1) < 0)
         continue;   /* EINTR: the SIGTERM handler may have run */
      int fd = accept(listener, NULL, NULL);
      if (fd < 0)
         continue;
      handle_request(fd);
      close(fd);
   }
}

static int write_port(const char* path, int listener)
{
   struct sockaddr_in a;
   socklen_t alen = sizeof a;
   char tmp[4096], text[32];
   if (getsockname(listener, (struct sockaddr*)&a, &alen) != 0 || strlen(path) > 4000)
      return -1;
   long len = format_number(ntohs(a.sin_port), text);
   strcpy(tmp, path);
   strcat(tmp, ".tmp");
   int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
   if (fd < 0 || write(fd, text, (size_t)len) != len || close(fd) != 0)
      return -1;
   return rename(tmp, path);
}

int main(int argc, char** argv)
{
   static char* kept[3];
   struct sockaddr_in a;
   int one = 1;
   if (argc < 2)
      return 2;
   if (argc > 2 && strcmp(argv[2], "--exit-on-term") == 0) {
      struct sigaction sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = on_term;
      sigaction(SIGTERM, &sa, NULL);   /* no SA_RESTART: poll returns EINTR */
   }
   kept[0] = malloc(1000);
   kept[1] = malloc(2000);
   kept[2] = malloc(4000);
   int listener = socket(AF_INET, SOCK_STREAM, 0);
   memset(&a, 0, sizeof a);
   a.sin_family = AF_INET;
   a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
   a.sin_port = 0;
   if (listener < 0 || setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0
       || bind(listener, (struct sockaddr*)&a, sizeof a) != 0 || listen(listener, 16) != 0
       || write_port(argv[1], listener) != 0)
      return 3;
   serve(listener);
   close(listener);
   free(kept[0]);
   free(kept[1]);
   free(kept[2]);
   return 0;
}
