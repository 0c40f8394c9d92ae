// SPDX-License-Identifier: GPL-2.0-or-later
// The load thread: read and parse with progress, index, link.
#include "profile_loader.hpp"

#include "vgprof/derived.hpp"
#include "vgprof/error.hpp"
#include "vgprof/load.hpp"

#include <functional>
#include <new>

namespace vgprof::viewer {

ProfileLoader::~ProfileLoader() { wait(); }

void ProfileLoader::wait()
{
    if (thread_.joinable())
        thread_.join();
}

void ProfileLoader::start(std::vector<std::string> paths)
{
    if (state_ == State::loading)
        return;
    wait();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        error_.clear();
        loaded_.reset();
    }
    set_stage("starting", 0);
    state_ = State::loading;
    thread_ = std::thread(&ProfileLoader::run, this, std::move(paths));
}

std::string ProfileLoader::stage() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return stage_;
}

std::string ProfileLoader::error() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
}

std::unique_ptr<Loaded> ProfileLoader::take()
{
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(loaded_);
}

void ProfileLoader::set_stage(std::string stage, double fraction)
{
    std::lock_guard<std::mutex> lock(mutex_);
    stage_ = std::move(stage);
    fraction_ = fraction;
}

std::vector<std::string> viewer_derived_events(const Profile& profile)
{
    std::vector<std::string> names;
    const auto available = available_derived_events(profile, {});
    for (const char* name : kViewerDerivedEvents)
        if (is_derived(available, name))
            names.push_back(name);
    return names;
}

void ProfileLoader::run(std::vector<std::string> paths)
{
    auto loaded = std::make_unique<Loaded>();
    try {
        std::vector<Profile> profiles;
        for (const std::string& path : paths)
            // Parsed as it is read, never held whole: a profile can be far
            // larger than what is kept of it.
            profiles.push_back(load_profile(path, {}, [&](uint64_t done, uint64_t size) {
                set_stage("reading " + path, size ? double(done) / double(size) : -1);
            }));
        // Judged as recorded, before the viewer's derived events.
        Judgement judgement;
        if (profiles.size() == 2)
            judgement = judge(profiles[0], profiles[1]);
        std::vector<std::unique_ptr<Document>> docs;
        for (size_t i = 0; i < profiles.size(); ++i) {
            set_stage("indexing " + paths[i], -1);
            add_derived_events(profiles[i], viewer_derived_events(profiles[i]));
            docs.push_back(std::make_unique<Document>(std::move(profiles[i]), paths[i]));
        }
        if (docs.size() == 2) {
            set_stage("matching the two profiles", -1);
            loaded->base = std::move(docs[0]);
            loaded->now = std::move(docs[1]);
            loaded->diff = std::make_unique<DiffLink>(*loaded->base, *loaded->now, std::move(judgement));
        } else {
            loaded->now = std::move(docs.at(0));
        }
        std::lock_guard<std::mutex> lock(mutex_);
        loaded_ = std::move(loaded);
        state_ = State::done;
    } catch (const Error& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = e.what();
        state_ = State::failed;
    } catch (const std::bad_alloc&) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = paths.back() + ": out of memory while loading the profile";
        state_ = State::failed;
    } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = "cannot load the profile: " + std::string(e.what());
        state_ = State::failed;
    }
}

} // namespace vgprof::viewer
