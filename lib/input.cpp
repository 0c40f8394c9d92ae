// SPDX-License-Identifier: GPL-2.0-or-later
// Chunked reading and decompression of a profile's bytes (see input.hpp).
// zlib reads gzip data and libzstd zstd data, both as streams: a chunk of
// output at a time, whatever the sizes of the file and of its content.
#include "input.hpp"

#include "vgprof/error.hpp"

#include <zlib.h>
#include <zstd.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

namespace vgprof::detail {

namespace {

// Large enough that the per-chunk work (a read, a parser call) costs
// nothing beside the parsing itself; small beside any profile worth
// compressing.
constexpr size_t kChunkSize = size_t(1) << 20;

const unsigned char kGzipMagic[] = {0x1f, 0x8b};
const unsigned char kZstdMagic[] = {0x28, 0xb5, 0x2f, 0xfd};

// " (16 GiB)" for a whole number of GiB, so the limit reads at a glance.
std::string in_gib(uint64_t bytes)
{
    constexpr uint64_t kGiB = uint64_t(1) << 30;
    return bytes >= kGiB && bytes % kGiB == 0 ? " (" + std::to_string(bytes / kGiB) + " GiB)" : "";
}

template <size_t N>
bool starts_with(std::string_view data, const unsigned char (&magic)[N])
{
    return data.size() >= N && std::memcmp(data.data(), magic, N) == 0;
}

class MemoryInput : public Input {
public:
    explicit MemoryInput(std::string_view data) : data_(data) {}

    std::string_view next() override
    {
        const std::string_view chunk = data_;
        data_ = {};
        return chunk;
    }

private:
    std::string_view data_;
};

class FileInput : public Input {
public:
    FileInput(const std::string& path, const std::function<void(uint64_t, uint64_t)>& progress)
        : path_(path), buffer_(kChunkSize), progress_(progress)
    {
        file_ = std::fopen(path.c_str(), "rb");
        if (file_ == nullptr)
            throw Error(path_ + ": cannot open: " + std::strerror(errno));
        struct stat st;
        if (progress_ && fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode))
            size_ = uint64_t(st.st_size);
    }
    ~FileInput() override { std::fclose(file_); }
    FileInput(const FileInput&) = delete;
    FileInput& operator=(const FileInput&) = delete;

    std::string_view next() override
    {
        const size_t n = std::fread(buffer_.data(), 1, buffer_.size(), file_);
        if (n == 0 && std::ferror(file_))
            throw Error(path_ + ": cannot read: " + std::strerror(errno));
        read_ += n;
        if (progress_)
            progress_(read_, size_);
        return {buffer_.data(), n};
    }

private:
    std::string path_;
    std::FILE* file_ = nullptr;
    std::vector<char> buffer_;
    std::function<void(uint64_t, uint64_t)> progress_;
    uint64_t read_ = 0, size_ = 0;
};

// What the decompressors share: the compressed input, the output buffer and
// the bound on how much they may produce.
class Decompressor : public Input {
protected:
    Decompressor(std::unique_ptr<Input> compressed, const std::string& name, const char* format,
                 uint64_t max_size)
        : compressed_(std::move(compressed)), name_(name), format_(format), max_size_(max_size),
          buffer_(kChunkSize)
    {
    }

    // The next compressed chunk; counts its bytes for messages.
    std::string_view next_compressed()
    {
        const std::string_view chunk = compressed_->next();
        compressed_bytes_ += chunk.size();
        return chunk;
    }

    bool decompresses() const override { return true; }

    // Hands out `n` bytes just decompressed into buffer_.
    std::string_view produced(size_t n)
    {
        decompressed_ += n;
        if (decompressed_ > max_size_)
            throw Error(name_ + ": the " + format_ + " data decompresses to more than " +
                        std::to_string(max_size_) + " bytes" + in_gib(max_size_) +
                        ", the limit vgprof sets on decompressed data");
        return {buffer_.data(), n};
    }

    [[noreturn]] void corrupt(const char* what) const
    {
        throw Error(name_ + ": corrupt " + format_ + " data: " + what);
    }

    [[noreturn]] void truncated() const
    {
        throw Error(name_ + ": truncated " + format_ + " data: the input ends at byte " +
                    std::to_string(compressed_bytes_) + ", inside the compressed stream");
    }

    std::unique_ptr<Input> compressed_;
    uint64_t compressed_bytes_ = 0;
    const std::string name_;
    const char* const format_;
    const uint64_t max_size_;
    uint64_t decompressed_ = 0;
    std::vector<char> buffer_;
};

// gzip data: one member, or several one after another (as `cat a.gz b.gz`
// makes), decompressing to their contents joined.
class GzipInput : public Decompressor {
public:
    GzipInput(std::unique_ptr<Input> compressed, const std::string& name, uint64_t max_size)
        : Decompressor(std::move(compressed), name, "gzip", max_size)
    {
        // 16 + 15: a gzip wrapper around a deflate stream with a window of
        // up to 2^15 bytes, the largest there is.
        if (inflateInit2(&stream_, 16 + 15) != Z_OK)
            throw std::bad_alloc();
    }
    ~GzipInput() override { inflateEnd(&stream_); }
    GzipInput(const GzipInput&) = delete;
    GzipInput& operator=(const GzipInput&) = delete;

