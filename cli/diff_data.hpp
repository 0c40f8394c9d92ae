// SPDX-License-Identifier: GPL-2.0-or-later
// The data objects' part of `vgprof diff`: which heap sites, globals and
// other data changed most by the chosen data event, with their miss rates,
// in the text, Markdown and JSON outputs.
#ifndef VGPROF_CLI_DIFF_DATA_HPP
#define VGPROF_CLI_DIFF_DATA_HPP

#include "vgprof/data_diff.hpp"

#include <boost/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace vgprof::cli {

struct DiffOptions;

// What the outputs show of the data objects.
struct DataComparison {
    size_t event = 0;                   // the ranking event, in a DataCost
    std::vector<DataObjectDelta> objects;
    std::vector<const DataObjectDelta*> shown;  // the top changed objects
    size_t changed = 0;                 // objects with any change
    // Why nothing is compared when only one profile has a data section.
    std::string missing;
};

// The data comparison of `base` and `now`, ranked by options.data_event and
// limited to options.top objects; nullopt when neither profile has a data
// section. Throws vgprof::Error when options.data_event is no data event.
std::optional<DataComparison> compare_data(const Profile& base, const Profile& now,
                                           const DiffOptions& options);

void write_data_text(std::ostream& out, const DataComparison& data);
void write_data_markdown(std::ostream& out, const DataComparison& data);
boost::json::object data_json(const DataComparison& data);

// A CostDelta as {base, new, delta, relative} (diff_json.cpp).
boost::json::object delta_json(const CostDelta& c);

} // namespace vgprof::cli

#endif
