// SPDX-License-Identifier: GPL-2.0-or-later
// A profile's bytes, read in chunks from a file or from memory and
// decompressed on the way when they are gzip or zstd data (recognised by
// their magic numbers, whatever the file is called). The loaders parse
// chunk by chunk, so a profile is never held whole in memory, compressed or
// not. Internal to libvgprof.
#ifndef VGPROF_INPUT_HPP
#define VGPROF_INPUT_HPP

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace vgprof::detail {

// A stream of bytes read a chunk at a time.
class Input {
public:
    virtual ~Input() = default;
    // The next chunk (never empty), valid until the next call; an empty
    // view at the end of the input. Throws vgprof::Error naming the input
    // when it cannot be read or decompressed.
    virtual std::string_view next() = 0;
    // Whether the bytes are decompressed from the input's own.
    virtual bool decompresses() const { return false; }
};

// An input whose first bytes can be looked at before they are read.
class PeekableInput : public Input {
public:
    explicit PeekableInput(std::unique_ptr<Input> input) : input_(std::move(input)) {}

    // At least the first `n` bytes, fewer only when the input is shorter.
    // They are still returned by next() afterwards. Only before the first
    // call of next().
    std::string_view peek(size_t n);
    std::string_view next() override;
    bool decompresses() const override { return input_->decompresses(); }

private:
    std::unique_ptr<Input> input_;
    std::string head_;     // bytes peeked and not yet returned by next()
    bool head_returned_ = true;
};

// `data` (which must outlive the input), decompressed if it is gzip or
// zstd data. `name` stands for it in messages.
std::unique_ptr<PeekableInput> open_memory(std::string_view data, const std::string& name,
                                           uint64_t max_decompressed);

// The file at `path`, decompressed if it holds gzip or zstd data;
// `progress`, when set, is told of each chunk of the file read.
std::unique_ptr<PeekableInput> open_file(const std::string& path, uint64_t max_decompressed,
                                         const std::function<void(uint64_t, uint64_t)>& progress);

} // namespace vgprof::detail

#endif
