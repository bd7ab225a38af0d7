// SHA-256 and unpadded base64url on their own, against published vectors.
#include "driver/sha256.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

namespace dra::driver {
namespace {

std::string Hex(const std::array<std::uint8_t, 32>& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : digest) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::string Base64Url(std::string_view bytes) {
  return Base64UrlNoPadding(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

// The examples of FIPS 180-2 appendix B (SHA-256): one block, two blocks,
// and one million repetitions of "a".
TEST(Sha256Test, Fips180Examples) {
  EXPECT_EQ(Hex(Sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex(Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(Sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The empty message and the 896-bit message of the NIST examples
// (SHA256.pdf, "Secure Hashing" example values).
TEST(Sha256Test, EmptyAndLongMessage) {
  EXPECT_EQ(Hex(Sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(
      Hex(Sha256("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmno"
                 "pqklmnopqrlmnopqrsmnopqrstnopqrstu")),
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

// Lengths around the padding boundaries: 55 bytes is the longest message
// whose padding and 64-bit length fit in one block, 56 needs a second block,
// 64 is exactly one block. Expected digests from coreutils' sha256sum.
TEST(Sha256Test, PaddingBoundaries) {
  EXPECT_EQ(Hex(Sha256(std::string(55, 'a'))),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(Hex(Sha256(std::string(56, 'a'))),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(Hex(Sha256(std::string(63, 'a'))),
            "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
  EXPECT_EQ(Hex(Sha256(std::string(64, 'a'))),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  EXPECT_EQ(Hex(Sha256(std::string(65, 'a'))),
            "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
}

// RFC 4648 section 10's test vectors, without the "=" padding
// (base64.RawURLEncoding in Go).
TEST(Base64UrlTest, Rfc4648VectorsWithoutPadding) {
  EXPECT_EQ(Base64Url(""), "");
  EXPECT_EQ(Base64Url("f"), "Zg");
  EXPECT_EQ(Base64Url("fo"), "Zm8");
  EXPECT_EQ(Base64Url("foo"), "Zm9v");
  EXPECT_EQ(Base64Url("foob"), "Zm9vYg");
  EXPECT_EQ(Base64Url("fooba"), "Zm9vYmE");
  EXPECT_EQ(Base64Url("foobar"), "Zm9vYmFy");
}

// RFC 4648 section 5: values 62 and 63 are "-" and "_" where standard
// base64 has "+" and "/" (FB FF BF is "+/+/" in standard base64).
TEST(Base64UrlTest, UrlSafeAlphabet) {
  EXPECT_EQ(Base64Url("\xfb\xff\xbf"), "-_-_");
  EXPECT_EQ(Base64Url("\xfb\xff"), "-_8");
  EXPECT_EQ(Base64Url(std::string(1, '\0')), "AA");
}

}  // namespace
}  // namespace dra::driver
