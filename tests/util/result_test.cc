#include "dra/util/result.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "dra/util/system_error.h"

namespace dra {
namespace {

Result<int> Parse(const std::string& s) {
  if (s.empty()) return Error{"empty"};
  if (s == "gone") return Error{"no such thing", ErrorCode::kNotFound};
  return static_cast<int>(s.size());
}

// Passing an error on, with or without context, keeps its code.
Result<std::string> Twice(const std::string& s) {
  Result<int> n = Parse(s);
  if (!n.ok()) return n.failure().WithPrefix("parse " + s + ": ");
  return std::string(static_cast<std::size_t>(*n) * 2, 'x');
}

Status Check(const std::string& s) {
  Result<std::string> t = Twice(s);
  if (!t.ok()) return std::move(t).failure();
  return {};
}

TEST(Error, PlainMessageIsInvalidInput) {
  Result<int> r = Parse("");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error(), "empty");
}

TEST(Error, CodeSurvivesWrappingAndConversion) {
  Result<std::string> r = Twice("gone");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), ErrorCode::kNotFound);
  EXPECT_EQ(r.error(), "parse gone: no such thing");
  Status s = Check("gone");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kNotFound);
  EXPECT_EQ(s.failure().message, "parse gone: no such thing");
  EXPECT_TRUE(Check("ab").ok());
  EXPECT_EQ(*Twice("ab"), "xxxx");
}

TEST(Error, WithPrefixOnAnLvalueLeavesItAlone) {
  const Error e{"inner", ErrorCode::kConflict};
  Error outer = e.WithPrefix("outer: ");
  EXPECT_EQ(outer.message, "outer: inner");
  EXPECT_EQ(outer.code, ErrorCode::kConflict);
  EXPECT_EQ(e.message, "inner");
}

TEST(Error, CodeNames) {
  EXPECT_EQ(ErrorCodeName(ErrorCode::kInvalidInput), "InvalidInput");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kDeadlineExceeded), "DeadlineExceeded");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kInternal), "Internal");
}

TEST(ErrnoError, NamesTheObjectAndMapsTheCode) {
  Error e = ErrnoError("open /x", ENOENT);
  EXPECT_EQ(e.message, std::string("open /x: ") + std::strerror(ENOENT));
  EXPECT_EQ(e.code, ErrorCode::kNotFound);
  EXPECT_EQ(ErrnoCode(EACCES), ErrorCode::kPermissionDenied);
  EXPECT_EQ(ErrnoCode(EEXIST), ErrorCode::kAlreadyExists);
  EXPECT_EQ(ErrnoCode(EAGAIN), ErrorCode::kUnavailable);
  EXPECT_EQ(ErrnoCode(ETIMEDOUT), ErrorCode::kDeadlineExceeded);
  EXPECT_EQ(ErrnoCode(EIO), ErrorCode::kInternal);
}

}  // namespace
}  // namespace dra
