// SPDX-License-Identifier: GPL-2.0-or-later
// hostile_shapes.cpp: see hostile_shapes.hpp. The profiles are made from
// call-path trees (tests/unit/tree_profile.hpp).
#include "hostile_shapes.hpp"

#include "../../tool/harness.hpp"
#include "../../unit/tree_profile.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vgtest {

namespace {

using namespace vgprof::test;

// `profile` with every simulated cache of `line` bytes a line, two lines
// in all (direct-mapped: two sets).
std::string with_cache_line(const std::string& profile, uint64_t line)
{
   boost::json::value doc = boost::json::parse(profile);
   const boost::json::array geometry{2 * line, 1, line};
   boost::json::object& cache = doc.at("meta").at("cache").as_object();
   for (const char* c : {"I1", "D1", "LL"})
      cache[c] = geometry;
   return boost::json::serialize(doc);
}

}  // namespace

std::vector<Shape> hostile_shapes(const std::string& dir, const std::string& data_profile)
{
   struct Made {
      const char* what;
      std::string text;
      bool refused;
      const char* select;
   };
   const Made shapes[] = {
      {"a call path 100,000 deep with a cost at every level", profile_text(chain(100000, true)), false, "descend"},
      {"a call path 100,000 deep with a cost at its innermost level",
       profile_text(chain(100000, false)), false, "descend"},
      {"a comb of 50,000 nested calls, each calling one more function", profile_text(comb(50000)),
       false, "leaf"},
      {"4 allocation stacks of 4,096 frames", profile_text(chain(3, true), heap_text(4, 4096, 4096)),
       false, "descend"},
      {"an allocation stack of 4,097 frames", profile_text(chain(3, true), heap_text(1, 4097, 1)),
       true, "descend"},
      {"100,000 allocation sites of one frame each",
       profile_text(chain(3, true), heap_text(100000, 1, 1)), false, "descend"},
      {"cache lines of 2^29 bytes, the longest Valgrind simulates",
       with_cache_line(data_profile, uint64_t(1) << 29), false, "work"},
      {"cache lines of 2^40 bytes", with_cache_line(data_profile, uint64_t(1) << 40), true, "work"},
   };
   std::vector<Shape> out;
   for (const Made& shape : shapes) {
      const std::string path = dir + "/shape" + std::to_string(out.size()) + ".json";
      write_file(path, shape.text);
      out.push_back({{shape.what, path}, shape.refused, shape.select});
   }
   return out;
}

}  // namespace vgtest
