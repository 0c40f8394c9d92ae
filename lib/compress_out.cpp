// SPDX-License-Identifier: GPL-2.0-or-later
// Compressed output (see vgprof/compress_out.hpp): a stream buffer that
// hands each full buffer to zlib or libzstd and the compressed bytes to the
// stream underneath, so that an export of any size is never held whole.
#include "vgprof/compress_out.hpp"

#include "vgprof/error.hpp"

#include <zlib.h>
#include <zstd.h>

#include <memory>
#include <ostream>
#include <streambuf>
#include <vector>

namespace vgprof {

Compression compression_for(const std::string& path)
{
    auto ends_with = [&](const std::string& suffix) {
        return path.size() > suffix.size() &&
               path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with(".gz"))
        return Compression::gzip;
    if (ends_with(".zst"))
        return Compression::zstd;
    return Compression::none;
}

namespace {

// Text gathered into `input_` and compressed a buffer at a time by
// compress(), which the gzip and zstd buffers implement; finish() ends the
// stream.
class CompressingBuffer : public std::streambuf {
public:
    explicit CompressingBuffer(std::ostream& out) : out_(out), input_(size_t(1) << 17)
    {
        setp(input_.data(), input_.data() + input_.size());
    }
    CompressingBuffer(const CompressingBuffer&) = delete;
    CompressingBuffer& operator=(const CompressingBuffer&) = delete;

    void finish()
    {
        compress(pbase(), size_t(pptr() - pbase()), true);
        setp(input_.data(), input_.data() + input_.size());
    }

protected:
    int_type overflow(int_type c) override
    {
        compress(pbase(), size_t(pptr() - pbase()), false);
        setp(input_.data(), input_.data() + input_.size());
        if (!traits_type::eq_int_type(c, traits_type::eof()))
            sputc(traits_type::to_char_type(c));
        return traits_type::not_eof(c);
    }
    // Compressed data is only complete at finish(): a flush passes on what
    // the compressor has produced so far.
    int sync() override
    {
        out_.flush();
        return out_ ? 0 : -1;
    }

    virtual void compress(const char* data, size_t size, bool last) = 0;

    void emit(const char* data, size_t size) { out_.write(data, std::streamsize(size)); }

private:
    std::ostream& out_;
    std::vector<char> input_;
};

class GzipBuffer : public CompressingBuffer {
public:
    explicit GzipBuffer(std::ostream& out) : CompressingBuffer(out)
    {
        // 16 + 15: a gzip header, with no file name and no time in it, as
        // `gzip -n` writes.
        if (deflateInit2(&stream_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8,
                         Z_DEFAULT_STRATEGY) != Z_OK)
            throw Error("cannot start gzip compression: out of memory");
    }
    ~GzipBuffer() override { deflateEnd(&stream_); }

private:
    void compress(const char* data, size_t size, bool last) override
    {
        stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
        stream_.avail_in = uInt(size);
        char output[1 << 16];
        int status;
        do {
            stream_.next_out = reinterpret_cast<Bytef*>(output);
            stream_.avail_out = sizeof output;
            status = deflate(&stream_, last ? Z_FINISH : Z_NO_FLUSH);
            if (status == Z_STREAM_ERROR)
                throw Error("gzip compression failed");
            emit(output, sizeof output - stream_.avail_out);
        } while (stream_.avail_out == 0 || (last && status != Z_STREAM_END));
    }

    z_stream stream_{};
};

class ZstdBuffer : public CompressingBuffer {
public:
    explicit ZstdBuffer(std::ostream& out) : CompressingBuffer(out), context_(ZSTD_createCCtx())
    {
        if (context_ == nullptr)
            throw Error("cannot start zstd compression: out of memory");
    }
    ~ZstdBuffer() override { ZSTD_freeCCtx(context_); }

private:
    void compress(const char* data, size_t size, bool last) override
    {
        ZSTD_inBuffer in{data, size, 0};
        std::vector<char> output(ZSTD_CStreamOutSize());
        for (;;) {
            ZSTD_outBuffer out{output.data(), output.size(), 0};
            const size_t left =
                ZSTD_compressStream2(context_, &out, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left))
                throw Error(std::string("zstd compression failed: ") + ZSTD_getErrorName(left));
            emit(output.data(), out.pos);
            if (last ? left == 0 : in.pos == in.size)
                return;
        }
    }

    ZSTD_CCtx* context_;
};

} // namespace

void write_compressed(std::ostream& out, Compression compression,
                      const std::function<void(std::ostream&)>& write)
{
    if (compression == Compression::none) {
        write(out);
        return;
    }
    std::unique_ptr<CompressingBuffer> buffer;
    if (compression == Compression::gzip)
        buffer = std::make_unique<GzipBuffer>(out);
    else
        buffer = std::make_unique<ZstdBuffer>(out);
    std::ostream compressed(buffer.get());
    write(compressed);
    if (!compressed)
        throw Error("cannot compress the output: the text could not be written");
    buffer->finish();
}

} // namespace vgprof
