// ErrorFromResponse and KubectlErrorText against the texts apimachinery's
// NewGenericServerResponse and kubectl's error printing (k8s.io/kubectl
// pkg/cmd/util/helpers.go at v0.37.2) produce.
#include "dra/kube/api_error.h"

#include <gtest/gtest.h>

namespace dra::kube {
namespace {

TEST(ErrorFromResponse, DecodesStatus) {
  ApiError e = ErrorFromResponse(
      404, "application/json",
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceclaims.resource.k8s.io \"x\" not found","reason":"NotFound","details":{"name":"x","group":"resource.k8s.io","kind":"resourceclaims"},"code":404})",
      "GET", "resourceclaims.resource.k8s.io", "x");
  EXPECT_TRUE(e.IsNotFound());
  EXPECT_EQ(e.code, 404);
  EXPECT_EQ(e.details_kind, "resourceclaims");
  EXPECT_EQ(KubectlErrorText(e),
            "Error from server (NotFound): resourceclaims.resource.k8s.io \"x\" not found");
}

TEST(ErrorFromResponse, ExpiredListKeepsContinueToken) {
  ApiError e = ErrorFromResponse(
      410, "application/json",
      R"({"kind":"Status","apiVersion":"v1","metadata":{"continue":"abc"},"status":"Failure","message":"too old","reason":"Expired","code":410})",
      "GET", "resourceslices.resource.k8s.io", "");
  EXPECT_TRUE(e.IsGone());
  EXPECT_EQ(e.continue_token, "abc");
}

TEST(ErrorFromResponse, PlainTextTooManyRequests) {
  ApiError e = ErrorFromResponse(429, "text/plain; charset=utf-8",
                                 "Too many requests, please try again later.\n", "GET",
                                 "resourceslices.resource.k8s.io", "");
  EXPECT_TRUE(e.IsTooManyRequests());
  EXPECT_EQ(e.reason, "TooManyRequests");
  EXPECT_EQ(e.message,
            "the server has received too many requests and has asked us to try again later "
            "(get resourceslices.resource.k8s.io)");
  ASSERT_EQ(e.causes.size(), 1u);
  EXPECT_EQ(e.causes[0].type, "UnexpectedServerResponse");
  EXPECT_EQ(e.causes[0].message, "Too many requests, please try again later.");
}

TEST(ErrorFromResponse, ServerErrorQuotesBody) {
  ApiError e = ErrorFromResponse(502, "text/html", "bad \"gateway\"", "GET", "nodes", "n1");
  EXPECT_EQ(e.reason, "InternalError");
  EXPECT_EQ(e.message,
            "an error on the server (\"bad \\\"gateway\\\"\") has prevented the request from "
            "succeeding (get nodes n1)");
}

TEST(ErrorFromResponse, NonTextBodyIsUnknown) {
  ApiError e = ErrorFromResponse(500, "application/octet-stream", "\x01\x02", "GET", "", "");
  EXPECT_EQ(e.message,
            "an error on the server (\"unknown\") has prevented the request from succeeding");
}

TEST(ErrorFromResponse, ConflictOnPostIsAlreadyExists) {
  EXPECT_EQ(ErrorFromResponse(409, "", "", "POST", "", "").reason, "AlreadyExists");
  EXPECT_EQ(ErrorFromResponse(409, "", "", "PUT", "", "").reason, "Conflict");
}

TEST(ErrorFromResponse, SuccessStatusIsNotAFailureStatus) {
  ApiError e =
      ErrorFromResponse(500, "application/json",
                        R"({"kind":"Status","status":"Success","message":"ok"})", "GET", "", "");
  EXPECT_EQ(e.reason, "InternalError");
}

TEST(KubectlErrorText, InvalidWithOneCause) {
  ApiError e;
  e.code = 422;
  e.reason = "Invalid";
  e.message =
      "ResourceClaim.resource.k8s.io \"x\" is invalid: spec.devices.requests[0].name: Required "
      "value";
  e.details_kind = "ResourceClaim";
  e.details_name = "x";
  e.causes.push_back({"FieldValueRequired", "Required value", "spec.devices.requests[0].name"});
  EXPECT_EQ(KubectlErrorText(e),
            "The ResourceClaim \"x\" is invalid: spec.devices.requests[0].name: Required value");
}

