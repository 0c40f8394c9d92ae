/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vp_fingerprint.c: what besides the program, its arguments and the tool's
   options moves the counts of a run, written into the profile as
   meta.fingerprint so that `vgprof diff` can refuse two profiles that do
   not compare.  The environment the client was started with (each
   variable's name, in order, and a hash of its value: a CI job's
   environment holds secrets, and their lengths and contents both move the
   instruction counts), the working directory, and Valgrind's own options.
   Captured after the options are read, when Valgrind has laid out the
   client's stack and before the client runs, from the environment Valgrind
   built for it (its LD_PRELOAD included). */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_xarray.h"
#include "vp_global.h"

typedef struct {
   HChar* name;
   HChar  hash[17];   /* FNV-1a of the value, 16 hex digits */
} EnvVar;

static Bool    captured = False;
static XArray* env_vars;        /* of EnvVar */
static ULong   env_bytes;       /* "NAME=value" strings, terminators included */
static HChar*  working_dir;
static XArray* core_options;    /* of const HChar*: Valgrind's own options */

/* FNV-1a, 64 bits: a short, stable digest; nothing here needs more. */
static ULong fnv1a(const HChar* s)
{
   ULong h = 0xcbf29ce484222325ULL;
   for (; *s; s++)
      h = (h ^ (UChar)*s) * 0x100000001b3ULL;
   return h;
}

static void capture_env(void)
{
   HChar** e;
   env_vars = VG_(newXA)(VG_(malloc), "vp.fp.env", VG_(free), sizeof(EnvVar));
   for (e = VG_(client_envp); e != NULL && *e != NULL; e++) {
      const HChar* equals = VG_(strchr)(*e, '=');
      SizeT        name_len = equals ? (SizeT)(equals - *e) : VG_(strlen)(*e);
      EnvVar       v;
      v.name = VG_(malloc)("vp.fp.name", name_len + 1);
      VG_(memcpy)(v.name, *e, name_len);
      v.name[name_len] = '\0';
      VG_(sprintf)(v.hash, "%016llx", fnv1a(equals ? equals + 1 : ""));
      VG_(addToXA)(env_vars, &v);
      env_bytes += VG_(strlen)(*e) + 1;
   }
}

/* The tool's own options are in meta.options already, and --tool= says
   only that this is vgprof. */
static Bool is_tool_option(const HChar* arg)
{
   Word i;
   if (VG_(strncmp)(arg, "--tool=", 7) == 0)
      return True;
   for (i = 0; i < VG_(sizeXA)(VP_(tool_args)); i++)
      if (*(const HChar**)VG_(indexXA)(VP_(tool_args), i) == arg)
         return True;
   return False;
}

static void capture_core_options(void)
{
   Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));
   core_options = VG_(newXA)(VG_(malloc), "vp.fp.opts", VG_(free), sizeof(const HChar*));
   for (i = 0; i < n; i++) {
      const HChar* arg = *(HChar**)VG_(indexXA)(VG_(args_for_valgrind), i);
      if (!is_tool_option(arg))
         VG_(addToXA)(core_options, &arg);
   }
}

void VP_(fingerprint_capture)(void)
{
   const HChar* wd;
   if (captured)
      return;
   captured = True;
   capture_env();
   wd = VG_(get_startup_wd)();
   working_dir = VG_(strdup)("vp.fp.wd", wd ? wd : "");
   capture_core_options();
}

void VP_(fingerprint_write)(VP_Out* o)
{
   Word i;
   if (!captured)
      VP_(fingerprint_capture)();
   VP_(out_s)(o, "\n ,\"fingerprint\":{\"cwd\":");
   VP_(out_json_str)(o, working_dir);
   VP_(out_s)(o, ",\"env_bytes\":");
   VP_(out_u64)(o, env_bytes);
   VP_(out_s)(o, ",\"env\":[");
   for (i = 0; i < VG_(sizeXA)(env_vars); i++) {
      const EnvVar* v = VG_(indexXA)(env_vars, i);
      VP_(out_s)(o, i ? ",[" : "[");
      VP_(out_json_str)(o, v->name);
      VP_(out_s)(o, ",\"");
      VP_(out_s)(o, v->hash);
      VP_(out_s)(o, "\"]");
   }
   VP_(out_s)(o, "],\"valgrind_options\":[");
   for (i = 0; i < VG_(sizeXA)(core_options); i++) {
      if (i) VP_(out_s)(o, ",");
      VP_(out_json_str)(o, *(const HChar**)VG_(indexXA)(core_options, i));
   }
   VP_(out_s)(o, "]}");
}
