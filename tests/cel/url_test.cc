// The Kubernetes URL library: Go url.ParseRequestURI rules as upstream's
// urls.go (k8s.io/apiserver pkg/cel/library) applies them.
#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

std::string Eval(std::string_view expression) {
  SimpleDevice none;
  return testing::Outcome(expression, none);
}

TEST(URL, Accessors) {
  const char* u = "url('https://user:pass@example.com:80/path?query=val#fragment')";
  EXPECT_EQ(Eval(std::string(u) + ".getScheme() == 'https'"), "true");
  EXPECT_EQ(Eval(std::string(u) + ".getHost() == 'example.com:80'"), "true");
  EXPECT_EQ(Eval(std::string(u) + ".getHostname() == 'example.com'"), "true");
  EXPECT_EQ(Eval(std::string(u) + ".getPort() == '80'"), "true");
  EXPECT_EQ(Eval(std::string(u) + ".getEscapedPath() == '/path'"), "true");
  // ParseRequestURI does not split off a fragment.
  EXPECT_EQ(Eval(std::string(u) + ".getQuery() == {'query': ['val#fragment']}"), "true");
  EXPECT_EQ(Eval("url('HTTPS://example.com').getScheme() == 'https'"), "true");
  EXPECT_EQ(Eval("url('https://example.com').getPort() == ''"), "true");
  EXPECT_EQ(Eval("url('https://example.com').getEscapedPath() == ''"), "true");
  EXPECT_EQ(Eval("url('https://[::1]:80/p').getHostname() == '::1'"), "true");
  EXPECT_EQ(Eval("url('https://[::1]:80/p').getHost() == '[::1]:80'"), "true");
  EXPECT_EQ(Eval("url('https://[::1]/p').getPort() == ''"), "true");
  EXPECT_EQ(Eval("url('/absolute-path').getScheme() == ''"), "true");
  EXPECT_EQ(Eval("url('/absolute-path').getHost() == ''"), "true");
  EXPECT_EQ(Eval("url('/absolute-path').getEscapedPath() == '/absolute-path'"), "true");
  EXPECT_EQ(Eval("url('https://example.com/path with spaces/').getEscapedPath() == "
                 "'/path%20with%20spaces/'"),
            "true");
  EXPECT_EQ(Eval("url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'"), "true");
}

TEST(URL, Query) {
  EXPECT_EQ(Eval("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == "
                 "{'k1': ['a'], 'k2': ['b', 'c']}"),
            "true");
  EXPECT_EQ(Eval("url('https://example.com/?a=x+y&b=%41&c&d=%zz&e;f=1').getQuery() == "
                 "{'a': ['x y'], 'b': ['A'], 'c': ['']}"),
            "true");
  EXPECT_EQ(Eval("url('https://example.com/').getQuery() == {}"), "true");
}

TEST(URL, Acceptance) {
  EXPECT_EQ(Eval("isURL('https://example.com:8080/path') && isURL('/') && isURL('*')"), "true");
  EXPECT_EQ(Eval("isURL('mailto:someone@example.com')"), "true");
  EXPECT_EQ(Eval("isURL('../relative-path') || isURL('example.com') || isURL('')"), "false");
  EXPECT_EQ(Eval("isURL('https://example.com:port/') || isURL('https://[::1/')"), "false");
  EXPECT_EQ(Eval("isURL('https://exa mple.com/') || isURL('https://a%zz.com/')"), "false");
  EXPECT_EQ(Eval("url('../relative-path').getScheme() == ''"),
            "err: URL parse error during conversion from string: parse \"../relative-path\": "
            "invalid URI for request");
  EXPECT_EQ(Eval("url(':x').getScheme() == ''"),
            "err: URL parse error during conversion from string: parse \":x\": missing protocol "
            "scheme");
  EXPECT_EQ(Eval("url('https://example.com:port/').getScheme() == ''"),
            "err: URL parse error during conversion from string: parse "
            "\"https://example.com:port/\": invalid port \":port\" after host");
  EXPECT_EQ(Eval("url('https://exa mple.com/').getScheme() == ''"),
            "err: URL parse error during conversion from string: parse "
            "\"https://exa mple.com/\": invalid character \" \" in host name");
  EXPECT_EQ(Eval("url('/a%zz').getScheme() == ''"),
            "err: URL parse error during conversion from string: parse \"/a%zz\": invalid URL "
            "escape \"%zz\"");
  EXPECT_EQ(Eval("isURL(1)").rfind("compile: ", 0), 0u);
}

}  // namespace
}  // namespace dra::cel
