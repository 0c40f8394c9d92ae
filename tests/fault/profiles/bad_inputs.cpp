// SPDX-License-Identifier: GPL-2.0-or-later
// bad_inputs.cpp: see bad_inputs.hpp. A lie is told by editing the real
// profile as a JSON document (Boost.JSON) at a JSON pointer; a value JSON
// cannot hold as a number (1e400, 2^64) or that is not JSON at all (NaN) is
// put in as text after serialising.
#include "bad_inputs.hpp"

#include "../../tool/harness.hpp"

#include <boost/json.hpp>

#include <fstream>
#include <random>
#include <stdexcept>

namespace json = boost::json;

namespace vgtest {

namespace {

const char* const kRawMarker = "@raw@";

std::string slug(std::string s)
{
   for (char& c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)))
         c = '_';
   return s;
}

json::value& at(json::value& doc, const std::string& pointer)
{
   json::error_code ec;
   json::value* v = doc.find_pointer(pointer, ec);
   if (v == nullptr)
      throw std::runtime_error("the real profile has no " + pointer + " to edit");
   return *v;
}

// The document with the value at `pointer` replaced by the JSON text `raw`.
std::string with_raw(json::value doc, const std::string& pointer, const std::string& raw)
{
   at(doc, pointer) = kRawMarker;
   std::string text = json::serialize(doc);
   const std::string quoted = std::string("\"") + kRawMarker + "\"";
   text.replace(text.find(quoted), quoted.size(), raw);
   return text;
}

// Values of other kinds than `v`'s, none of which the format allows there.
std::vector<std::string> other_kinds(const json::value& v)
{
   switch (v.kind()) {
   case json::kind::array: return {"{}", "\"x\""};
   case json::kind::object: return {"[]", "\"x\""};
   case json::kind::string: return {"7", "[]"};
   case json::kind::null: return {"\"x\"", "{}"};
   case json::kind::bool_: return {"1", "\"true\""};
   default: return {"\"7\"", "true"};
   }
}

class Writer {
public:
   Writer(const std::string& dir, std::vector<BadInput>& out) : dir_(dir), out_(out) {}
   void add(const std::string& what, const std::string& text)
   {
      const std::string path = dir_ + "/" + std::to_string(out_.size()) + "." + slug(what);
      write_file(path, text);
      out_.push_back({what, path});
   }

private:
   std::string dir_;
   std::vector<BadInput>& out_;
};

// The sections and the values inside them whose type the format fixes.
const char* const kTypedPlaces[] = {
   "/meta", "/meta/tool", "/meta/argv", "/meta/argv/0", "/meta/options", "/meta/events",
   "/meta/events/0", "/meta/cache", "/meta/totals", "/meta/totals/0", "/meta/exit",
   "/meta/run", "/strs", "/strs/0", "/objs", "/objs/0", "/files", "/files/0", "/fns",
   "/fns/0", "/fns/0/0", "/fns/0/3", "/lines", "/lines/0", "/lines/0/0", "/lines/0/3",
   "/calls", "/calls/0", "/calls/0/4", "/inclusive", "/inclusive/0", "/inclusive/0/1",
   "/paths", "/paths/0", "/paths/0/0", "/paths/1/0", "/paths/0/1", "/paths/0/2",
   "/heap", "/heap/depth", "/heap/totals", "/heap/totals/bytes", "/heap/frames",
   "/heap/frames/0", "/heap/frames/0/0", "/heap/sites", "/heap/sites/0", "/heap/sites/0/0",
   "/heap/sites/0/0/0", "/heap/sites/0/1", "/heap/sites/0/12", "/heap/timeline",
   "/heap/timeline/width", "/heap/timeline/samples", "/heap/timeline/samples/0",
   "/heap/snapshots", "/heap/snapshots/0", "/heap/snapshots/0/kind",
   "/heap/snapshots/0/sites"};

