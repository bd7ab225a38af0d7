// GzipMembers against streams that zlib's own gzip encoder writes, the way
// kube-apiserver writes a compressed watch-list: one member per flush.
#include "kube/gzip_members.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kube/gzip_member.h"

namespace dra::kube {
namespace {

using testing::GzipMember;

struct Collected {
  std::string text;
  std::size_t largest_piece = 0;
  std::function<bool(std::string_view)> Sink() {
    return [this](std::string_view piece) {
      text.append(piece);
      largest_piece = std::max(largest_piece, piece.size());
      return true;
    };
  }
};

TEST(GzipMembersTest, ReadsEveryMember) {
  const std::string a = "{\"type\":\"ADDED\"}\n", b = "{\"type\":\"BOOKMARK\"}\n";
  const std::string stream = GzipMember(a) + GzipMember(b) + GzipMember("");
  GzipMembers whole;
  Collected all;
  ASSERT_TRUE(whole.Feed(stream, all.Sink())) << whole.error();
  EXPECT_EQ(all.text, a + b);
  EXPECT_FALSE(whole.inside_member());

  GzipMembers bytewise;  // the members' boundaries anywhere in the pieces
  Collected each;
  for (char c : stream) ASSERT_TRUE(bytewise.Feed(std::string_view(&c, 1), each.Sink()));
  EXPECT_EQ(each.text, a + b);
}

TEST(GzipMembersTest, HandsOutAMemberBeforeTheNextArrives) {
  GzipMembers g;
  Collected got;
  ASSERT_TRUE(g.Feed(GzipMember("first\n"), got.Sink()));
  EXPECT_EQ(got.text, "first\n");  // nothing held back until more input
  EXPECT_FALSE(g.inside_member());
  const std::string second = GzipMember("second\n");
  ASSERT_TRUE(g.Feed(std::string_view(second).substr(0, 5), got.Sink()));
  EXPECT_TRUE(g.inside_member());
  ASSERT_TRUE(g.Feed(std::string_view(second).substr(5), got.Sink()));
  EXPECT_EQ(got.text, "first\nsecond\n");
}

TEST(GzipMembersTest, OutputComesInBoundedPieces) {
  const std::string big(std::size_t{8} << 20, 'x');  // compresses about 1000:1
  GzipMembers g;
  Collected got;
  ASSERT_TRUE(g.Feed(GzipMember(big), got.Sink()));
  EXPECT_EQ(got.text.size(), big.size());
  EXPECT_LE(got.largest_piece, std::size_t{64} << 10);
}

TEST(GzipMembersTest, RejectsWhatIsNotGzip) {
  GzipMembers g;
  Collected got;
  EXPECT_FALSE(g.Feed("{\"type\":\"ADDED\"}\n", got.Sink()));
  EXPECT_FALSE(g.error().empty());
  EXPECT_FALSE(g.stopped());
  EXPECT_FALSE(g.Feed(GzipMember("later"), got.Sink()));  // nothing after an error

  std::string damaged = GzipMember(std::string(1000, 'y'));
  damaged[damaged.size() / 2] ^= 0x55;
  GzipMembers h;
  Collected partial;
  EXPECT_FALSE(h.Feed(damaged, partial.Sink()));
  EXPECT_FALSE(h.error().empty());
}

TEST(GzipMembersTest, StopsWhenTheReaderDoes) {
  GzipMembers g;
  int calls = 0;
  EXPECT_FALSE(g.Feed(GzipMember("a") + GzipMember("b"), [&](std::string_view) {
    ++calls;
    return false;
  }));
  EXPECT_TRUE(g.stopped());
  EXPECT_TRUE(g.error().empty());
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace dra::kube
