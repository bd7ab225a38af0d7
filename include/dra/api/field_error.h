// Field errors as apimachinery renders them
// (k8s.io/apimachinery/pkg/util/validation/field/errors.go at v0.37.2).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::api {

enum class ErrorType : std::uint8_t {
  kNotFound,
  kRequired,
  kDuplicate,
  kInvalid,
  kNotSupported,
  kForbidden,
  kTooLong,
  kTooMany,
  kInternal,
};

struct FieldError {
  ErrorType type = ErrorType::kInvalid;
  std::string field;  // e.g. spec.devices.requests[0].name
  // The bad value exactly as it appears in the message: Go-quoted strings
  // ("\"abc\""), plain numbers and booleans, JSON for anything else.
  // Only rendered for the types that show a value (Invalid, NotSupported,
  // NotFound, Duplicate, TooMany).
  std::string value;
  std::string detail;
  std::string origin;  // e.g. format=k8s-short-name; informational

  // "Invalid value: \"x\": detail"
  std::string Body() const;
  // "<field>: <Body()>"
  std::string ToString() const;
  // "FieldValueInvalid", ... (the StatusCause reason)
  std::string_view Reason() const;
};

using FieldErrors = std::vector<FieldError>;

// Renderings of bad values in error bodies, as field.Error.ErrorBody.
std::string GoQuote(std::string_view s);  // strconv.Quote
std::string RenderInt(std::int64_t v);

// Constructors with apimachinery's detail conventions.
FieldError Required(std::string field, std::string detail = {});
FieldError Forbidden(std::string field, std::string detail = {});
FieldError Invalid(std::string field, std::string rendered_value, std::string detail);
FieldError InvalidString(std::string field, std::string_view value, std::string detail);
FieldError NotSupported(std::string field, std::string_view value,
                        const std::vector<std::string_view>& supported);
FieldError Duplicate(std::string field, std::string rendered_value);
FieldError NotFound(std::string field, std::string rendered_value, std::string detail = {});
FieldError TooLong(std::string field, std::int64_t max_bytes);       // "... N bytes"
FieldError TooLongChars(std::string field, std::int64_t max_chars);  // DV maxLength
FieldError TooMany(std::string field, std::int64_t actual, std::int64_t max);
FieldError InternalError(std::string field, std::string detail);

// `<Kind>.resource.k8s.io "<name>" is invalid: <agg>` as kube-apiserver's
// 422 message: one error alone, several in brackets, repeats dropped.
std::string InvalidObjectMessage(std::string_view kind, std::string_view group,
                                 std::string_view name, const FieldErrors& errors);

}  // namespace dra::api
