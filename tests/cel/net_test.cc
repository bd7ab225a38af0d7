// The Kubernetes IP and CIDR libraries, against the behaviour of upstream's
// ip.go / cidr.go in k8s.io/apiserver pkg/cel/library (Go net/netip underneath).
#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

std::string Eval(std::string_view expression) {
  SimpleDevice none;
  return testing::Outcome(expression, none);
}

TEST(IP, ParsesAndPrintsCanonically) {
  EXPECT_EQ(Eval("string(ip('192.168.0.1')) == '192.168.0.1'"), "true");
  EXPECT_EQ(Eval("string(ip('2001:DB8:0:0:0:0:0:1')) == '2001:db8::1'"), "true");
  EXPECT_EQ(Eval("string(ip('2001:db8:0:1:0:0:0:1')) == '2001:db8:0:1::1'"), "true");
  EXPECT_EQ(Eval("string(ip('0:0:0:0:0:0:0:0')) == '::'"), "true");
  EXPECT_EQ(Eval("string(ip('1:0:0:1:0:0:0:1')) == '1:0:0:1::1'"), "true");
  EXPECT_EQ(Eval("string(ip('1:0:1:1:1:1:1:1')) == '1:0:1:1:1:1:1:1'"), "true");
  EXPECT_EQ(Eval("string(ip('::1.2.3.4')) == '::102:304'"), "true");
  EXPECT_EQ(Eval("ip('2001:db8::1') == ip('2001:0db8::0001')"), "true");
  EXPECT_EQ(Eval("ip('10.0.0.1') != ip('10.0.0.2')"), "true");
  EXPECT_EQ(Eval("isIP('1.2.3.4') && isIP('::') && !isIP('1.2.3') && !isIP('')"), "true");
}

TEST(IP, RejectsWithUpstreamMessages) {
  EXPECT_EQ(Eval("ip('1.2.3') == ip('1.2.3.4')"),
            "err: IP Address \"1.2.3\" parse error during conversion from string: "
            "ParseAddr(\"1.2.3\"): IPv4 address too short");
  EXPECT_EQ(Eval("isIP('010.0.0.1')"), "false");
  EXPECT_EQ(Eval("ip('010.0.0.1').family() == 4"),
            "err: IP Address \"010.0.0.1\" parse error during conversion from string: "
            "ParseAddr(\"010.0.0.1\"): IPv4 field has octet with leading zero");
  EXPECT_EQ(Eval("ip('fe80::1%en0').family() == 6"),
            "err: IP address \"fe80::1%en0\" with zone value is not allowed");
  EXPECT_EQ(Eval("ip('::ffff:1.2.3.4').family() == 6"),
            "err: IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed");
  EXPECT_EQ(Eval("isIP('::ffff:c0a8:1')"), "false");
  EXPECT_EQ(Eval("ip('2001:db8::g').family() == 6"),
            "err: IP Address \"2001:db8::g\" parse error during conversion from string: "
            "ParseAddr(\"2001:db8::g\"): each colon-separated field must have at least one digit "
            "(at \"g\")");
  EXPECT_EQ(Eval("isIP('1::2::3') || isIP('1:2:3:4:5:6:7:8:9') || isIP('1.2.3.256')"), "false");
  EXPECT_EQ(Eval("isIP('1:2:3:4:5:6:7::8') || isIP('12345::') || isIP('1.2.3.4.5')"), "false");
}

TEST(IP, Inspection) {
  EXPECT_EQ(Eval("ip('192.168.0.1').family() == 4 && ip('::1').family() == 6"), "true");
  EXPECT_EQ(Eval("ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()"), "true");
  EXPECT_EQ(Eval("ip('127.0.0.1').isUnspecified()"), "false");
  EXPECT_EQ(Eval("ip('127.1.2.3').isLoopback() && ip('::1').isLoopback()"), "true");
  EXPECT_EQ(Eval("ip('::2').isLoopback()"), "false");
  EXPECT_EQ(Eval("ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()"),
            "true");
  EXPECT_EQ(Eval("ip('224.0.1.1').isLinkLocalMulticast() || ip('ff05::1').isLinkLocalMulticast()"),
            "false");
  EXPECT_EQ(Eval("ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()"),
            "true");
  EXPECT_EQ(Eval("ip('fec0::1').isLinkLocalUnicast()"), "false");
  EXPECT_EQ(Eval("ip('192.168.0.1').isGlobalUnicast() && ip('2001:db8::1').isGlobalUnicast()"),
            "true");
  EXPECT_EQ(Eval("ip('255.255.255.255').isGlobalUnicast() || ip('ff00::1').isGlobalUnicast() || "
                 "ip('0.0.0.0').isGlobalUnicast() || ip('127.0.0.1').isGlobalUnicast()"),
            "false");
  EXPECT_EQ(Eval("ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')"), "true");
  EXPECT_EQ(Eval("ip.isCanonical('1.2.3')"),
            "err: IP Address \"1.2.3\" parse error during conversion from string: "
            "ParseAddr(\"1.2.3\"): IPv4 address too short");
}

