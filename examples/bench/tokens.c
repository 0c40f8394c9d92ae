/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tokens.c: a benchmark of the example suite (examples/bench/record).
   Splits a generated text into words, keeps each word in a token of its
   own (two allocations: the token and a copy of its text), then frees
   them: the allocation pattern of a parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS 20000

struct token {
   char*    text;
   unsigned length;
};

static char* make_text(void)
{
   static const char* const syllables[] = {"ta", "ko", "ri", "mu", "se", "la", "pi", "no"};
   char*    text = malloc(WORDS * 9 + 1);
   char*    p = text;
   unsigned x = 7;
   for (int i = 0; i < WORDS; i++) {
      x = x * 1103515245u + 12345u;
      for (unsigned n = 1 + (x >> 16) % 4; n > 0; n--) {
         const char* s = syllables[(x >> (4 + n)) % 8];
         *p++ = s[0];
         *p++ = s[1];
      }
      *p++ = ' ';
   }
   *p = '\0';
   return text;
}

static struct token* new_token(const char* start, unsigned length)
{
   struct token* t = malloc(sizeof *t);
   t->text = malloc(length + 1);
   memcpy(t->text, start, length);
   t->text[length] = '\0';
   t->length = length;
   return t;
}

int main(void)
{
   char*          text = make_text();
   struct token** tokens = malloc(WORDS * sizeof *tokens);
   unsigned       n = 0, letters = 0;
   for (char* p = text; *p;) {
      char* end = strchr(p, ' ');
      tokens[n++] = new_token(p, (unsigned)(end - p));
      p = end + 1;
   }
   for (unsigned i = 0; i < n; i++) {
      letters += tokens[i]->length;
      free(tokens[i]->text);
      free(tokens[i]);
   }
   printf("%u tokens, %u letters\n", n, letters);
   free(tokens);
   free(text);
   return 0;
}
