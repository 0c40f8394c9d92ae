// SPDX-License-Identifier: GPL-2.0-or-later
// Loading profiles off the UI thread. The window keeps drawing (a progress
// bar, the stage reached) while a thread reads, parses and indexes; a
// profile that cannot be loaded ends as an error message for the window
// instead of an exception.
#ifndef VGPROF_VIEWER_PROFILE_LOADER_HPP
#define VGPROF_VIEWER_PROFILE_LOADER_HPP

#include "diff_link.hpp"
#include "document.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace vgprof::viewer {

// What a finished load hands over: one profile, or a base and a new one
// with the link between them (diff mode).
struct Loaded {
    std::unique_ptr<Document> base;  // null unless two profiles were given
    std::unique_ptr<Document> now;
    std::unique_ptr<DiffLink> diff;  // set when base is
};

// The derived events (vgprof/derived.hpp) the viewer adds to a profile
// that recorded the caches, after its own events, so that the event list
// offers them: the estimated cycles (Gungraun's and KCachegrind's) and
// where the accesses hit. The intermediate sums (L1m, LLm, TotalRW, Bm)
// are left out, each column costing memory per row.
inline constexpr const char* kViewerDerivedEvents[] = {"EstimatedCycles", "CEst", "L1hits",
                                                       "LLhits", "RamHits"};

// Those of kViewerDerivedEvents `profile` can have, in that order.
std::vector<std::string> viewer_derived_events(const Profile& profile);

class ProfileLoader {
public:
    enum class State { idle, loading, done, failed };

    ProfileLoader() = default;
    ~ProfileLoader();
    ProfileLoader(const ProfileLoader&) = delete;
    ProfileLoader& operator=(const ProfileLoader&) = delete;

    // Starts loading `paths`: one profile, or a base and a new one. Ignored
    // while a load is under way.
    void start(std::vector<std::string> paths);
    State state() const { return state_.load(); }

    // What is being done and how far along, for the progress bar: a
    // fraction of 0..1, or below 0 when the stage cannot tell (parsing).
    std::string stage() const;
    double fraction() const { return fraction_.load(); }

    // After done: the profiles (once; later calls give null). After failed:
    // the one-line message naming the file and what is wrong.
    std::unique_ptr<Loaded> take();
    std::string error() const;

    // Blocks until the load under way has ended.
    void wait();

private:
    void run(std::vector<std::string> paths);
    void set_stage(std::string stage, double fraction);

    std::thread thread_;
    std::atomic<State> state_{State::idle};
    std::atomic<double> fraction_{0};
    mutable std::mutex mutex_;  // guards what follows
    std::string stage_, error_;
    std::unique_ptr<Loaded> loaded_;
};

} // namespace vgprof::viewer

#endif
