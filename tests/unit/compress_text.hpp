// SPDX-License-Identifier: GPL-2.0-or-later
// Text compressed as the gzip and zstd commands compress it, for tests of
// reading compressed profiles.
#ifndef VGPROF_TESTS_COMPRESS_TEXT_HPP
#define VGPROF_TESTS_COMPRESS_TEXT_HPP

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <string>

namespace vgprof::test {

inline std::string gzip(const std::string& text)
{
    z_stream s{};
    EXPECT_EQ(deflateInit2(&s, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&s, uLong(text.size())), '\0');
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    s.avail_in = uInt(text.size());
    s.next_out = reinterpret_cast<Bytef*>(out.data());
    s.avail_out = uInt(out.size());
    EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
    out.resize(s.total_out);
    deflateEnd(&s);
    return out;
}

// With a checksum of the content, as the zstd command writes by default.
inline std::string zstd(const std::string& text)
{
    ZSTD_CCtx* context = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1);
    std::string out(ZSTD_compressBound(text.size()), '\0');
    const size_t n = ZSTD_compress2(context, out.data(), out.size(), text.data(), text.size());
    EXPECT_FALSE(ZSTD_isError(n));
    ZSTD_freeCCtx(context);
    out.resize(n);
    return out;
}

} // namespace vgprof::test

#endif