    std::string_view next() override
    {
        for (;;) {
            // More output can be pending after a call that filled the buffer.
            const bool pending_output = in_member_ && output_was_full_;
            if (stream_.avail_in == 0 && !pending_output) {
                const std::string_view chunk = next_compressed();
                if (chunk.empty()) {
                    if (in_member_)
                        truncated();
                    return {};
                }
                stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
                stream_.avail_in = uInt(chunk.size());
            }
            if (!in_member_)
                start_member();
            stream_.next_out = reinterpret_cast<Bytef*>(buffer_.data());
            stream_.avail_out = uInt(buffer_.size());
            const int status = inflate(&stream_, Z_NO_FLUSH);
            const size_t n = buffer_.size() - stream_.avail_out;
            output_was_full_ = stream_.avail_out == 0;
            if (status == Z_STREAM_END)
                in_member_ = false;
            else if (status == Z_MEM_ERROR)
                throw std::bad_alloc();
            else if (status == Z_NEED_DICT)
                corrupt("the stream needs a preset dictionary");
            else if (status != Z_OK && status != Z_BUF_ERROR)
                corrupt(stream_.msg != nullptr ? stream_.msg : "unreadable deflate stream");
            if (n > 0)
                return produced(n);
        }
    }

private:
    // After the first member, only another member may follow: anything
    // else means the file is not what its first bytes said.
    void start_member()
    {
        if (members_ > 0) {
            if (*stream_.next_in != kGzipMagic[0])
                throw Error(name_ + ": unexpected data after the end of the gzip data at byte " +
                            std::to_string(compressed_bytes_ - stream_.avail_in));
            inflateReset(&stream_);
        }
        ++members_;
        in_member_ = true;
    }

    z_stream stream_{};
    bool in_member_ = false;
    bool output_was_full_ = false;
    uint64_t members_ = 0;
};

// zstd data: one frame or several, skippable frames included.
class ZstdInput : public Decompressor {
public:
    ZstdInput(std::unique_ptr<Input> compressed, const std::string& name, uint64_t max_size)
        : Decompressor(std::move(compressed), name, "zstd", max_size),
          context_(ZSTD_createDCtx())
    {
        if (context_ == nullptr)
            throw std::bad_alloc();
    }
    ~ZstdInput() override { ZSTD_freeDCtx(context_); }
    ZstdInput(const ZstdInput&) = delete;
    ZstdInput& operator=(const ZstdInput&) = delete;

    std::string_view next() override
    {
        for (;;) {
            // Only a frame still open can have output pending: one that
            // ended (status 0) filling the buffer exactly has none, and a
            // call without input between frames would count as a frame
            // begun, making the end of the input look like a truncation.
            const bool pending_output = frame_open_ && output_was_full_;
            if (input_.pos == input_.size && !pending_output) {
                const std::string_view chunk = next_compressed();
                if (chunk.empty()) {
                    if (frame_open_)
                        truncated();
                    return {};
                }
                input_ = ZSTD_inBuffer{chunk.data(), chunk.size(), 0};
            }
            ZSTD_outBuffer output{buffer_.data(), buffer_.size(), 0};
            const size_t status = ZSTD_decompressStream(context_, &output, &input_);
            if (ZSTD_isError(status))
                corrupt(ZSTD_getErrorName(status));
            // 0: the call ended a frame and flushed all of it.
            frame_open_ = status != 0;
            output_was_full_ = output.pos == output.size;
            if (output.pos > 0)
                return produced(output.pos);
        }
    }

private:
    ZSTD_DCtx* context_;
    ZSTD_inBuffer input_{nullptr, 0, 0};
    bool frame_open_ = false;
    bool output_was_full_ = false;
};

// `raw` as it is, or decompressed when its first bytes are a gzip or zstd
// magic number.
std::unique_ptr<PeekableInput> decompressed(std::unique_ptr<PeekableInput> raw,
                                            const std::string& name, uint64_t max_size)
{
    const std::string_view head = raw->peek(sizeof kZstdMagic);
    if (starts_with(head, kGzipMagic))
        return std::make_unique<PeekableInput>(
            std::make_unique<GzipInput>(std::move(raw), name, max_size));
    if (starts_with(head, kZstdMagic))
        return std::make_unique<PeekableInput>(
            std::make_unique<ZstdInput>(std::move(raw), name, max_size));
    return raw;
}

} // namespace

std::string_view PeekableInput::peek(size_t n)
{
    while (head_.size() < n) {
        const std::string_view chunk = input_->next();
        if (chunk.empty())
            break;
        head_.append(chunk);
        head_returned_ = false;
    }
    return head_;
}

std::string_view PeekableInput::next()
{
    if (!head_returned_) {
        head_returned_ = true;
        return head_;
    }
    return input_->next();
}

std::unique_ptr<PeekableInput> open_memory(std::string_view data, const std::string& name,
                                           uint64_t max_decompressed)
{
    return decompressed(std::make_unique<PeekableInput>(std::make_unique<MemoryInput>(data)),
                        name, max_decompressed);
}

std::unique_ptr<PeekableInput> open_file(const std::string& path, uint64_t max_decompressed,
                                         const std::function<void(uint64_t, uint64_t)>& progress)
{
    return decompressed(
        std::make_unique<PeekableInput>(std::make_unique<FileInput>(path, progress)), path,
        max_decompressed);
}

} // namespace vgprof::detail
