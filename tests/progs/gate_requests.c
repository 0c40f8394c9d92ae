/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_requests: one benchmark of the CI gate's tests, in two builds: a
   server's loop answering REQUESTS requests, each building its reply in a
   payload buffer of PAYLOAD bytes, freed once the reply is sent, beside a
   table kept for the whole run; with -DDOUBLED each payload is twice as
   large.  The blocks stay as many and the instructions nearly as many;
   the peak rises by PAYLOAD, a few percent of the table; the bytes
   allocated rise by exactly REQUESTS * PAYLOAD: the doubled per-request
   allocation that only `HeapBytes` shows. */
#include <stdlib.h>
#include <string.h>

#define REQUESTS 200
#define TABLE    (64 * 1024)
#define PAYLOAD  4096
#ifdef DOUBLED
#define PAYLOAD_NOW (2 * PAYLOAD)
#else
#define PAYLOAD_NOW PAYLOAD
#endif
#define HEADER   64

static unsigned char* table;

/* The request's work: a checksum over part of the table. */
static unsigned answer(unsigned request)
{
   unsigned sum = request;
   for (unsigned i = 0; i < 2048; i++)
      sum = sum * 31 + table[(request * 97 + i) % TABLE];
   return sum;
}

static unsigned handle_request(unsigned request)
{
   unsigned char* payload = malloc(PAYLOAD_NOW);
   unsigned sum = answer(request);
   memset(payload, (int)sum, HEADER);   /* the reply's header */
   sum += payload[request % HEADER];
   free(payload);
   return sum;
}

int main(void)
{
   unsigned total = 0;
   table = malloc(TABLE);
   for (unsigned i = 0; i < TABLE; i++)
      table[i] = (unsigned char)(i * 7);
   for (unsigned r = 0; r < REQUESTS; r++)
      total += handle_request(r);
   free(table);
   return total == 0;
}