TEST(KubectlErrorText, InvalidWithSeveralCausesDeduplicated) {
  ApiError e;
  e.reason = "Invalid";
  e.details_kind = "ResourceClaim";
  e.details_name = "x";
  e.causes.push_back({"FieldValueRequired", "Required value", "a"});
  e.causes.push_back({"FieldValueInvalid", "Invalid value: \"B\"", "b"});
  e.causes.push_back({"FieldValueRequired", "Required value", "a"});
  EXPECT_EQ(KubectlErrorText(e),
            "The ResourceClaim \"x\" is invalid: \n* a: Required value\n* b: Invalid value: \"B\"");
}

TEST(KubectlErrorText, InvalidWithoutDetails) {
  ApiError e;
  e.reason = "Invalid";
  e.message = "m";
  EXPECT_EQ(KubectlErrorText(e), "The request is invalid: m");
}

TEST(KubectlErrorText, UnauthorizedAndForbidden) {
  ApiError u;
  u.reason = "Unauthorized";
  u.message = "Unauthorized";
  EXPECT_EQ(KubectlErrorText(u), "error: You must be logged in to the server (Unauthorized)");
  ApiError f;
  f.reason = "Forbidden";
  f.message =
      "resourceslices.resource.k8s.io is forbidden: User \"x\" cannot list resource "
      "\"resourceslices\" in API group \"resource.k8s.io\" at the cluster scope";
  EXPECT_EQ(KubectlErrorText(f), "Error from server (Forbidden): " + f.message);
  ApiError none;
  none.message = "m";
  EXPECT_EQ(KubectlErrorText(none), "Error from server: m");
}

TEST(KubectlErrorText, Transport) {
  EXPECT_EQ(KubectlErrorText(ApiError::Transport("x", "127.0.0.1:1", true)),
            "The connection to the server 127.0.0.1:1 was refused - did you specify the right "
            "host or port?");
  EXPECT_EQ(KubectlErrorText(ApiError::Transport("SSL certificate problem", "h:1", false)),
            "Unable to connect to the server: SSL certificate problem");
}

// The code an ApiError becomes follows its reason, else its HTTP code;
// ToError's message is kubectl's text.
TEST(ApiErrorCode, FollowsReasonThenHttpCode) {
  auto from = [](int code) {
    return ErrorFromResponse(code, "text/plain", "boom", "GET", "resourceclaims.resource.k8s.io",
                             "x");
  };
  EXPECT_EQ(from(404).error_code(), ErrorCode::kNotFound);
  EXPECT_EQ(from(409).error_code(), ErrorCode::kConflict);
  EXPECT_EQ(from(410).error_code(), ErrorCode::kConflict);
  EXPECT_EQ(from(401).error_code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(from(403).error_code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(from(422).error_code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(from(400).error_code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(from(429).error_code(), ErrorCode::kUnavailable);
  EXPECT_EQ(from(503).error_code(), ErrorCode::kUnavailable);
  EXPECT_EQ(from(504).error_code(), ErrorCode::kDeadlineExceeded);
  EXPECT_EQ(from(500).error_code(), ErrorCode::kInternal);
  EXPECT_EQ(ApiError::Transport("refused", "127.0.0.1:1", true).error_code(),
            ErrorCode::kUnavailable);
  EXPECT_EQ(ApiError::Protocol("not JSON").error_code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(ApiError::Cancelled().error_code(), ErrorCode::kCancelled);

  ApiError exists = ErrorFromResponse(
      409, "application/json",
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"x exists","reason":"AlreadyExists","code":409})",
      "POST", "resourceclaims.resource.k8s.io", "x");
  Error e = ToError(exists);
  EXPECT_EQ(e.code, ErrorCode::kAlreadyExists);
  EXPECT_EQ(e.message, KubectlErrorText(exists));
}

}  // namespace
}  // namespace dra::kube