// An id and the table it indexes.
struct IdPlace {
   const char* id;
   const char* table;
};
const IdPlace kIds[] = {
   {"/objs/0", "/strs"},          {"/files/0", "/strs"},
   {"/fns/0/0", "/strs"},         {"/fns/0/1", "/files"},
   {"/fns/0/2", "/objs"},         {"/lines/0/0", "/fns"},
   {"/lines/0/1", "/files"},      {"/calls/0/0", "/fns"},
   {"/calls/0/1", "/fns"},        {"/calls/0/2", "/files"},
   {"/inclusive/0/0", "/fns"},    {"/paths/1/0", "/paths"},
   {"/paths/0/1", "/fns"},        {"/heap/frames/0/1", "/fns"},
   {"/heap/frames/0/2", "/files"}, {"/heap/sites/0/0/0", "/heap/frames"},
   {"/heap/snapshots/0/sites/0/0", "/heap/sites"}};

// Numbers no id, count or cost can be: negative, fractional, beyond 64
// bits, beyond a double, and what JSON has no number for.
const char* const kBadNumbers[] = {"-1",   "-9223372036854775809", "18446744073709551616",
                                   "0.5",  "1e400",                "-1e400",
                                   "NaN",  "Infinity"};
const char* const kCounted[] = {"/meta/totals/0",      "/lines/0/3",       "/calls/0/4",
                                "/paths/0/2",          "/heap/depth",      "/heap/totals/bytes",
                                "/heap/sites/0/1",     "/heap/timeline/width",
                                "/heap/snapshots/0/time", "/fns/0/3"};

// The first paths node with a child, and that child.
std::pair<size_t, size_t> parent_and_child(const json::array& paths)
{
   for (size_t i = 0; i < paths.size(); ++i) {
      const json::value& parent = paths[i].as_array()[0];
      if (!parent.is_null())
         return {size_t(parent.to_number<uint64_t>()), i};
   }
   throw std::runtime_error("the real profile's call paths have no child");
}

}  // namespace

std::vector<BadInput> truncations(const std::string& text, const std::string& name,
                                  const std::string& dir, size_t pieces)
{
   std::vector<BadInput> out;
   for (size_t k = 1; k < pieces; ++k) {
      const std::string path = dir + "/" + name + ".cut" + std::to_string(k);
      write_file(path, text.substr(0, text.size() * k / pieces));
      out.push_back({name + " cut after " + std::to_string(k) + "/" + std::to_string(pieces) +
                         " of its length",
                     path});
   }
   return out;
}

std::vector<BadInput> random_inputs(const std::string& dir, uint32_t seeds)
{
   const std::string heads[] = {"", "\x1f\x8b", "\x28\xb5\x2f\xfd", "{\"vgprof\":3,",
                                "events: Ir\n", "{\"dhatFileVersion\":2,"};
   std::vector<BadInput> out;
   Writer writer(dir, out);
   for (uint32_t seed = 1; seed <= seeds; ++seed) {
      std::mt19937 random(seed);
      std::string bytes(1 + random() % 65536, '\0');
      for (char& c : bytes)
         c = char(random());
      for (const std::string& head : heads)
         writer.add("random bytes (seed " + std::to_string(seed) + ") after \"" +
                        slug(head) + "\"",
                    head + bytes);
   }
   return out;
}