TEST(CIDR, ParsesKeepingHostBits) {
  EXPECT_EQ(Eval("string(cidr('192.168.0.0/24')) == '192.168.0.0/24'"), "true");
  EXPECT_EQ(Eval("string(cidr('192.168.0.1/24')) == '192.168.0.1/24'"), "true");
  EXPECT_EQ(Eval("cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')"), "true");
  EXPECT_EQ(Eval("cidr('2001:db8:1::/32').masked() == cidr('2001:db8::/32')"), "true");
  EXPECT_EQ(Eval("cidr('192.168.0.1/24').ip() == ip('192.168.0.1')"), "true");
  EXPECT_EQ(Eval("cidr('192.168.0.0/24').prefixLength() == 24"), "true");
  EXPECT_EQ(Eval("cidr('2001:db8::/32').prefixLength() == 32"), "true");
  EXPECT_EQ(Eval("isCIDR('10.0.0.0/8') && isCIDR('::/0') && !isCIDR('10.0.0.0/33')"), "true");
  EXPECT_EQ(Eval("isCIDR('10.0.0.0') || isCIDR('10.0.0.0/08') || isCIDR('fe80::1%en0/64')"),
            "false");
}

TEST(CIDR, RejectsWithUpstreamMessages) {
  EXPECT_EQ(Eval("cidr('192.168.0.0/').prefixLength() == 0"),
            "err: network address parse error during conversion from string: network address "
            "parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad "
            "bits after slash: \"\"");
  EXPECT_EQ(Eval("cidr('10.0.0.0/33').prefixLength() == 0"),
            "err: network address parse error during conversion from string: network address "
            "parse error during conversion from string: netip.ParsePrefix(\"10.0.0.0/33\"): "
            "prefix length out of range");
  EXPECT_EQ(Eval("cidr('::ffff:1.2.3.4/120').prefixLength() == 0"),
            "err: network address parse error during conversion from string: IPv4-mapped IPv6 "
            "address \"::ffff:1.2.3.4/120\" is not allowed");
}

TEST(CIDR, Containment) {
  EXPECT_EQ(Eval("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))"), "true");
  EXPECT_EQ(Eval("cidr('192.168.0.0/24').containsIP('192.168.1.1')"), "false");
  EXPECT_EQ(Eval("cidr('2001:db8::/32').containsIP('2001:db8::1')"), "true");
  EXPECT_EQ(Eval("cidr('2001:db8::/32').containsIP(ip('2001:dc8::1'))"), "false");
  EXPECT_EQ(Eval("cidr('0.0.0.0/0').containsIP(ip('::1'))"), "false");
  EXPECT_EQ(Eval("cidr('192.168.0.0/24').containsIP('x')"),
            "err: IP Address \"x\" parse error during conversion from string: ParseAddr(\"x\"): "
            "unable to parse IP");
  EXPECT_EQ(Eval("cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))"), "true");
  EXPECT_EQ(Eval("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')"), "false");
  EXPECT_EQ(Eval("cidr('2001:db8::/32').containsCIDR('2001:db8::/33')"), "true");
  EXPECT_EQ(Eval("cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/31'))"), "false");
}

TEST(IP, TypeCheck) {
  EXPECT_NE(Eval("isIP(cidr('10.0.0.0/8'))")
                .find("found no matching overload for 'isIP' applied to '(net.CIDR)'"),
            std::string::npos);
  EXPECT_EQ(Eval("ip('1.2.3.4').prefixLength() == 1").rfind("compile: ", 0), 0u);
}

TEST(IP, Cost) {
  Compilation c = Compile("ip('192.168.0.1').isLoopback()");
  ASSERT_TRUE(c.ok()) << c.error.detail;
  // ceil(0.1 * 11) for ip() plus 1 for the member.
  EXPECT_EQ(c.program->estimated_max_cost(), 3u);
}

}  // namespace
}  // namespace dra::cel
