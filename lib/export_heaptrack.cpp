// SPDX-License-Identifier: GPL-2.0-or-later
// The heaptrack writer (see export_heaptrack.hpp).
//
// heaptrack's file is a stream of lines, each a letter and hexadecimal
// numbers: "s" a string (its length first), "i" an instruction pointer
// (address, object, function, file, line: strings by 1-based index), "t" a
// trace node (ip, parent trace, 0 for none), "a" an allocation info (size,
// trace; 0-based), "+"/"-" an allocation or free of an info, "c" the time
// in milliseconds. heaptrack_print replays the "+" and "-" lines: the
// calls, the bytes live at each moment, the peak (the first moment the live
// bytes are highest, and what each trace held then) and the leak (what is
// live at the end).
//
// The events come from each site's blocks (heap_blocks.hpp), drawn in this
// order. At each point of the timeline before the peak, blocks live at the
// peak and then transient ones are allocated while the live bytes stay
// below the point (and below the peak, so that the peak comes only at
// t-gmax); a transient block stays live until a later point has no room for
// it, or the blocks of the peak or the end need its room. When the points
// ask more of the transient blocks than they hold, each point gets the same
// share of its ask, so that the heap keeps the timeline's shape, lower. At
// t-gmax the rest of the peak's blocks are allocated: the live bytes are the
// peak, site by site. After it, blocks live at the peak only are freed and
// blocks live at the end allocated to follow the timeline down; at t-end
// the last of both. Transient blocks no point had room for are allocated
// and freed first, at time 0 (those as large as the peak itself right
// after the peak, where nothing of its own is live). Every allocation has
// its own info line, so a free follows its own allocation only when
// nothing came between them, which is what heaptrack counts as a temporary
// allocation.
#include "vgprof/export_heaptrack.hpp"

#include "heap_blocks.hpp"
#include "vgprof/export_dhat.hpp"
#include "vgprof/identity.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace vgprof {

namespace {

using detail::BlockGroup;
using detail::SiteBlocks;

// The format of heaptrack 1.4 (version 0x010400), file format 3: strings
// prefixed with their length.
constexpr const char* kVersionLine = "v 10400 3\n";

// The definitions (strings, instruction pointers, traces) and events of
// the file, each definition written once, before its first use.
class HeaptrackFile {
public:
    HeaptrackFile(std::ostream& out, const Profile& p)
        : out_(out), p_(p), heap_(*p.heap()), ip_of_frame_(heap_.frames.size(), 0),
          trace_of_site_(heap_.sites.size(), 0)
    {
        out_ << std::hex << kVersionLine << "X " << one_line(command_text(p)) << '\n';
    }

    ~HeaptrackFile() { out_ << std::dec; }

    // An allocation of `size` bytes by `site`; the number its free gives.
    uint64_t allocate(uint32_t site, uint64_t size)
    {
        const uint64_t trace = trace_of(site);
        out_ << "a " << size << ' ' << trace << "\n+ " << infos_ << '\n';
        return infos_++;
    }

    void free(uint64_t info) { out_ << "- " << info << '\n'; }

    void at(uint64_t instructions)
    {
        const uint64_t ms = instructions / kInstructionsPerHeaptrackMs;
        if (ms > ms_ || !timed_)
            out_ << "c " << ms << '\n';
        ms_ = ms;
        timed_ = true;
    }

private:
    uint64_t str(const std::string& s)
    {
        const auto [it, added] = strings_.emplace(one_line(s), strings_.size() + 1);
        if (added)
            out_ << "s " << it->first.size() << ' ' << it->first << '\n';
        return it->second;
    }

    uint64_t ip_of(FrameId id)
    {
        uint64_t& ip = ip_of_frame_[id.index()];
        if (ip == 0) {
            const HeapFrame& f = heap_.frame(id);
            const Function& fn = p_.function(f.fn);
            const uint64_t object = str(p_.obj_path(fn.obj)), name = str(p_.str(fn.name));
            const std::string& file = p_.file_path(f.file);
            const uint64_t file_id = is_unknown(file) ? 0 : str(file);
            out_ << "i " << f.addr << ' ' << object << ' ' << name;
            if (file_id)
                out_ << ' ' << file_id << ' ' << f.line;
            out_ << '\n';
            ip = ++ips_;
        }
        return ip;
    }

    // The site's stack as trace nodes from the outermost frame in, sharing
    // the nodes of stacks that begin alike.
    uint64_t trace_of(uint32_t site)
    {
        uint64_t& trace = trace_of_site_[site];
        if (trace == 0) {
            const std::vector<FrameId> frames = caller_frames(p_, heap_.sites[site]);
            for (auto f = frames.rbegin(); f != frames.rend(); ++f) {
                const uint64_t ip = ip_of(*f);
                const auto [it, added] = traces_.emplace(std::make_pair(trace, ip), traces_.size() + 1);
                if (added)
                    out_ << "t " << ip << ' ' << trace << '\n';
                trace = it->second;
            }
        }
        return trace;
    }

