// SPDX-License-Identifier: GPL-2.0-or-later
// Strong index types for the profile's tables. A profile is mostly integers
// pointing into other tables; giving each table its own id type lets the
// compiler catch a file id passed where a function id belongs.
#ifndef VGPROF_IDS_HPP
#define VGPROF_IDS_HPP

#include <cstddef>
#include <cstdint>
#include <functional>

namespace vgprof {

namespace detail {

// Tag is the derived id type, so ids of different tables neither compare
// with nor convert into each other.
template <typename Tag>
struct Index {
    uint32_t value = 0;

    constexpr Index() = default;
    constexpr explicit Index(uint32_t v) : value(v) {}

    constexpr size_t index() const { return value; }

    friend constexpr bool operator==(Index a, Index b) { return a.value == b.value; }
    friend constexpr bool operator!=(Index a, Index b) { return a.value != b.value; }
    friend constexpr bool operator<(Index a, Index b) { return a.value < b.value; }
    friend constexpr bool operator<=(Index a, Index b) { return a.value <= b.value; }
    friend constexpr bool operator>(Index a, Index b) { return a.value > b.value; }
    friend constexpr bool operator>=(Index a, Index b) { return a.value >= b.value; }
};

} // namespace detail

// An index into Profile's string table (`strs`).
struct StrId : detail::Index<StrId> { using Index::Index; };
// An index into the object table (`objs`).
struct ObjId : detail::Index<ObjId> { using Index::Index; };
// An index into the source file table (`files`).
struct FileId : detail::Index<FileId> { using Index::Index; };
// An index into the function table (`fns`).
struct FnId : detail::Index<FnId> { using Index::Index; };
// An index into the call-path tree (`paths`): a node's row number.
struct PathId : detail::Index<PathId> { using Index::Index; };
// An index into the heap's stack frames (`heap.frames`).
struct FrameId : detail::Index<FrameId> { using Index::Index; };
// An index into the heap's allocation sites (`heap.sites`).
struct SiteId : detail::Index<SiteId> { using Index::Index; };
// An index into the data objects (`data.objects`).
struct DataObjId : detail::Index<DataObjId> { using Index::Index; };

} // namespace vgprof

// Hashing lets ids key unordered containers directly.
namespace std {
template <> struct hash<vgprof::StrId> {
    size_t operator()(vgprof::StrId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::ObjId> {
    size_t operator()(vgprof::ObjId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::FileId> {
    size_t operator()(vgprof::FileId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::FnId> {
    size_t operator()(vgprof::FnId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::PathId> {
    size_t operator()(vgprof::PathId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::FrameId> {
    size_t operator()(vgprof::FrameId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::SiteId> {
    size_t operator()(vgprof::SiteId id) const noexcept { return hash<uint32_t>()(id.value); }
};
template <> struct hash<vgprof::DataObjId> {
    size_t operator()(vgprof::DataObjId id) const noexcept { return hash<uint32_t>()(id.value); }
};
} // namespace std

#endif