std::vector<BadInput> lying_profiles(const std::string& profile, const std::string& dir)
{
   const json::value doc = json::parse(profile);
   std::vector<BadInput> out;
   Writer writer(dir, out);

   for (const char* place : kTypedPlaces) {
      json::value copy = doc;
      for (const std::string& raw : other_kinds(at(copy, place)))
         writer.add(std::string(place) + " is " + raw, with_raw(doc, place, raw));
   }

   for (const IdPlace& id : kIds) {
      json::value copy = doc;
      const size_t size = at(copy, id.table).as_array().size();
      for (const std::string& raw : {std::to_string(size), std::string("4294967296"),
                                     std::string("-1"), std::string("18446744073709551616")})
         writer.add(std::string(id.id) + " (an id in " + id.table + ") is " + raw,
                    with_raw(doc, id.id, raw));
   }
   for (const char* place : kCounted)
      for (const char* raw : kBadNumbers)
         writer.add(std::string(place) + " is " + raw, with_raw(doc, place, raw));

   // Long and unprintable strings where a message may quote them.
   const std::string mebibyte = "\"" + std::string(1 << 20, 'm') + "\"";
   writer.add("meta.tool is a mebibyte long", with_raw(doc, "/meta/tool", mebibyte));
   writer.add("meta.events lists a mebibyte-long event twice",
              with_raw(doc, "/meta/events", "[" + mebibyte + "," + mebibyte + "]"));
   writer.add("meta.tool has control characters",
              with_raw(doc, "/meta/tool", "\"vg\\nprof\\u001b[31m\\r\""));

   // Cycles: a node that is its own parent, and one whose parent is its child.
   {
      json::value copy = doc;
      const auto [parent, child] = parent_and_child(at(copy, "/paths").as_array());
      const std::string parent_of = "/paths/" + std::to_string(parent) + "/0";
      const std::string child_of = "/paths/" + std::to_string(child) + "/0";
      writer.add("call path " + std::to_string(child) + " is its own parent",
                 with_raw(doc, child_of, std::to_string(child)));
      writer.add("call path " + std::to_string(parent) + "'s parent is its child " +
                     std::to_string(child),
                 with_raw(doc, parent_of, std::to_string(child)));
   }

   // Versions: from the future, absent, not first, not an integer.
   for (const std::string raw : {kFutureVersion, std::string("4294967296"), std::string("0"),
                                 std::string("-3"), std::string("\"3\""), std::string("3.0"),
                                 std::string("null")})
      writer.add("version " + raw, with_raw(doc, "/vgprof", raw));
   {
      json::value copy = doc;
      copy.as_object().erase("vgprof");
      writer.add("no version", json::serialize(copy));
      copy.as_object()["vgprof"] = doc.at("vgprof");
      writer.add("the version after the other keys", json::serialize(copy));
   }
   return out;
}

std::vector<BadInput> lying_foreign(const std::string& callgrind, const std::string& dhat,
                                    const std::string& dir)
{
   std::vector<BadInput> out;
   Writer writer(dir, out);
   const size_t events = callgrind.find("\nevents: ");
   const size_t fn = callgrind.find("\nfn=");
   if (events == std::string::npos || fn == std::string::npos)
      throw std::runtime_error("the callgrind file is not as expected");
   const auto edit = [&](size_t at, const std::string& line) {
      return callgrind.substr(0, at) + "\n" + line + callgrind.substr(at);
   };
   writer.add("callgrind: an event with control characters listed twice",
              edit(events, "events: I\x1b[31mr I\x1b[31mr\r"));
   writer.add("callgrind: a mebibyte-long event listed twice",
              edit(events, "events: " + std::string(1 << 20, 'e') + " " + std::string(1 << 20, 'e')));
   writer.add("callgrind: a name used before it is defined", edit(fn, "cfn=(4294967295)"));
   writer.add("callgrind: a call count beyond 64 bits",
              edit(fn, "calls=18446744073709551616 0"));
   writer.add("callgrind: a cost beyond 64 bits", edit(fn, "fn=(1) x\n0 18446744073709551616"));
   writer.add("callgrind: a negative line", edit(fn, "fn=(1) x\n-1 5"));
   writer.add("callgrind: a future version", "version: 99\n" + callgrind);

   json::value doc = json::parse(dhat);
   writer.add("DHAT: a frame that is not one, with a new line",
              with_raw(doc, "/ftbl/1", "\"0x1\\n: fake (a.c:1)\""));
   writer.add("DHAT: a mebibyte-long frame",
              with_raw(doc, "/ftbl/1", "\"" + std::string(1 << 20, 'f') + "\""));
   writer.add("DHAT: a frame id out of range",
              with_raw(doc, "/pps/0/fs/0",
                       std::to_string(at(doc, "/ftbl").as_array().size())));
   writer.add("DHAT: a negative total", with_raw(doc, "/pps/0/tb", "-1"));
   writer.add("DHAT: a total beyond 64 bits", with_raw(doc, "/pps/0/tb", "18446744073709551616"));
   writer.add("DHAT: tg is 1e400", with_raw(doc, "/tg", "1e400"));
   writer.add("DHAT: a future version", with_raw(doc, "/dhatFileVersion", "3"));
   writer.add("DHAT: the version as a string", with_raw(doc, "/dhatFileVersion", "\"2\""));
   return out;
}