    std::ostream& out_;
    const Profile& p_;
    const Heap& heap_;
    std::unordered_map<std::string, uint64_t> strings_;
    std::vector<uint64_t> ip_of_frame_, trace_of_site_;
    std::map<std::pair<uint64_t, uint64_t>, uint64_t> traces_;  // (parent, ip) -> trace
    uint64_t ips_ = 0, infos_ = 0, ms_ = 0;
    bool timed_ = false;
};

// Blocks of one kind across the sites, drawn in site order.
class BlockPool {
public:
    void add(uint32_t site, const BlockGroup& g)
    {
        if (g.blocks != 0)
            groups_.push_back({site, g});
    }
    bool empty() const { return at_ == groups_.size(); }
    uint32_t site() const { return groups_[at_].site; }
    uint64_t size() const { return groups_[at_].group.size(next_); }
    void pop()
    {
        if (++next_ == groups_[at_].group.blocks) {
            ++at_;
            next_ = 0;
        }
    }

private:
    struct Entry {
        uint32_t site;
        BlockGroup group;
    };
    std::vector<Entry> groups_;
    size_t at_ = 0;
    uint64_t next_ = 0;
};

// A block allocated: the number of its allocation, and its size.
struct LiveBlock {
    uint64_t info, size;
};

// Transient blocks, drawn while following the timeline from whichever
// site's group has a block that fits (each group's from its first on):
// drawing only in site order, one large block would hold back the rest.
class TransientPool {
public:
    void add(uint32_t site, const BlockGroup& g)
    {
        if (g.blocks != 0)
            groups_.push_back({site, g, 0, g.blocks});
    }

    // Draws blocks while they fit within `limit` with the `live` bytes,
    // calling take(site, size) for each.
    template <typename Take>
    void draw(uint64_t& live, uint64_t limit, Take take)
    {
        for (Entry& e : groups_)
            for (; e.next < e.end && live + e.group.size(e.next) <= limit; ++e.next) {
                live += e.group.size(e.next);
                take(e.site, e.group.size(e.next));
            }
    }

    // How many blocks were drawn from each group.
    std::vector<uint64_t> drawn() const
    {
        std::vector<uint64_t> n;
        for (const Entry& e : groups_)
            n.push_back(e.next);
        return n;
    }

    // Leaves each group the first drawn[g] blocks and returns the others
    // (as blocks not yet allocated: their site in place of `info`).
    std::vector<LiveBlock> keep_first(const std::vector<uint64_t>& drawn)
    {
        std::vector<LiveBlock> rest;
        for (size_t g = 0; g < groups_.size(); ++g) {
            for (uint64_t i = drawn[g]; i < groups_[g].group.blocks; ++i)
                rest.push_back(LiveBlock{groups_[g].site, groups_[g].group.size(i)});
            groups_[g].end = drawn[g];
        }
        return rest;
    }

private:
    struct Entry {
        uint32_t site;
        BlockGroup group;
        uint64_t next, end;
    };
    std::vector<Entry> groups_;
};

// The events of the file, or with no file a dry run that finds what the
// timeline asks of the transient blocks and which it has room for.
class Schedule {
public:
    Schedule(const Heap& heap, const std::vector<SiteBlocks>& blocks, HeaptrackFile* file)
        : heap_(heap), file_(file)
    {
        for (uint32_t s = 0; s < blocks.size(); ++s) {
            kept_.add(s, blocks[s].kept);
            peak_only_.add(s, blocks[s].peak_only);
            end_only_.add(s, blocks[s].end_only);
            transient_.add(s, blocks[s].transient);
        }
    }

    // What a dry run found: the bytes the timeline's points asked of
    // transient blocks (above what the other blocks hold there), and the
    // transient blocks it drew from each group, each point taking `share`
    // of its ask.
    struct Draw {
        uint64_t asked = 0;
        std::vector<uint64_t> drawn;
    };
    Draw run_dry(double share)
    {
        share_ = share;
        follow_timeline({});
        return {asked_, transient_.drawn()};
    }

    // The events: the transient blocks of the dry run's draw while
    // following the timeline, the others before it (or, as large as the
    // peak, after it).
    void run(const std::vector<uint64_t>& drawn, double share)
    {
        share_ = share;
        std::vector<LiveBlock> small, large;
        for (const LiveBlock& b : transient_.keep_first(drawn))
            (b.size < heap_.totals.peak_bytes ? small : large).push_back(b);
        at(0);
        allocate_and_free(small, heap_.totals.peak_bytes - 1);
        follow_timeline(large);
    }

private:
    // For a block not yet allocated, `info` is its site.
    using Blocks = std::vector<LiveBlock>;

