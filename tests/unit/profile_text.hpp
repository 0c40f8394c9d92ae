// SPDX-License-Identifier: GPL-2.0-or-later
// Builds profile texts for the unit tests: the annotated sample of
// docs/profile-format.md by default, with single members replaced or removed
// so that each test states only the part of the profile it is about.
#ifndef VGPROF_TESTS_PROFILE_TEXT_HPP
#define VGPROF_TESTS_PROFILE_TEXT_HPP

#include <string>
#include <utility>
#include <vector>

namespace vgprof::test {

class ProfileText {
public:
    using Members = std::vector<std::pair<std::string, std::string>>;

    // Members are (key, JSON text) in document order. The top-level "meta"
    // entry is rendered from meta_ unless replaced with set("meta", ...).
    Members top = {
        {"vgprof", "2"},
        {"meta", ""},
        {"strs", R"(["???","/usr/bin/app","/src/app.c","main","work"])"},
        {"objs", "[1]"},
        {"files", "[0,2]"},
        {"fns", "[[3,1,0,10],[4,1,0,3]]"},
        {"lines", "[[0,1,11,1200],[1,1,4,2484747]]"},
        {"instrs", "[[4198694,1,1,4,3]]"},
        // main (fn 0) calls work (fn 1) once, from app.c:12; work's
        // 2484747 are all its own, main's 1200 plus work's make the total.
        {"calls", "[[0,1,1,12,1,2484747]]"},
        {"inclusive", "[[0,2485947],[1,2484747]]"},
        {"paths", "[[null,0,0,1200,2485947],[0,1,1,2484747,2484747]]"},
    };
    Members meta = {
        {"tool", R"("vgprof")"},
        {"tool_version", R"("0.1.0")"},
        {"valgrind", R"("3.19.0")"},
        {"argv", R"(["./app","-n","3"])"},
        {"options", R"(["--vgprof-out-file=p.json"])"},
        {"events", R"(["Ir"])"},
        {"cache", "null"},
        {"totals", "[2485947]"},  // 1200 + 2484747
        {"exit", R"({"code":0})"},
        {"run", R"({"pid":4242,"ppid":4241,"elapsed_ms":311})"},
    };

    ProfileText& set(const std::string& key, const std::string& json) { return put(top, key, json); }
    ProfileText& drop(const std::string& key) { return erase(top, key); }
    ProfileText& set_meta(const std::string& key, const std::string& json) { return put(meta, key, json); }
    ProfileText& drop_meta(const std::string& key) { return erase(meta, key); }
    // As the tool writes with --call-graph=no.
    ProfileText& drop_call_graph() { return drop("calls").drop("inclusive").drop("paths"); }

    std::string str() const
    {
        std::string text = "{";
        for (const auto& [key, value] : top) {
            const bool generated_meta = key == "meta" && value.empty();
            text += (text.size() > 1 ? "\n," : "") + quote(key) + ":" +
                    (generated_meta ? render(meta) : value);
        }
        return text + "\n}\n";
    }

private:
    static std::string quote(const std::string& key) { return "\"" + key + "\""; }

    static std::string render(const Members& members)
    {
        std::string text = "{";
        for (const auto& [key, value] : members)
            text += (text.size() > 1 ? "," : "") + quote(key) + ":" + value;
        return text + "}";
    }

    ProfileText& put(Members& members, const std::string& key, const std::string& json)
    {
        for (auto& member : members)
            if (member.first == key) {
                member.second = json;
                return *this;
            }
        members.emplace_back(key, json);
        return *this;
    }

    ProfileText& erase(Members& members, const std::string& key)
    {
        for (auto it = members.begin(); it != members.end(); ++it)
            if (it->first == key) {
                members.erase(it);
                break;
            }
        return *this;
    }
};

} // namespace vgprof::test

#endif
