// SPDX-License-Identifier: GPL-2.0-or-later
// Reading the `data` section of a profile (format version 7): a piece of
// the loader of its own, given the section's JSON and what it refers to.
// Internal to libvgprof.
#ifndef VGPROF_LOAD_DATA_HPP
#define VGPROF_LOAD_DATA_HPP

#include "vgprof/data.hpp"

#include <boost/json/fwd.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace vgprof::detail {

// What the section refers to, from the tables read before it.
struct DataSectionContext {
    std::string file;    // the profile's name, for messages
    size_t strs = 0, objs = 0, fns = 0, sites = 0;   // table sizes
    DataCost totals{};   // meta.totals of the data events
    // Per function (by FnId), the data events of its `lines` rows: each
    // function's data rows add up to them.
    std::vector<DataCost> fn_lines;
};

// The section `v` (found at top-level key "data"), checked as
// docs/profile-format.md says. Throws vgprof::Error naming the file, the
// place ("data.offsets[3][1]") and the problem.
DataProfile read_data_section(const boost::json::value& v, const DataSectionContext& context);

} // namespace vgprof::detail

#endif
