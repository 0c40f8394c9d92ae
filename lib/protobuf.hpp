// SPDX-License-Identifier: GPL-2.0-or-later
// A protocol buffer message written in protobuf's wire format, field by
// field: the little a writer of pprof's profile.proto needs (varints,
// length-delimited strings and submessages, packed repeated varints).
// Written by hand rather than with libprotobuf: the export only writes, a
// few dozen lines cover it, and libprotobuf would bring protoc, generated
// code and a copy of the schema into the build for that. Internal to
// libvgprof.
#ifndef VGPROF_PROTOBUF_HPP
#define VGPROF_PROTOBUF_HPP

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vgprof::detail {

class ProtoMessage {
public:
    // A varint field (int64, uint64, bool). Zero is a proto3 field's default
    // and is left out, as protobuf's own writers leave it out.
    ProtoMessage& varint(uint32_t field, uint64_t value)
    {
        if (value != 0) {
            tag(field, kVarint);
            raw_varint(value);
        }
        return *this;
    }

    // A string or bytes field, written even when empty (a repeated string,
    // such as pprof's string table, has meaningful empty elements).
    ProtoMessage& bytes(uint32_t field, std::string_view data)
    {
        tag(field, kLengthDelimited);
        raw_varint(data.size());
        out_.append(data);
        return *this;
    }

    ProtoMessage& message(uint32_t field, const ProtoMessage& m) { return bytes(field, m.out_); }

    // A repeated varint field, packed (proto3's default encoding).
    ProtoMessage& packed(uint32_t field, const std::vector<uint64_t>& values)
    {
        if (values.empty())
            return *this;
        ProtoMessage body;
        for (uint64_t v : values)
            body.raw_varint(v);
        return bytes(field, body.out_);
    }

    const std::string& encoded() const { return out_; }

private:
    enum WireType : uint32_t { kVarint = 0, kLengthDelimited = 2 };

    void tag(uint32_t field, WireType type) { raw_varint(uint64_t(field) << 3 | type); }

    // Seven bits a byte, low first, the high bit set on all but the last.
    void raw_varint(uint64_t v)
    {
        while (v >= 0x80) {
            out_.push_back(char((v & 0x7f) | 0x80));
            v >>= 7;
        }
        out_.push_back(char(v));
    }

    std::string out_;
};

} // namespace vgprof::detail

#endif
