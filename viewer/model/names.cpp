// SPDX-License-Identifier: GPL-2.0-or-later
// Telling apart functions of the same name.
#include "names.hpp"

#include "heap_sites.hpp"

#include "vgprof/identity.hpp"
#include "vgprof/safe_text.hpp"

#include <unordered_map>

namespace vgprof::viewer {

std::string drawable(const std::string& text)
{
    if (text.size() <= kMostDrawn)
        return text;
    // Back to the start of a UTF-8 character: never cut one in two.
    const auto boundary = [&](size_t at) {
        while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
            --at;
        return at;
    };
    const size_t head = boundary(kMostDrawn * 2 / 3);
    const size_t tail = boundary(text.size() - kMostDrawn / 4);
    return text.substr(0, head) + " ... (" + std::to_string(tail - head) + " bytes left out) ... " +
           text.substr(tail);
}

Names::Names(const Profile& p)
    : profile_(&p), qualified_(p.functions().size()), with_file_(p.functions().size()),
      sites_(distinct_site_labels(p))
{
    // Names are interned: the same name is the same string id.
    std::unordered_map<uint32_t, uint32_t> by_name;
    std::unordered_map<uint64_t, uint32_t> by_name_and_object;
    by_name.reserve(p.functions().size());
    const auto both = [](const Function& f) { return uint64_t(f.name.value) << 32 | f.obj.value; };
    for (const Function& f : p.functions())
        ++by_name[f.name.value];
    for (const Function& f : p.functions())
        if (by_name[f.name.value] > 1)
            ++by_name_and_object[both(f)];
    for (size_t i = 0; i < qualified_.size(); ++i) {
        const Function& f = p.functions()[i];
        if (by_name[f.name.value] < 2) {
            // A name is drawn as one line of text, its controls shown escaped.
            if (const std::string shown = drawable(escaped_controls(p.str(f.name))); shown != p.str(f.name))
                escaped_[i] = shown;
            continue;
        }
        with_file_[i] = by_name_and_object[both(f)] > 1;
        qualified_[i] = drawable(qualify(FnId(uint32_t(i))));
    }
    for (std::string& label : sites_)
        label = drawable(escaped_controls(label));
}

std::string Names::whole_function(FnId fn) const
{
    return shared(fn) ? qualify(fn) : escaped_controls(profile_->fn_name(fn));
}

std::string Names::qualify(FnId fn) const
{
    const Profile& p = *profile_;
    const Function& f = p.function(fn);
    std::string name = escaped_controls(p.str(f.name) + " [" + basename_of(p.obj_path(f.obj)) + "]");
    // The file tells apart two of one name in one object.
    if (with_file_[fn.index()] && !is_unknown(p.file_path(f.file)))
        name += escaped_controls(" (" + basename_of(p.file_path(f.file)) + ")");
    return name;
}

const std::string& Names::function(FnId fn) const
{
    const std::string& q = qualified_[fn.index()];
    if (!q.empty())
        return q;
    const auto it = escaped_.find(fn.index());
    return it != escaped_.end() ? it->second : profile_->fn_name(fn);
}

} // namespace vgprof::viewer