    void follow_timeline(const Blocks& large)
    {
        const HeapTotals& t = heap_.totals;
        for (const HeapSample& s : heap_.samples)
            if (s.time < t.peak_time)
                step_before_peak(s.time, std::min(s.bytes, t.peak_bytes - 1));
        at(t.peak_time);
        free_all(live_transient_);
        while (BlockPool* pool = peak_pool())
            allocate_peak_block(*pool);
        for (const HeapSample& s : heap_.samples)
            if (s.time > t.peak_time && s.time < t.end_time)
                step_after_peak(s.time, s.bytes);
        at(t.end_time);
        free_all(live_transient_);
        free_all(live_peak_only_);
        allocate_and_free(large, t.peak_bytes);
        while (!end_only_.empty())
            live_ += allocate(end_only_).size;
    }

    // Transient blocks stay live from point to point while the timeline
    // has room for them, as long-lived blocks do; the others come first.
    void step_before_peak(uint64_t time, uint64_t target)
    {
        at(time);
        make_room(target, 0);
        while (BlockPool* pool = peak_pool()) {
            if (!make_room(target, pool->size()))
                break;
            allocate_peak_block(*pool);
        }
        fill_with_transient(target);
    }

    void step_after_peak(uint64_t time, uint64_t target)
    {
        at(time);
        make_room(target, 0);
        while (live_ > target && !live_peak_only_.empty())
            free_front(live_peak_only_);
        while (!end_only_.empty() && make_room(target, end_only_.size()))
            live_ += allocate(end_only_).size;
        fill_with_transient(target);
    }

    // Frees transient blocks, oldest first, until `size` more bytes fit
    // within `target`; false when they cannot.
    bool make_room(uint64_t target, uint64_t size)
    {
        while (live_ + size > target && !live_transient_.empty())
            free_front(live_transient_);
        return live_ + size <= target;
    }

    // Up to `share` of the way from the live bytes to the target.
    void fill_with_transient(uint64_t target)
    {
        if (target <= live_)
            return;
        asked_ += target - live_;
        const uint64_t limit = live_ + uint64_t(double(target - live_) * share_);
        transient_.draw(live_, limit, [this](uint32_t site, uint64_t size) {
            live_transient_.push_back(LiveBlock{file_ ? file_->allocate(site, size) : 0, size});
        });
    }

    // The blocks live at the peak: the kept ones first, never freed.
    BlockPool* peak_pool()
    {
        return !kept_.empty() ? &kept_ : !peak_only_.empty() ? &peak_only_ : nullptr;
    }

    void allocate_peak_block(BlockPool& pool)
    {
        const LiveBlock b = allocate(pool);
        live_ += b.size;
        if (&pool == &peak_only_)
            live_peak_only_.push_back(b);
    }

    void free_all(std::deque<LiveBlock>& blocks)
    {
        while (!blocks.empty())
            free_front(blocks);
    }

    void free_front(std::deque<LiveBlock>& blocks)
    {
        if (file_)
            file_->free(blocks.front().info);
        live_ -= blocks.front().size;
        blocks.pop_front();
    }

    // Each of `blocks` allocated and freed, two live at a time when both
    // fit within `limit` (a free after the next allocation does not read as
    // temporary), else one.
    void allocate_and_free(const Blocks& blocks, uint64_t limit)
    {
        std::deque<LiveBlock> live;
        for (const LiveBlock& b : blocks) {
            if (!live.empty() && live_ + b.size > limit)
                free_front(live);
            live.push_back(LiveBlock{file_ ? file_->allocate(uint32_t(b.info), b.size) : 0, b.size});
            live_ += b.size;
            if (live.size() > 1)
                free_front(live);
        }
        free_all(live);
    }

    LiveBlock allocate(BlockPool& pool)
    {
        const LiveBlock b{file_ ? file_->allocate(pool.site(), pool.size()) : 0, pool.size()};
        pool.pop();
        return b;
    }

    void at(uint64_t time)
    {
        if (file_)
            file_->at(time);
    }

    const Heap& heap_;
    HeaptrackFile* file_;
    BlockPool kept_, peak_only_, end_only_;
    TransientPool transient_;
    uint64_t live_ = 0, asked_ = 0;
    double share_ = 1;
    std::deque<LiveBlock> live_peak_only_, live_transient_;
};

} // namespace

void write_heaptrack(std::ostream& out, const Profile& profile)
{
    const Heap& heap = exported_heap(profile);
    std::vector<SiteBlocks> blocks;
    for (size_t s = 0; s < heap.sites.size(); ++s)
        blocks.push_back(detail::site_blocks(heap.sites[s], s, heap.totals.peak_bytes));
    // When the timeline asks more of the transient blocks than they hold,
    // each point gets the same share of its ask, so that they last the run.
    uint64_t transient_bytes = 0;
    for (const SiteBlocks& b : blocks)
        transient_bytes += b.transient.bytes;
    const uint64_t asked = Schedule(heap, blocks, nullptr).run_dry(1).asked;
    const double share = asked > transient_bytes ? double(transient_bytes) / double(asked) : 1;
    const std::vector<uint64_t> drawn = Schedule(heap, blocks, nullptr).run_dry(share).drawn;
    HeaptrackFile file(out, profile);
    Schedule(heap, blocks, &file).run(drawn, share);
}

} // namespace vgprof