std::vector<BadInput> deep_nesting(const std::string& profile, const std::string& dir,
                                   size_t depth)
{
   const json::value doc = json::parse(profile);
   const std::string meta = json::serialize(doc.at("meta"));
   const std::string arrays = std::string(depth, '[') + std::string(depth, ']');
   std::string objects;
   for (size_t i = 0; i < depth; ++i)
      objects += "{\"a\":";
   objects += "1" + std::string(depth, '}');
   const std::string head = "{\"vgprof\":3,\"meta\":" + meta;

   std::vector<BadInput> out;
   Writer writer(dir, out);
   const std::string n = std::to_string(depth);
   writer.add(n + " nested arrays", arrays);
   writer.add(n + " nested objects", objects);
   writer.add(n + " nested arrays as meta", "{\"vgprof\":3,\"meta\":" + arrays + "}");
   writer.add(n + " nested objects as meta", "{\"vgprof\":3,\"meta\":" + objects + "}");
   writer.add(n + " nested arrays as the string table", head + ",\"strs\":" + arrays + "}");
   writer.add(n + " nested arrays in the lines table", head + ",\"lines\":" + arrays + "}");
   writer.add(n + " nested objects in the lines table", head + ",\"lines\":[" + objects + "]}");
   writer.add(n + " nested arrays under an unknown key", head + ",\"unknown\":" + arrays + "}");
   writer.add(n + " nested arrays in a DHAT file",
              "{\"dhatFileVersion\":2,\"mode\":\"heap\",\"pps\":" + arrays + "}");
   return out;
}

std::vector<BadInput> huge_strings(const std::string& profile, const std::string& callgrind,
                                   const std::string& dir, uint64_t bytes, bool every_place)
{
   const size_t strs = profile.find("\"strs\":[");
   const size_t fn = callgrind.find("\nfn=");
   if (strs == std::string::npos || fn == std::string::npos)
      throw std::runtime_error("the real profile or callgrind file is not as expected");
   struct Huge {
      const char* what;
      std::string before, after;
   };
   const std::vector<Huge> kept = {
      {"first in strs", profile.substr(0, strs + 8) + "\"", "\"," + profile.substr(strs + 8)},
      {"as a callgrind function name", callgrind.substr(0, fn) + "\nfn=",
       callgrind.substr(fn + 4)},
      {"as a DHAT command", "{\"dhatFileVersion\":2,\"mode\":\"heap\",\"cmd\":\"", "\"}"},
   };
   const std::vector<Huge> others = {
      {"in meta.tool", "{\"vgprof\":3,\"meta\":{\"tool\":\"", "\"}}"},
      {"as a top-level key", "{\"vgprof\":3,\"", "\":1}"},
      {"in the lines table", "{\"vgprof\":3,\"lines\":[[\"", "\"]]}"},
   };
   std::vector<Huge> places = kept;
   if (every_place)
      places.insert(places.end(), others.begin(), others.end());
   std::vector<BadInput> out;
   const std::string chunk(1 << 20, 'a');
   for (const Huge& h : places) {
      const std::string path = dir + "/huge." + slug(h.what);
      std::ofstream file(path, std::ios::binary);
      file << h.before;
      for (uint64_t left = bytes; left > 0;) {
         const size_t n = size_t(std::min<uint64_t>(left, chunk.size()));
         file.write(chunk.data(), std::streamsize(n));
         left -= n;
      }
      file << h.after;
      if (!file.flush())
         throw std::runtime_error("cannot write " + path);
      out.push_back({"a string of " + std::to_string(bytes) + " bytes " + h.what, path});
   }
   return out;
}

}  // namespace vgtest
